import { type CrawlOptions, type CrawlResult, crawl } from '../../crawler/crawl.ts';
import type { ReferenceServer } from '../../packages/reference-server/server.ts';

/** One crawl of a test reference server into `contentDir`, with test-sized politeness settings. */
export function crawlReferenceServer(server: ReferenceServer, contentDir: string, options: Partial<CrawlOptions> = {}): Promise<CrawlResult> {
  return crawl({
    apiRoot: new URL(server.url),
    contentDir,
    projects: [],
    concurrency: 4,
    timeoutMs: 30_000,
    retries: 4,
    maxWaitMs: 5_000,
    tmsnapVersion: '0.0.0-test',
    userAgent: 'tmsnap-test',
    ...options,
  });
}

/** The same, failing the test unless the snapshot came out complete. */
export async function crawlComplete(server: ReferenceServer, contentDir: string, options: Partial<CrawlOptions> = {}): Promise<CrawlResult> {
  const result = await crawlReferenceServer(server, contentDir, options);
  if (result.outcome !== 'complete') throw new Error(`crawl of ${server.url} ended ${result.outcome}: ${result.message ?? JSON.stringify(result.problems)}`);
  return result;
}
