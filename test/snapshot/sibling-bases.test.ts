import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { objectPath, openSnapshot, openSnapshotWriter, readDeltaHeader, siblingPaths } from '../../snapshot/index.ts';
import { syntheticInstance } from '../helpers/records.ts';
import { useContentFolders } from '../helpers/temp.ts';

const contentDir = useContentFolders('tmsnap-sibling-bases-');
const base = 'http://127.0.0.1:8000/';
const instance = syntheticInstance(base, { projects: 1, languages: 2, unitsPerTranslation: 200 });
const [czech, german] = instance.translations as [(typeof instance.translations)[number], (typeof instance.translations)[number]];
const czechUnits = instance.units.find((list) => list.translationUrl === czech.url)!.units;
/** The new language's units as Weblate gives them: the same strings (sources, positions, hashes), its own ids and no targets yet. */
const germanUnits = czechUnits.map((unit, at) => ({
  ...unit,
  id: 10_000 + 7 * at,
  url: `${base}api/units/${10_000 + 7 * at}/`,
  translation: german.url,
  target: [''],
  state: 0,
  translated: false,
}));

/** A translation file of 200 entries, as the one language's or the other's. */
const fileOf = (target: (i: number) => string) =>
  new TextEncoder().encode(Array.from({ length: 200 }, (_, i) => `#: src/file.c:${i}\nmsgid "String number ${i}"\nmsgstr "${target(i)}"\n`).join('\n'));

/** Writes the one component with its translations; the second day adds the new language. */
async function writeDay(content: string, day: number, withGerman: boolean): Promise<string> {
  const date = new Date(Date.UTC(2026, 10, day, 4, 15));
  const writer = await openSnapshotWriter(content, { baseUrl: base, scope: {}, tmsnapVersion: '0.1.0', resume: false, now: () => date });
  await writer.putRecord(`${base}api/`, instance.root);
  const component = instance.components.find((record) => record.url === czech.component.url)!;
  for (const record of [...instance.projects, component, czech, ...(withGerman ? [german] : [])]) await writer.putRecord(record.url, record);
  await writer.putUnits(czech.url, czechUnits);
  await writer.putFile(
    czech.url,
    fileOf((i) => `Řetězec ${i}`),
    'text/x-gettext-catalog',
  );
  if (withGerman) {
    await writer.putUnits(german.url, germanUnits);
    await writer.putFile(
      german.url,
      fileOf(() => ''),
      'text/x-gettext-catalog',
    );
  }
  return (await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true })).id;
}

/** The base a stored object is a delta against, or undefined when it is kept whole. */
function deltaBase(content: string, hash: string, kind: 'json' | 'raw'): string | undefined {
  try {
    return readDeltaHeader(readFileSync(objectPath(content, hash, `${kind}.dz`))).base;
  } catch {
    return undefined;
  }
}

describe('siblingPaths', () => {
  it('keys each record of a translation by its component and what follows the language, naming the first such path', () => {
    const siblings = siblingPaths([
      'api/projects/p/',
      'api/translations/p/c/cs/units/',
      'api/translations/p/c/de/units/',
      'api/translations/p/c/de/repository/',
      'api/translations/p/other/cs/units/',
    ]);
    expect(siblings).toEqual(
      new Map([
        ['api/translations/p/c/\nunits/', 'api/translations/p/c/cs/units/'],
        ['api/translations/p/c/\nrepository/', 'api/translations/p/c/de/repository/'],
        ['api/translations/p/other/\nunits/', 'api/translations/p/other/cs/units/'],
      ]),
    );
  });
});

describe('a new language stored against its sibling', () => {
  it('keeps the new translation’s unit chunks and file chunks as deltas against the other translation’s, and reads them back', async () => {
    const content = await contentDir();
    await writeDay(content, 1, false);
    const id = await writeDay(content, 2, true);
    const snapshot = await openSnapshot(content, id);
    const czechChunks = new Set(
      ((await snapshot.readJson(snapshot.index.records[`${czech.url.slice(base.length)}units/`]!)) as { chunks: { hash: string }[] }).chunks.map(
        (chunk) => chunk.hash,
      ),
    );
    const germanChunks = ((await snapshot.readJson(snapshot.index.records[`${german.url.slice(base.length)}units/`]!)) as { chunks: { hash: string }[] })
      .chunks;
    const against = germanChunks.map((chunk) => deltaBase(content, chunk.hash, 'json'));
    expect(against.filter((hash) => hash !== undefined && czechChunks.has(hash)).length).toBeGreaterThan(germanChunks.length / 2);
    const units = await snapshot.units(german.url);
    expect(units.map((unit) => [unit.id, unit.target, unit.id_hash])).toEqual(germanUnits.map((unit) => [unit.id, unit.target, unit.id_hash]));

    const file = (await snapshot.record(`${german.url}file/`)) as { chunks: string[] };
    const czechFile = new Set(((await snapshot.record(`${czech.url}file/`)) as { chunks: string[] }).chunks);
    expect(file.chunks.some((hash) => czechFile.has(deltaBase(content, hash, 'raw') ?? ''))).toBe(true);
    expect((await snapshot.file(german.url))?.bytes).toEqual(Buffer.from(fileOf(() => '')));
  });
});
