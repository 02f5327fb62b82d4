import type { CrawlOptions } from '../crawler/crawl.ts';

/** A whole-instance crawl of a local reference server as the benches run it: polite defaults, waits short. */
export function benchCrawlOptions(apiRoot: string, contentDir: string, options: Partial<CrawlOptions> = {}): CrawlOptions {
  return {
    apiRoot: new URL(apiRoot),
    contentDir,
    projects: [],
    concurrency: 4,
    timeoutMs: 60_000,
    retries: 3,
    maxWaitMs: 5_000,
    tmsnapVersion: 'bench',
    userAgent: 'tmsnap-bench',
    ...options,
  };
}
