import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openSnapshot } from '../../snapshot/index.ts';
import { randomActivity } from '../archive/activity.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { fixtureModel, type ReferenceServer, type TestServerOptions } from '../helpers/reference-server.ts';
import { startReferenceServer } from '../../packages/reference-server/server.ts';
import { useTempFolders } from '../helpers/temp.ts';

/**
 * Issue 11, "incremental = full, on real servers", with the edits of the random activity left
 * pending. A real server commits a component's pending edits when a translation's `file/` is
 * downloaded (docs/weblate-api.md, Incremental updates): a crawl changes its component's
 * `repository/`, its translations' revisions and units, and the statistics, while it runs.
 * So the state an incremental crawl reads can only be crawled in full once more on a second
 * server holding the same state: the same fixture, the same activity, the same pinned clock.
 * One server gets a full crawl, the activity and an incremental crawl; then the other, on the
 * same port (a few records keep absolute links, so the origin must match), the activity and a
 * full crawl. Both snapshots must hold the same records, which needs every record a download
 * can change to be read before the crawl's own downloads (docs/crawl.md).
 */

const token = 'wlu_incremental_components';

/**
 * Real-server behaviours each (newest-first changes, commits on download, a translation's
 * repository/ its component's, 5.4's own rate limit with a token); every language Weblate knows
 * listed; a 4.15 (20 a page, page_size ignored); seeded 5xx and dropped connections.
 */
const variants: [string, Omit<TestServerOptions, 'data' | 'clock'> & { languages?: 'used' | 'all' }, number][] = [
  ['weblate-5.4, every language listed', { behaviours: { tokens: [token] }, languages: 'all' }, 8],
  ['weblate-4.15 (20 a page)', { profile: 'weblate-4.15', behaviours: { tokens: [token] } }, 6],
  ['weblate-5.4 with 3% 5xx and 3% dropped connections', { behaviours: { tokens: [token], faults: { seed: 7, errorRate: 0.03, dropRate: 0.03 } } }, 4],
];

async function indexOf(contentDir: string, id: string) {
  const snapshot = await openSnapshot(contentDir, id);
  return { index: snapshot.index, counts: snapshot.manifest.counts };
}

describe('incremental crawl over pending edits', () => {
  const folder = useTempFolders('tmsnap-incremental-components-', 'all');
  const contentDir = async () => join(await folder(), 'content');

  it.each(variants)(
    "gives the same records as a full crawl of a twin server in the same state, the crawls' downloads committing the edits: %s",
    async (_name, options, runs) => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.boolean(), fc.boolean(), async (seed, structural, scoped) => {
          const { languages = 'used', ...serverOptions } = options;
          // Pinned, so that the twin models give the same timestamps and commit revisions; an
          // hour ago, so that each crawl's window (up to its start) holds every change.
          const pinned = new Date(Date.now() - 60 * 60 * 1000);
          const [incrementalModel, fullModel] = [fixtureModel(() => pinned, languages), fixtureModel(() => pinned, languages)];
          const servers: ReferenceServer[] = [];
          const start = async (model: typeof incrementalModel, port = 0) => {
            const server = await startReferenceServer({ ...serverOptions, model, host: '127.0.0.1', port });
            servers.push(server);
            return server;
          };
          try {
            const projects = scoped ? ['hello'] : [];
            const incrementalServer = await start(incrementalModel);
            const incrementalContent = await contentDir();
            await crawlComplete(incrementalServer, incrementalContent, { full: true, projects, token });
            randomActivity(incrementalModel, seed, { unitMutations: 5, structural });
            const incremental = await crawlComplete(incrementalServer, incrementalContent, { full: false, projects, token });
            await incrementalServer.close();
            servers.splice(servers.indexOf(incrementalServer), 1);
            randomActivity(fullModel, seed, { unitMutations: 5, structural });
            const fullContent = await contentDir();
            const full = await crawlComplete(await start(fullModel, Number(new URL(incrementalServer.url).port)), fullContent, { full: true, projects, token });
            const got = await indexOf(incrementalContent, incremental.snapshotId);
            const want = await indexOf(fullContent, full.snapshotId);
            // The paths first, so a failure names the records that differ.
            const paths = Object.keys({ ...got.index.records, ...want.index.records, ...got.index.raw, ...want.index.raw });
            expect(paths.filter((path) => (got.index.records[path] ?? got.index.raw[path]) !== (want.index.records[path] ?? want.index.raw[path]))).toEqual([]);
            expect(got.index.records).toEqual(want.index.records);
            expect(got.index.raw).toEqual(want.index.raw);
            expect(got.index.changes).toEqual(want.index.changes);
            expect(got.counts).toEqual(want.counts);
          } finally {
            await Promise.all(servers.map((server) => server.close()));
          }
        }),
        { numRuns: runs },
      );
    },
    300_000,
  );
});
