import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { fixtureModel, startTestServer, type ReferenceServer, type TestServerOptions } from '../helpers/reference-server.ts';
import { randomActivity } from './activity.ts';
import { useContentFolders } from '../helpers/temp.ts';

/**
 * Issue 6's bar for the incremental crawl: after random activity through the reference
 * server's mutation hook (translations, fuzzy marks, approvals, new and removed strings, a new
 * language, a removed component), the incremental snapshot holds exactly the records (same
 * object hashes) of a full crawl of the same state, for many seeds. The fixture dataset keeps
 * each seed well under a second or two (the faults variant waits out its backoffs).
 */

const token = 'wlu_incremental';
/** A 5.4 server read with a token at raised limits: three crawls per seed (100 a day anonymous). */
const behaviours = { tokens: [token], rateLimit: raisedRateLimit };

/**
 * Real servers, each with its real-server behaviours on (newest-first changes, 50 units a page,
 * commit objects, a translation's repository/ its component's…) and read with a token at 5.4's
 * own limit (5000 an hour): every language Weblate knows listed; a 4.15 (20 a page, page_size
 * ignored); seeded 5xx and dropped connections.
 */
const variants: [string, Omit<TestServerOptions, 'data'> & { languages?: 'used' | 'all' }, number][] = [
  ['weblate-5.4, every language listed', { behaviours: { tokens: [token] }, languages: 'all' }, 10],
  ['weblate-4.15 (20 a page)', { profile: 'weblate-4.15', behaviours: { tokens: [token] } }, 10],
  ['weblate-5.4 with 3% 5xx and 3% dropped connections', { behaviours: { tokens: [token], faults: { seed: 5, errorRate: 0.03, dropRate: 0.03 } } }, 5],
];

function crawlOnce(server: ReferenceServer, contentDir: string, full: boolean, projects: string[] = []) {
  return crawlComplete(server, contentDir, { full, projects, token });
}

async function indexOf(contentDir: string, id: string) {
  const snapshot = await openSnapshot(contentDir, id);
  return { index: snapshot.index, counts: snapshot.manifest.counts };
}

describe('incremental crawl', () => {
  const contentDir = useContentFolders('tmsnap-archive-', 'all');

  it.each(variants)(
    'gives the same records as a full crawl of the same state, over seeds of random activity, whole instance or one project: %s',
    async (_name, options, runs) => {
      let requests = { incremental: 0, full: 0 };
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.boolean(), fc.boolean(), async (seed, structural, scoped) => {
          const { languages = 'used', ...serverOptions } = options;
          const model = fixtureModel(undefined, languages);
          const server = await startTestServer({ ...serverOptions, data: model });
          try {
            const content = await contentDir();
            // Scoped crawls (--project) read the project's change log instead of the instance's.
            const projects = scoped ? ['hello'] : [];
            await crawlOnce(server, content, true, projects);
            randomActivity(model, seed, { unitMutations: 5, structural });
            // Weblate commits pending edits after commit_pending_age; left pending, the crawls' own
            // file/ downloads would commit them mid-crawl (commitOnDownload), and the two crawls
            // would not see the same state.
            for (const component of model.components()) model.commitPending(component.id);
            const incremental = await crawlOnce(server, content, false, projects);
            const full = await crawlOnce(server, content, true, projects);
            requests = { incremental: requests.incremental + incremental.made, full: requests.full + full.made };
            const got = await indexOf(content, incremental.snapshotId);
            const want = await indexOf(content, full.snapshotId);
            // The paths first, so a failure names the records that differ.
            const paths = Object.keys({ ...got.index.records, ...want.index.records });
            expect(paths.filter((path) => got.index.records[path] !== want.index.records[path])).toEqual([]);
            expect(got.index.records).toEqual(want.index.records);
            expect(got.index.raw).toEqual(want.index.raw);
            expect(got.index.changes).toEqual(want.index.changes);
            expect(got.counts).toEqual(want.counts);
          } finally {
            await server.close();
          }
        }),
        { numRuns: runs },
      );
      // Both crawls ran every seed. No saving is asserted here: on a 30-unit fixture whose random
      // activity touches most components, the incremental crawl's per-translation units lists and
      // the refreshed repository/ of every translation of a touched component can cost as much as a
      // full crawl's single /api/units/ page (the saving is asserted below, and measured in bench:archive).
      expect(requests.incremental).toBeGreaterThan(0);
      expect(requests.full).toBeGreaterThan(0);
    },
    300_000,
  );

  it('crawls in full with --full, and in full when no earlier snapshot of the same scope exists', async () => {
    const server = await startTestServer({ data: fixtureModel(), behaviours });
    try {
      const content = await contentDir();
      const first = await crawlOnce(server, content, false);
      const forced = await crawlOnce(server, content, true);
      const incremental = await crawlOnce(server, content, false);
      expect(forced.made).toBe(first.made);
      expect(incremental.made).toBeLessThan(first.made);
      expect((await indexOf(content, incremental.snapshotId)).index).toEqual((await indexOf(content, forced.snapshotId)).index);
    } finally {
      await server.close();
    }
  });
});
