import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../api/index.ts';
import { canonicalJson, exportRecords, openSnapshot, openSnapshotWriter, type SnapshotWriter } from '../../snapshot/index.ts';
import { finishOptions } from './helpers.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { syntheticInstance } from '../helpers/records.ts';

const contentDir = useContentFolders('tmsnap-snapshot-');
const base = 'http://127.0.0.1:8000/';

async function writeInstance(writer: SnapshotWriter, instance: ReturnType<typeof syntheticInstance>): Promise<void> {
  await writer.putRecord(`${base}api/`, instance.root);
  for (const record of [...instance.projects, ...instance.components, ...instance.translations]) await writer.putRecord(record.url, record);
  for (const { translationUrl, units } of instance.units) await writer.putUnits(translationUrl, units);
  await writer.putChanges(instance.changes);
}

function open(content: string, minute: number) {
  return openSnapshotWriter(content, {
    baseUrl: base,
    scope: {},
    tmsnapVersion: '0.1.0',
    resume: false,
    now: () => new Date(Date.UTC(2026, 10, 22, 4, minute)),
  });
}

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
}

async function totalSize(dir: string): Promise<number> {
  let size = 0;
  for (const file of await files(dir)) size += (await stat(join(dir, file))).size;
  return size;
}

describe('content-addressed store', () => {
  it('re-snapshotting an unchanged 20k-unit instance adds under 1% of the first snapshot', async () => {
    const content = await contentDir();
    const instance = syntheticInstance(base, { projects: 2, languages: 10, unitsPerTranslation: 500 });
    expect(instance.units.reduce((sum, list) => sum + list.units.length, 0)).toBe(20_000);

    const first = await open(content, 0);
    await writeInstance(first, instance);
    await first.finish(finishOptions);
    const firstSize = await totalSize(content);

    const second = await open(content, 1);
    await writeInstance(second, instance);
    await second.finish(finishOptions);
    const added = (await totalSize(content)) - firstSize;
    expect(second.addedBytes).toBe(0);
    expect(added / firstSize).toBeLessThan(0.01);

    // One changed unit and one new change: only the chunk holding that unit, the project's index
    // part (holding the translation's unit list naming it, inline: format 4), the index root and
    // the last change chunk are new (docs/snapshot-format.md, "Format 2", "Format 4").
    const objectsBefore = (await files(join(content, 'objects'))).length;
    const changed = structuredClone(instance);
    changed.units[3]!.units[7]!.target = ['changed'];
    changed.changes.push({ ...changed.changes[0]!, id: 20_001, url: `${base}api/changes/20001/` });
    const third = await open(content, 2);
    await writeInstance(third, changed);
    await third.finish(finishOptions);
    expect((await files(join(content, 'objects'))).length - objectsBefore).toBe(4);
  });

  it('names files from hashes and ids only, whatever the slugs hold', async () => {
    const content = await contentDir();
    const slugs = ['../evil', '..%2Fevil', 'a%2Fb', 'cat%252Fcomp', 'Čeština', 'Foo', 'foo', '..', '.', 'CON', 'x\u202Ey', 'a\\b'];
    const instance = syntheticInstance(base, { projects: slugs.length, languages: 1, unitsPerTranslation: 2, slugs });
    const writer = await open(content, 0);
    await writeInstance(writer, instance);
    await writer.putFile(instance.translations[0]!.url, new Uint8Array([0, 1, 2]), 'application/octet-stream');
    const { id } = await writer.finish(finishOptions);

    for (const file of await files(content))
      expect(file).toMatch(new RegExp(`^(objects/[0-9a-f]{2}/[0-9a-f]{62}\\.(json|raw)\\.gz|snapshots/${id}/manifest\\.json)$`));
    const snapshot = await openSnapshot(content);
    expect((await snapshot.projects()).map((entry) => entry.record.slug).sort()).toEqual([...slugs].sort());
    expect(await snapshot.units(instance.translations[0]!.url)).toHaveLength(2);
    const exported = new Map<string, string>();
    for await (const line of exportRecords(snapshot)) if ('record' in line) exported.set(line.url, canonicalJson(line.record));
    for (const record of [...instance.projects, ...instance.components, ...instance.translations])
      expect(exported.get(record.url), record.url).toBe(canonicalJson(record));
  });

  it('reports a record that fails its schema and keeps it exactly as it came', async () => {
    const content = await contentDir();
    const instance = syntheticInstance(base, { projects: 1, languages: 1, unitsPerTranslation: 1 });
    // `slug` is a field the site reads (a project's `id` is kept as data: another type is drift, docs/weblate-api.md).
    const broken = { ...instance.projects[0]!, slug: 7, extra: 12345678901234567890n };
    const writer = await open(content, 0);
    await writer.putRecord(broken.url, broken);
    const { manifest } = await writer.finish({ ...finishOptions, complete: false });
    expect(manifest.problems).toEqual([{ url: broken.url, field: 'slug', reason: expect.stringMatching(/^not a valid project: /) }]);
    expect(manifest.counts).toEqual({ raw: 1, change: 0 });
    await expect(openSnapshot(content)).rejects.toThrow(/no complete snapshot/);
    const snapshot = await openSnapshot(content, manifest.id);
    expect(snapshot.isRaw(broken.url)).toBe(true);
    expect(await snapshot.projects()).toEqual([]);
    expect(canonicalJson(await snapshot.record(broken.url))).toBe(canonicalJson(broken));
  });
});

