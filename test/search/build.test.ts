import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, test } from 'vitest';
import { openSnapshot } from '../../snapshot/index.ts';
import type { SearchManifest, SourceShardData, TargetShardData } from '../../search/format.ts';
import { siteSearchIndex } from './site-index.ts';
import { fixtureComponents, unitId, writeSearchFixture } from './fixture.ts';
import { useTempFolders } from '../helpers/temp.ts';

const tempFolder = useTempFolders('tmsnap-search-build-', 'all');
let dir: string;
let content: string;

beforeAll(async () => {
  dir = await tempFolder();
  content = join(dir, 'content');
  await writeSearchFixture(content);
});

/** Runs a search script the way the page does: it must call the registration function once. */
async function loadSearchFile<T>(out: string, file: string): Promise<T> {
  const calls: [string, unknown][] = [];
  runInNewContext(await readFile(join(out, 'search', file), 'utf8'), { tmsnapSearch: (name: string, data: unknown) => calls.push([name, data]) });
  expect(calls.map(([name]) => name)).toEqual([file]);
  return calls[0]![1] as T;
}

describe('buildSearchIndex', () => {
  test('writes a manifest naming every shard, sources once per bucket and targets per language', async () => {
    const out = join(dir, 'one-bucket');
    const snapshot = await openSnapshot(content);
    const report = await siteSearchIndex(snapshot, out);
    const manifest = await loadSearchFile<SearchManifest>(out, 'manifest.js');

    expect(manifest.snapshot.id).toBe(snapshot.id);
    expect(manifest.languages.map((language) => language.code)).toEqual(['ar', 'de', 'en', 'ja', 'pl', 'ru']);
    expect(manifest.components.map((component) => `${manifest.projects[component.project]!.slug}/${component.slug}`)).toEqual([
      'office/dialogs',
      'office/editor',
      'web/site',
    ]);
    // English, the components' source language, is no translation: its read-only units are the sources (issue 28).
    expect(manifest.states).toEqual([
      [0, 'untranslated'],
      [10, 'needs editing'],
      [20, 'translated'],
      [30, 'approved'],
    ]);
    expect(manifest.buckets).toHaveLength(1);
    expect(manifest.targets.map((target) => manifest.languages[target.language]!.code)).toEqual(['ar', 'de', 'ja', 'pl', 'ru']);
    expect(manifest.targets.map((target) => target.units)).toEqual([10, 10, 10, 10, 10]);
    expect(report.units).toBe(50);
    const files = (await readdir(join(out, 'search', 'shards'))).sort();
    expect(files).toEqual(
      [...manifest.targets.map((target) => target.file), manifest.buckets[0]!.sources!.file].map((file) => file.replace('shards/', '')).sort(),
    );

    // "Save as…" is in two components and six languages, yet stored once.
    const sources = await loadSearchFile<SourceShardData>(out, manifest.buckets[0]!.sources!.file);
    const distinct = new Set(fixtureComponents.flatMap((component) => component.strings.map((string) => string.source.join('\u0000'))));
    expect(sources.texts).toHaveLength(distinct.size);
    expect(sources.texts.filter((forms) => forms[0] === 'Save as…')).toHaveLength(1);
  });

  test('links each unit to its anchor on the site page that holds it', async () => {
    const out = join(dir, 'links');
    await siteSearchIndex(await openSnapshot(content), out);
    const manifest = await loadSearchFile<SearchManifest>(out, 'manifest.js');
    const pl = manifest.targets.find((target) => manifest.languages[target.language]!.code === 'pl')!;
    const shard = await loadSearchFile<TargetShardData>(out, pl.file);
    const position = shard.units.target.findIndex((forms) => forms[0] === 'Otwórz plik');
    expect(shard.pages[shard.units.page[position]!]! + shard.units.anchor[position]).toBe(
      `projects/office/editor/pl/units/1/index.html#unit-${unitId(0, 'pl', 2)}`,
    );
  });

  test("gives each shard's states and flags in the manifest, and its flagged units in the table", async () => {
    const out = join(dir, 'flags');
    await siteSearchIndex(await openSnapshot(content), out);
    const manifest = await loadSearchFile<SearchManifest>(out, 'manifest.js');
    const byCode = (code: string) => manifest.targets.find((target) => manifest.languages[target.language]!.code === code)!;
    expect([byCode('pl').states, byCode('pl').has]).toEqual([[0, 10, 20], ['suggestion']]);
    expect([byCode('ru').states, byCode('ru').has]).toEqual([[20, 30], ['check']]);
    expect([byCode('ja').states, byCode('ja').has]).toEqual([[20], []]);
    const de = await loadSearchFile<TargetShardData>(out, byCode('de').file);
    const targetOf = (units: number[]) => units.map((unit) => de.units.target[unit]![0]);
    expect(targetOf(de.has.check)).toEqual(['Fenster schließen']);
    expect(targetOf(de.has.suggestion)).toEqual(['Café-Menü']);
  });

  test('splits components into buckets by the units-per-shard limit', async () => {
    const out = join(dir, 'buckets');
    await siteSearchIndex(await openSnapshot(content), out, { unitsPerShard: 2 });
    const manifest = await loadSearchFile<SearchManifest>(out, 'manifest.js');
    expect(manifest.buckets.map((bucket) => bucket.components)).toEqual([[0], [1], [2]]);
    expect(manifest.targets).toHaveLength(15);
    const web = await loadSearchFile<SourceShardData>(out, manifest.buckets[2]!.sources!.file);
    expect(web.texts).toEqual([['Save as…'], ['Welcome']]);
  });

  test('reports progress per bucket and language', async () => {
    const messages: string[] = [];
    await siteSearchIndex(await openSnapshot(content), join(dir, 'progress'), { onProgress: (message) => messages.push(message) });
    expect(messages).toEqual(['ar', 'de', 'ja', 'pl', 'ru'].map((code) => `search index: bucket 1/1, language ${code}`));
  });
});
