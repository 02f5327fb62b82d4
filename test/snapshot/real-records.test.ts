import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../api/index.ts';
import { loadDataset } from '../../packages/reference-server/datasets.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { type ReferenceServer, startReferenceServer } from '../../packages/reference-server/server.ts';
import { canonicalJson, exportRecords, openSnapshot, openSnapshotWriter, withoutFormatApi } from '../../snapshot/index.ts';
import { finishOptions } from './helpers.ts';
import { useContentFolders } from '../helpers/temp.ts';

const contentDir = useContentFolders('tmsnap-snapshot-');

async function get(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return parseJson(await response.text());
}

/** Every item of a paginated list, following `next` (the server's links carry format=api; it answers JSON to our Accept). */
async function all(url: string): Promise<Record<string, unknown>[]> {
  const items = [];
  for (let next: string | null = url; next !== null;) {
    const page = (await get(next)) as { next: string | null; results: Record<string, unknown>[] };
    items.push(...page.results);
    next = page.next;
  }
  return items;
}

// The ideal server writes `format=api` on its links, a real 5.4 does not (docs/weblate-api.md).
describe.each([
  ['ideal', true],
  ['weblate-5.4', false],
] as const)('real records from the reference server (bundled data, %s)', (profile, formatApiLinks) => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({ model: await loadDataset('bundled'), profile, behaviours: { pathPrefix: '/weblate', rateLimit: raisedRateLimit } });
  });
  afterAll(() => server.close());

  it('come back from export exactly as the server serves them', async () => {
    const root = (await get(server.url)) as Record<string, string>;
    const served = new Map<string, unknown>([[server.url, root]]);
    const content = await contentDir();
    const writer = await openSnapshotWriter(content, { baseUrl: server.url, scope: {}, tmsnapVersion: '0.1.0', resume: false });
    await writer.putRecord(server.url, root);

    const put = async (url: string, record: unknown) => {
      served.set(withoutFormatApi(url), record);
      await writer.putRecord(url, record);
    };
    for (const language of await all(root.languages!)) await put(language.url as string, language);
    for (const project of await all(root.projects!)) {
      await put(project.url as string, project);
      await put(project.languages_url as string, await get(project.languages_url as string));
      await put(project.statistics_url as string, await get(project.statistics_url as string));
    }
    const components = await all(root.components!);
    for (const [index, component] of components.entries()) {
      await put(component.url as string, component);
      // A component's translations/ list leaves `component` out; the crawler names it by URL (the
      // list's parent, already stored), and the export must be the detail record.
      for (const entry of await all(component.translations_url as string)) {
        const translation = { ...entry, component: withoutFormatApi(component.url as string) };
        served.set(withoutFormatApi(entry.url as string), await get(entry.url as string));
        await writer.putRecord(entry.url as string, translation);
        if (index < 2) {
          const units = await all(`${withoutFormatApi(entry.units_list_url as string)}?page_size=1000`);
          for (const unit of units) served.set(withoutFormatApi(unit.url as string), unit);
          await writer.putUnits(entry.url as string, [...units].reverse());
        }
      }
    }
    const changes = await all(`${withoutFormatApi(root.changes!)}?page_size=1000`);
    for (const change of changes) served.set(withoutFormatApi(change.url as string), change);
    await writer.putChanges(changes);
    const { manifest } = await writer.finish(finishOptions);
    expect(manifest.problems).toEqual([]);
    expect(manifest.server.format_api_links).toBe(formatApiLinks);
    expect(manifest.server.base_url).toBe(server.url.replace(/api\/$/, ''));

    const exported = new Map<string, unknown>();
    for await (const line of exportRecords(await openSnapshot(content))) if ('record' in line) exported.set(line.url, line.record);
    for (const [url, record] of served) expect(canonicalJson(exported.get(url)), url).toBe(canonicalJson(record));
    expect([...exported.keys()].sort()).toEqual([...served.keys()].sort());
    expect(manifest.counts.unit).toBeGreaterThan(100);
    expect(manifest.counts.change).toBe(changes.length);
  });
});
