/**
 * Tonight first, history after (issue 27; docs/crawl.md, "Tonight first"): a crawl given a budget
 * too small for the whole archive finishes a snapshot holding the current state as soon as that
 * is in, and the following runs fetch the rest, nothing of it twice, until the archive equals a
 * single complete crawl's.
 */
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../packages/reference-server/datasets.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { canonicalJson, exportRecords, openSnapshot } from '../../snapshot/index.ts';
import { crawlComplete, crawlReferenceServer } from '../helpers/crawl.ts';
import { withTestServer } from '../helpers/reference-server.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { startCountingProxy } from './counting-proxy.ts';

const contentFolder = useContentFolders('tmsnap-tonight-first-');
const token = 'wlu_tonight_first';
// One change per unit and a few more: about 12,000 changes, so the log is longer than the
// 10,000 the site shows (three pages of 1,000 beyond them) and has a history part.
const data = 'synthetic:projects=1,components=2,languages=3,units=12000,seed=3';

interface Exported {
  url: string;
  kind: string;
  record?: { timestamp?: string };
}

async function exported(content: string): Promise<Exported[]> {
  const lines: Exported[] = [];
  for await (const line of exportRecords(await openSnapshot(content))) lines.push(JSON.parse(canonicalJson(line)) as Exported);
  return lines;
}

/** What only the archive needs: translation files, translations' `repository/`, changes before `from`. */
function isHistory(line: Exported, from: string | undefined): boolean {
  if (line.kind === 'file' || /\/translations\/[^/]+\/[^/]+\/[^/]+\/repository\/$/.test(line.url)) return true;
  return line.kind === 'change' && from !== undefined && Date.parse(line.record?.timestamp ?? '') < Date.parse(from);
}

describe('tonight first, history after', () => {
  it("finishes the current state when the server's daily budget runs out in the history", async () => {
    const current = await withTestServer(
      { behaviours: { rateLimit: raisedRateLimit } },
      async (server) => (await crawlComplete(server, await contentFolder())).currentMade ?? 0,
    );
    // A day's budget for the current state and a few requests more (the crawl keeps one slot per request in flight).
    const rateLimit = { anonymous: current + 8, authenticated: current + 8, windowSeconds: 86_400 };
    await withTestServer({ behaviours: { rateLimit } }, async (server) => {
      const result = await crawlReferenceServer(server, await contentFolder(), { maxWaitMs: 60_000 });
      expect(result.outcome, result.message).toBe('complete');
      expect(result.parts?.history).toBe(false);
      expect(result.message).toMatch(/^the server's rate budget is spent: the snapshot holds the current state/);
      expect(server.requests).toBeLessThanOrEqual(rateLimit.anonymous);
    });
  });

  it('publishes the current state after the first night and the whole archive after the last, nothing fetched twice', async () => {
    await withTestServer({ data: await loadDataset(data), behaviours: { tokens: [token], rateLimit: raisedRateLimit } }, async (server) => {
      const proxy = await startCountingProxy(server.url);
      try {
        const options = { token, apiRoot: new URL(proxy.url) };
        const oneGo = await contentFolder();
        const current = (await crawlComplete(server, oneGo, options)).currentMade ?? 0;
        const all = proxy.requests.length;
        const whole = await exported(oneGo);

        const content = await contentFolder();
        const cap = Math.ceil(all / 3);
        const nights: { made: number; parts: unknown }[] = [];
        let first: Exported[] | undefined;
        let firstFrom: string | undefined;
        for (;;) {
          const before = proxy.requests.length;
          // The first night: the current state and one request of the history (one more kept for the public view).
          const result = await crawlReferenceServer(server, content, { ...options, maxRequests: nights.length === 0 ? current + 2 : cap });
          nights.push({ made: proxy.requests.length - before, parts: result.parts });
          expect(nights.length, JSON.stringify(nights)).toBeLessThan(10);
          if (result.outcome === 'failed') continue;
          expect(result.outcome).toBe('complete');
          if (first === undefined) {
            // The first finished night: the current state whole, the history left for later.
            expect(result.parts?.history).toBe(false);
            expect(result.message).toMatch(/holds the current state.*remains for later runs: at least \d+ requests/);
            first = await exported(content);
            firstFrom = result.parts?.changes_from;
            // Its log reaches back as far as the site shows: the older pages follow.
            expect(firstFrom).toBeDefined();
          }
          if (result.parts === undefined) break;
        }
        console.log(`tonight-first: ${all} requests in one go; later nights of at most ${cap}: ${JSON.stringify(nights)}`);
        expect(nights[0]?.made).toBe(current + 2);
        for (const night of nights.slice(1)) expect(night.made).toBeLessThanOrEqual(cap);

        // After the first night: everything but the history, and of the change log at least what the site shows.
        expect(first?.filter((line) => !isHistory(line, firstFrom))).toEqual(whole.filter((line) => !isHistory(line, firstFrom)));
        expect(first?.filter((line) => line.kind === 'change').length).toBeGreaterThanOrEqual(10_000);
        // After the last: the archive a single complete crawl makes.
        expect(await exported(content)).toEqual(whole);

        // Nothing of the history fetched twice: each file and repository once over the nights,
        // and the log's pages no more than one crawl's plus the window each later night reads.
        const nightly = proxy.paths.slice(all);
        const history = nightly.filter((path) => /\/file\/$|\/translations\/[^/]+\/[^/]+\/[^/]+\/repository\/$/.test(path));
        expect(new Set(history).size).toBe(history.length);
        const logPages = (requests: readonly string[]) => requests.filter((request) => request.startsWith(new URL('changes/', proxy.url).pathname)).length;
        expect(logPages(proxy.requests.slice(all))).toBeLessThanOrEqual(logPages(proxy.requests.slice(0, all)) + 2 * (nights.length - 1));
      } finally {
        await proxy.close();
      }
    });
  });
});
