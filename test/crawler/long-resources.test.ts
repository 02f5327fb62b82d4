/**
 * A paged resource is stored as one record, so the crawler holds it whole: one listing more than
 * `maxResourceItems` (Weblate's `memory/` on a large instance) is read to its first page and named
 * under `skipped` instead (docs/crawl.md, "Resources too long to hold").
 */
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../packages/reference-server/datasets.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { withTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';

const folder = useTempFolders('tmsnap-long-resources-');
const token = 'wlu_long_resources';
// Over 1,000 translated units, so the translation memory takes two pages of 1,000.
const data = 'synthetic:projects=1,components=2,languages=3,units=3000,seed=3';

interface Page {
  count: number;
  results: unknown[];
}

describe('a resource longer than the crawl holds', () => {
  it('is read to its first page and named under skipped, with its count; a shorter one is stored whole', async () => {
    await withTestServer({ data: await loadDataset(data), behaviours: { tokens: [token] } }, async (server) => {
      const whole = await crawlComplete(server, await folder(), { token });
      expect(whole.skipped?.map((entry) => entry.kind)).not.toContain('memory/');
      const stored = (await (await openSnapshot(whole.dir.replace(/\/snapshots\/.*$/, ''))).record('api/memory/')) as Page;
      expect(stored.count).toBeGreaterThan(1000);
      expect(stored.results).toHaveLength(stored.count);

      const content = await folder();
      const cut = await crawlComplete(server, content, { token, maxResourceItems: 1000 });
      const skipped = cut.skipped?.find((entry) => entry.kind === 'memory/');
      expect(skipped?.urls).toEqual([`${server.url}memory/`]);
      expect(skipped?.reason).toContain(`it lists ${stored.count} items, more than the 1000`);
      // The memory's two pages were one request fewer.
      expect([cut.made, cut.minimum]).toEqual([whole.made - 1, whole.minimum - 1]);
      const snapshot = await openSnapshot(content);
      expect(snapshot.paths().has('api/memory/')).toBe(false);
      expect(snapshot.manifest.skipped?.find((entry) => entry.kind === 'memory/')?.urls).toEqual([`${server.url}memory/`]);
    });
  });
});
