import { describe, expect, it } from 'vitest';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { canonicalJson, exportRecords, openSnapshot } from '../../snapshot/index.ts';
import { crawlComplete, crawlReferenceServer } from '../helpers/crawl.ts';
import { useReferenceServer } from '../helpers/reference-server.ts';
import { useContentFolders } from '../helpers/temp.ts';

const token = 'wlu_max_requests';
const server = useReferenceServer({ behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
const contentFolder = useContentFolders('tmsnap-max-requests-');

/** `tmsnap export` of the newest complete snapshot, one canonical line per record. */
export async function exported(content: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of exportRecords(await openSnapshot(content))) lines.push(canonicalJson(line));
  return lines;
}

describe('--max-requests', () => {
  it('stops each run at N requests counted at the server; resumed runs end with the one-go snapshot', async () => {
    const oneGo = await contentFolder();
    const before = server().requests;
    await crawlComplete(server(), oneGo, { token });
    const all = server().requests - before;

    const content = await contentFolder();
    const cap = 15;
    const runs: number[] = [];
    for (;;) {
      const start = server().requests;
      const result = await crawlReferenceServer(server(), content, { token, maxRequests: cap });
      runs.push(server().requests - start);
      expect(runs.length, `runs so far: ${runs.join(', ')}`).toBeLessThan(all);
      // Until the current state is in, a stopped run leaves its snapshot to resume; after, it
      // finishes the snapshot and the next run goes on with the history (the parts test's).
      if (result.outcome === 'failed') {
        expect(result.message).toMatch(/made the requests --max-requests allows, with \d+ request\(s\) to go\. Re-run the same command to resume/);
        expect(result.dir).toMatch(/\.partial$/);
      } else if (result.parts === undefined) break;
    }
    for (const made of runs) expect(made).toBeLessThanOrEqual(cap);
    // Every run but the last used its share: all of it, less the one a keyed crawl keeps for the public view.
    expect(
      runs.slice(0, -1).every((made) => made >= cap - 1),
      `requests per run: ${runs.join(', ')} of ${all}`,
    ).toBe(true);
    expect(await exported(content)).toEqual(await exported(oneGo));
  });
});
