/**
 * Records the crawl kept raw (they failed their schema) are still shown where they can be: a
 * component without its `project`, a translation without its `component` and with a field of
 * the wrong type, written straight through the snapshot writer (docs/site.md, "Raw records").
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchManifest, TargetShardData } from '../../search/format.ts';
import { unitHref } from '../../search/shards.ts';
import { searchSnapshot } from '../../search-index/snapshot-search.ts';
import { checkLinks } from '../../site/link-check.ts';
import { siteRecords } from '../../site-model/records.ts';
import { openSnapshot, openSnapshotWriter } from '../../snapshot/index.ts';
import { buildWithCli, scratch } from './browser.ts';
import { base, fixtureRecords, type FixtureUnit } from './fixture.ts';
import { useTempFolders } from '../helpers/temp.ts';

const { api, language, project, component, translation, unit } = fixtureRecords;
let work: string;
let content: string;
let dist: string;

const hash = (n: number) => BigInt(n) * 104_729_000_000_001n - 3_000_000_000_000_000_000n;
const german: FixtureUnit[] = Array.from({ length: 120 }, (_, i) => ({
  id: 7001 + i,
  position: i + 1,
  source: [`Raw source ${i + 1}`],
  target: i === 119 ? ['Rohzeichenkette hundertzwanzig'] : [`Rohtext ${i + 1}`],
  state: 20,
  idHash: hash(i + 1),
}));
const english: FixtureUnit[] = german.map((u) => ({ ...u, id: u.id + 1000, target: u.source, state: 100 }));

const tempFolder = useTempFolders('tmsnap-raw-', 'all', scratch);
beforeAll(async () => {
  work = await tempFolder();
  content = join(work, 'content');
  dist = join(work, 'dist');
  const writer = await openSnapshotWriter(content, { baseUrl: `${base}api/`, scope: {}, tmsnapVersion: 'test', resume: false });
  for (const code of ['en', 'de'] as const) await writer.putRecord(api(`languages/${code}/`), language(code));
  const demo = project('demo', 'Demo', 1, { web: 'https://example.org/', instructions: '' });
  await writer.putRecord(demo.url, demo);
  const full = component(demo, 'legacy', 'Legacy', 30, { repoweb: '', license_url: null });
  // No `project`: the component fails its schema; its path names the project.
  const { project: _project, ...rawComponent } = full;
  await writer.putRecord(full.url, rawComponent);
  // No `component` and a numeric revision: raw; the path names the component.
  const { component: _component, ...rawGerman } = { ...translation(full, 'de', 300, german), revision: 12 };
  await writer.putRecord(rawGerman.url, rawGerman);
  await writer.putUnits(
    rawGerman.url,
    german.map((u) => unit(rawGerman.url, u)),
  );
  // Embeds the component (without its project, so raw too): read from the embedded object's url.
  const rawEnglish = { ...translation(full, 'en', 301, english), component: rawComponent };
  await writer.putRecord(rawEnglish.url, rawEnglish);
  await writer.putUnits(
    rawEnglish.url,
    english.map((u) => unit(rawEnglish.url, u)),
  );
  await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true });
  await buildWithCli(['--content', content, '--out', dist]);
}, 600_000);

/** A search file as the page runs it: it calls the registration function with its data. */
async function loadSearchFile<T>(file: string): Promise<T> {
  let data: unknown;
  runInNewContext(await readFile(join(dist, 'search', file), 'utf8'), { tmsnapSearch: (_name: string, value: unknown) => (data = value) });
  return data as T;
}

describe('raw records in the site', () => {
  it('are kept raw by the writer and read leniently, with their owners taken from their paths', async () => {
    const snapshot = await openSnapshot(content);
    expect(snapshot.rawPaths('component')).toEqual(['api/components/demo/legacy/']);
    expect(snapshot.rawPaths('translation')).toEqual(['api/translations/demo/legacy/de/', 'api/translations/demo/legacy/en/']);
    expect(await snapshot.components()).toEqual([]);
    const records = await siteRecords(snapshot);
    expect(records.lenient.skipped).toEqual([]);
    expect(records.components.map(({ path, record }) => [path, record.project, record.name])).toEqual([
      ['api/components/demo/legacy/', 'api/projects/demo/', 'Legacy'],
    ]);
    expect(records.translations.map(({ record }) => [record.component, record.language_code, record.total, record.revision])).toEqual([
      ['api/components/demo/legacy/', 'de', 120, ''],
      ['api/components/demo/legacy/', 'en', 120, 'a'.repeat(40)],
    ]);
  });

  it('publishes the component, its translation pages and every string', async () => {
    const component = await readFile(join(dist, 'projects/demo/legacy/index.html'), 'utf8');
    expect(component).toContain('Legacy');
    const translationPage = await readFile(join(dist, 'projects/demo/legacy/de/index.html'), 'utf8');
    // The translation page counts its strings by unit page (docs/site.md); the strings are on the unit pages.
    expect(translationPage).toContain('href="units/1/index.html"');
    expect(translationPage).toContain('href="units/2/index.html"');
    const firstPage = await readFile(join(dist, 'projects/demo/legacy/de/units/1/index.html'), 'utf8');
    expect(firstPage).toContain('Rohtext 1<');
    const secondPage = await readFile(join(dist, 'projects/demo/legacy/de/units/2/index.html'), 'utf8');
    expect(secondPage).toContain('Rohzeichenkette hundertzwanzig');
    expect(secondPage).toContain('id="unit-7120"');
    const home = await readFile(join(dist, 'index.html'), 'utf8');
    expect(home).toContain('of 240 translated');
    expect(await checkLinks(dist)).toEqual([]);
  });

  it('finds their strings in search, linked to their unit pages', async () => {
    const hits = await searchSnapshot(await openSnapshot(content), { text: 'Rohzeichenkette', scope: 'target', filters: {} });
    expect(hits.map((hit) => [hit.project, hit.component, hit.language, hit.source[0]])).toEqual([['demo', 'legacy', 'de', 'Raw source 120']]);
    const manifest = await loadSearchFile<SearchManifest>('manifest.js');
    expect(manifest.components.map((c) => c.slug)).toEqual(['legacy']);
    const de = manifest.targets.find((target) => manifest.languages[target.language]?.code === 'de');
    const shard = await loadSearchFile<TargetShardData>(de!.file);
    const last = shard.units.target.findIndex((forms) => forms[0] === 'Rohzeichenkette hundertzwanzig');
    expect(unitHref(shard, last)).toBe('projects/demo/legacy/de/units/2/index.html#unit-7120');
  });
});
