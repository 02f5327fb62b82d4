import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
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

/** The key the benches' server accepts; a crawl sends it as `tmsnap crawl` sends WEBLATE_TOKEN. */
export const benchToken = 'wlu_bench_crawl';

const bin = new URL('../bin/tmsnap.js', import.meta.url).pathname;

/**
 * The reference server on its default profile (a real Weblate 5.4) in its own process (so its
 * memory and CPU are not counted as the crawler's), reading `benchToken`. `raised` limits are
 * out of the way, so the figures measure the crawl, not the throttle; `real` keeps 5.4's own
 * (100 a day anonymous, 5000 an hour with a token). Port 0: any free port.
 */
export async function startBenchServer(data: string, limits: 'raised' | 'real', port: number): Promise<{ url: string; child: ChildProcess }> {
  const rateLimit = limits === 'raised' ? ['--rate-limit', 'anonymous=1000000,authenticated=1000000,window=3600'] : [];
  const child = spawn(process.execPath, [bin, 'reference-server', '--data', data, '--token', benchToken, '--port', String(port), ...rateLimit], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    const url = /https?:\/\/\S+\/api\//.exec(line)?.[0];
    if (url !== undefined) return { url, child };
  }
  throw new Error(`the reference server (--data ${data}) exited before printing its URL`);
}