describe('list items that fail their schema', () => {
  it('are kept raw at their own URL, reported, and left out of the typed lists', async () => {
    const content = await contentDir();
    const instance = syntheticInstance(base, { projects: 1, languages: 1, unitsPerTranslation: 3 });
    const [list] = instance.units;
    const [good, bad, small] = list!.units;
    const writer = await open(content, 0);
    await writer.putUnits(list!.translationUrl, [{ ...bad!, state: 'twenty' }, good!, { ...small!, id_hash: 5n, content_hash: -5n }, { position: 9 }]);
    await writer.putChanges([{ ...instance.changes[0]!, action: null }, instance.changes[1]!]);
    const { manifest } = await writer.finish(finishOptions);

    expect(manifest.problems).toEqual([
      { url: bad!.url, field: 'state', reason: expect.stringMatching(/^not a valid unit: /) },
      { url: `${list!.translationUrl}units/`, field: '[3].id', reason: expect.stringMatching(/not stored \(it has no URL on the server\)$/) },
      { url: instance.changes[0]!.url, field: 'action', reason: expect.stringMatching(/^not a valid change: /) },
    ]);
    const snapshot = await openSnapshot(content);
    const units = await snapshot.units(list!.translationUrl);
    expect(units.map((unit) => unit.id)).toEqual([good!.id, small!.id]);
    expect(units[1]).toMatchObject({ id_hash: 5n, content_hash: -5n });
    expect(snapshot.isRaw(bad!.url)).toBe(true);
    expect((await snapshot.record(bad!.url)) as { state: unknown }).toMatchObject({ state: 'twenty' });
    const changes = [];
    for await (const change of snapshot.changes()) changes.push(change.id);
    expect(changes).toEqual([instance.changes[1]!.id]);
    expect(snapshot.isRaw(instance.changes[0]!.url)).toBe(true);
  });
});

describe('tmsnap export', () => {
  const bin = fileURLToPath(new URL('../../bin/tmsnap.js', import.meta.url));
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, [bin, 'export', ...args], { maxBuffer: 64 * 1024 * 1024 }).then(
      (result) => ({ code: 0, ...result }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it('prints one line per record, as the reader exports them, hashes exact', async () => {
    const content = await contentDir();
    const instance = syntheticInstance(base, { projects: 1, languages: 2, unitsPerTranslation: 3 });
    const writer = await open(content, 0);
    await writeInstance(writer, instance);
    await writer.finish(finishOptions);

    const { code, stdout } = await run(['--content', content, '--format', 'ndjson']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    const expected = [];
    for await (const line of exportRecords(await openSnapshot(content))) expected.push(stringifyJson(line));
    expect(lines).toEqual(expected);
    const units = lines.map((line) => parseJson(line) as { kind: string; record: { id_hash: unknown } }).filter((line) => line.kind === 'unit');
    expect(units).toHaveLength(12);
    expect(canonicalJson(units.map((line) => line.record))).toBe(canonicalJson(instance.units.flatMap((list) => list.units)));
  });

  it('refuses bad usage with exit code 2 and says what to do', async () => {
    const content = await contentDir();
    // An archive holding only an incomplete snapshot: a missing or empty folder would be exit 1 before these checks.
    const writer = await open(content, 0);
    await writeInstance(writer, syntheticInstance(base, { projects: 1, languages: 1, unitsPerTranslation: 1 }));
    await writer.finish({ ...finishOptions, complete: false });
    // ndjson is the default format (issue 28): without --format the export goes on to the snapshot.
    expect(await run(['--content', content])).toMatchObject({ code: 1, stderr: expect.stringContaining('no complete snapshot') });
    expect(await run(['--content', content, '--format', 'csv'])).toMatchObject({ code: 2, stderr: expect.stringContaining('the only format is ndjson') });
    // A snapshot that is not there (or cannot be) is a failure, exit 1 (cli/command.ts, exitCodes);
    // a name that is no snapshot id is looked up as a release tag, never as a path.
    expect(await run(['--content', content, '--format', 'ndjson', '--snapshot', '../../etc'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no finished snapshot or tag "../../etc"'),
    });
    expect(await run(['--content', content, '--format', 'ndjson'])).toMatchObject({ code: 1, stderr: expect.stringContaining('no complete snapshot') });
  });
});
