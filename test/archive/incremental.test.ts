import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { raisedRateLimit } from '../../reference-server/rate-limit.ts';
import { openSnapshot } from '../../snapshot/reader.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { fixtureModel, startTestServer, type ReferenceServer } from '../helpers/reference-server.ts';
import { randomActivity } from './activity.ts';
import { useContentDirs } from './crawl.ts';

/**
 * Issue 6's bar for the incremental crawl: after random activity through the reference
 * server's mutation hook (translations, fuzzy marks, approvals, new and removed strings, a new
 * language, a removed component), the incremental snapshot holds exactly the records (same
 * object hashes) of a full crawl of the same state, for many seeds. The fixture dataset keeps
 * each seed well under a second or two.
 */

const token = 'wlu_incremental';
/** A 5.4 server read with a token at raised limits: three crawls per seed (100 a day anonymous). */
const behaviours = { tokens: [token], rateLimit: raisedRateLimit };

function crawlOnce(server: ReferenceServer, contentDir: string, full: boolean, projects: string[] = []) {
  return crawlComplete(server, contentDir, { full, projects, token });
}

async function indexOf(contentDir: string, id: string) {
  const snapshot = await openSnapshot(contentDir, id);
  return { index: snapshot.index, counts: snapshot.manifest.counts };
}

describe('incremental crawl', () => {
  const contentDir = useContentDirs();

  it('gives the same records as a full crawl of the same state, over 50 seeds of random activity, whole instance or one project', async () => {
    let requests = { incremental: 0, full: 0 };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.boolean(), fc.boolean(), async (seed, structural, scoped) => {
        const model = fixtureModel();
        const server = await startTestServer({ data: model, behaviours });
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
      { numRuns: 50 },
    );
    // Even on a 30-unit fixture the incremental crawl must save requests.
    expect(requests.incremental).toBeLessThan(requests.full);
  }, 300_000);

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
