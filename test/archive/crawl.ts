import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { crawl } from '../../crawler/crawl.ts';
import type { ReferenceServer } from '../helpers/reference-server.ts';

/** One full crawl of a reference server into `contentDir`; fails the test unless the snapshot is complete. */
export async function crawlInto(server: ReferenceServer, contentDir: string): Promise<string> {
  const result = await crawl({
    apiRoot: new URL(server.url),
    contentDir,
    projects: [],
    concurrency: 4,
    timeoutMs: 10_000,
    retries: 2,
    maxWaitMs: 1_000,
    tmsnapVersion: '0.0.0-test',
    userAgent: 'tmsnap-test',
  });
  if (result.outcome !== 'complete') throw new Error(`crawl of ${server.url} ended ${result.outcome}: ${result.message ?? JSON.stringify(result.problems)}`);
  return result.snapshotId;
}

/** Fresh content folders under the temp dir, removed after the file's tests. */
export function useContentDirs(): () => Promise<string> {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tmsnap-archive-'));
    dirs.push(dir);
    return join(dir, 'content');
  };
}
