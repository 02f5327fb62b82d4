import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../archive/migrate.ts';
import { references } from '../../archive/references.ts';
import { verifyStore } from '../../archive/verify.ts';
import { parseJson } from '../../api/index.ts';
import {
  canonicalJson,
  deltaHeaderBytes,
  exportRecords,
  indexPart,
  type IndexPart,
  indexRoot,
  listObjects,
  listSnapshotDirs,
  type Manifest,
  maxRewrittenDepth,
  type ObjectKey,
  objectPath,
  ObjectStore,
  openSnapshot,
  openSnapshotWriter,
  readDeltaHeader,
  sha256,
  splitObjectKey,
} from '../../snapshot/index.ts';
import { syntheticInstance } from '../helpers/records.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { archiveOfDays } from './days.ts';

const contentDir = useContentFolders('tmsnap-format4-');
const base = 'http://127.0.0.1:8000/';
const instance = syntheticInstance(base, { projects: 1, languages: 2, unitsPerTranslation: 200 });
const edited = instance.units[0]!;
const unitsPath = edited.translationUrl.slice(base.length) + 'units/';
const repositoryPath = edited.translationUrl.slice(base.length) + 'repository/';

/** A translation's `repository/` record as Weblate serves it: after a download commits, every sibling's changes. */
const repositoryOn = (day: number) => ({
  needs_commit: false,
  needs_merge: false,
  needs_push: true,
  remote_commit: `commit of day ${day}`,
  status: 'On branch main',
});

/** Writes the snapshot of a day (one string edited, every `repository/` record changed) and answers its id. */
async function writeDay(content: string, day: number): Promise<string> {
  const date = new Date(Date.UTC(2026, 10, day, 4, 15));
  const writer = await openSnapshotWriter(content, { baseUrl: base, scope: {}, tmsnapVersion: '0.1.0', resume: false, now: () => date });
  await writer.putRecord(`${base}api/`, instance.root);
  for (const record of [...instance.projects, ...instance.components, ...instance.translations]) await writer.putRecord(record.url, record);
  for (const translation of instance.translations) await writer.putRecord(`${translation.url}repository/`, repositoryOn(day));
  for (const { translationUrl, units } of instance.units) {
    const today = translationUrl === edited.translationUrl ? units.map((unit, at) => (at === 5 ? { ...unit, target: [`Tag ${day}`] } : unit)) : units;
    await writer.putUnits(translationUrl, today);
  }
  const entries = Array.from({ length: 300 }, (_, i) => `msgid "String number ${i}"\nmsgstr "Zeichenkette ${i === 5 ? `vom Tag ${day}` : i}"\n`);
  await writer.putFile(edited.translationUrl, new TextEncoder().encode(`msgid ""\nmsgstr ""\n\n${entries.join('\n')}`), 'text/x-po');
  return (await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true })).id;
}

const archiveOf = (days: number) => archiveOfDays(contentDir, days, writeDay);

const manifestFile = (content: string, id: string) => join(content, 'snapshots', id, 'manifest.json');
const manifestOf = async (content: string, id: string) => parseJson(await readFile(manifestFile(content, id), 'utf8')) as Manifest;

/** The part of a snapshot's index holding `path`, with its name and hash. */
async function partHolding(content: string, id: string, path: string): Promise<{ name: string; hash: string; part: IndexPart }> {
  const store = new ObjectStore(content);
  const root = indexRoot.parse(await store.readJson((await manifestOf(content, id)).index));
  for (const [name, hash] of Object.entries(root.parts)) {
    const part = indexPart.parse(await store.readJson(hash));
    if (Object.hasOwn(part.inline ?? {}, path) || Object.hasOwn(part.records, path)) return { name, hash, part };
  }
  throw new Error(`no part holds ${path}`);
}

/** Writes a new index for a snapshot (parts, root, manifest), as a tmsnap of `format` would have: `edit` changes each part. */
async function rewriteIndex(content: string, id: string, format: 3 | 4, edit: (part: IndexPart, store: ObjectStore) => Promise<IndexPart>): Promise<void> {
  const store = new ObjectStore(content, { compress: true });
  const manifest = await manifestOf(content, id);
  const root = indexRoot.parse(await store.readJson(manifest.index));
  const parts: Record<string, string> = {};
  for (const [name, hash] of Object.entries(root.parts))
    parts[name] = (await store.putJson(await edit(indexPart.parse(await store.readJson(hash)), store))).hash;
  const index = (await store.putJson({ ...root, parts })).hash;
  await writeFile(manifestFile(content, id), canonicalJson({ ...manifest, format, index }));
}

/** A snapshot as format-3 tmsnap wrote it: every inline record an object of its own. */
function toFormat3(content: string, id: string): Promise<void> {
  return rewriteIndex(content, id, 3, async ({ inline, ...part }, store) => {
    const records = { ...part.records };
    for (const [path, value] of Object.entries(inline ?? {})) records[path] = (await store.putJson(value)).hash;
    return { ...part, records };
  });
}

async function exported(content: string, id: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of exportRecords(await openSnapshot(content, id))) lines.push(canonicalJson(line));
  return lines;
}

async function neededBy(content: string, id: string): Promise<Map<ObjectKey, string>> {
  const dir = (await listSnapshotDirs(content)).find((snapshot) => snapshot.id === id)!;
  return (await references(content, dir)).objects;
}

const exists = async (file: string) => (await stat(file).catch(() => undefined)) !== undefined;

describe('small records inline in their index part (format 4)', () => {
  it('keeps small records in their part, with no object of their own, and reads them by the same hash as before', async () => {
    const { content, ids } = await archiveOf(2);
    const snapshot = await openSnapshot(content, ids[1]);
    expect(snapshot.manifest.format).toBe(4);
    const { part } = await partHolding(content, ids[1]!, repositoryPath);
    expect(Object.keys(part.inline ?? {})).toEqual(expect.arrayContaining([repositoryPath, unitsPath]));
    expect(part.records[repositoryPath]).toBeUndefined();

    const repository = await snapshot.record(repositoryPath);
    expect(repository).toEqual(repositoryOn(2));
    const hash = snapshot.paths().get(repositoryPath)!;
    expect(hash).toBe(sha256(canonicalJson(repositoryOn(2))));
    for (const form of ['json.gz', 'json.dz'] as const) expect(await exists(objectPath(content, hash, form))).toBe(false);
    // An inline unit list still names its chunks, which are objects, and references follow it.
    expect((await snapshot.units(edited.translationUrl))[5]!.target).toEqual(['Tag 2']);
    const needed = await neededBy(content, ids[1]!);
    expect([...needed.keys()].some((key) => key.startsWith(snapshot.paths().get(unitsPath)!))).toBe(false);
    expect([...needed.values()].filter((path) => path === unitsPath).length).toBeGreaterThan(1);
    expect((await verifyStore(content)).problems).toEqual([]);
  });

  it('reads a format-3 snapshot, writes format 4 on top, and migrates it to the index a format-4 crawl writes', async () => {
    const { content, ids } = await archiveOf(2);
    const crawled = await Promise.all(ids.map(async (id) => ({ index: (await manifestOf(content, id)).index, lines: await exported(content, id) })));
    for (const id of ids) await toFormat3(content, id);
    for (const [at, id] of ids.entries()) {
      expect((await manifestOf(content, id)).format).toBe(3);
      expect((await partHolding(content, id, repositoryPath)).part.inline).toBeUndefined();
      expect(await exported(content, id)).toEqual(crawled[at]!.lines);
    }
    const third = await writeDay(content, 3);
    expect((await manifestOf(content, third)).format).toBe(4);
    expect(await (await openSnapshot(content, third)).record(repositoryPath)).toEqual(repositoryOn(3));

    const objectsBefore = new Set((await listObjects(content)).objects.map((object) => object.key));
    const result = await migrate(content);
    expect(result.migrated).toEqual(ids);
    expect(result.already).toEqual([third]);
    for (const [at, id] of ids.entries()) {
      expect(await manifestOf(content, id)).toMatchObject({ format: 4, index: crawled[at]!.index });
      expect(await exported(content, id)).toEqual(crawled[at]!.lines);
    }
    // The records' own objects, and the format-3 parts and roots, went once verify passed.
    const repositoryObject = `${sha256(canonicalJson(repositoryOn(1)))}.json.gz` as ObjectKey;
    expect(objectsBefore.has(repositoryObject)).toBe(true);
    expect(result.objectsRemoved).toBeGreaterThan(0);
    expect((await listObjects(content)).objects.map((object) => object.key)).not.toContain(repositoryObject);
    expect((await verifyStore(content)).problems).toEqual([]);
  });
});

describe('an index part rewritten every day', () => {
  it(`is stored, once its chain is ${maxRewrittenDepth} deep, as a delta against the whole part that chain starts from`, async () => {
    const { content, ids } = await archiveOf(maxRewrittenDepth + 3);
    const store = new ObjectStore(content);
    const parts = await Promise.all(ids.map((id) => partHolding(content, id, repositoryPath)));
    const depths = await Promise.all(parts.map(({ hash }) => store.depth(hash, 'json')));
    expect(depths).toEqual([0, ...Array.from({ length: maxRewrittenDepth }, (_, at) => at + 1), 1, 2]);
    const header = readDeltaHeader(await readFile(objectPath(content, parts[maxRewrittenDepth + 1]!.hash, 'json.dz')));
    expect(header.base).toBe(parts[0]!.hash);
    for (const [at, id] of ids.entries()) expect(await (await openSnapshot(content, id)).record(repositoryPath)).toEqual(repositoryOn(at + 1));
    expect((await verifyStore(content)).problems).toEqual([]);
  });
});

describe('verify and inline records', () => {
  it('names a part whose inline record was altered, and the snapshot that needs it', async () => {
    const { content, ids } = await archiveOf(1);
    const { name, hash } = await partHolding(content, ids[0]!, repositoryPath);
    const file = objectPath(content, hash, 'json.gz');
    const text = (await new ObjectStore(content).readBytes(hash, 'json')).toString('utf8');
    expect(text).toContain('commit of day 1');
    await writeFile(file, gzipSync(text.replace('commit of day 1', 'commit of day 9')));
    const lines = (await verifyStore(content)).problems.map((problem) => `${problem.snapshot} ${problem.file}: ${problem.reason}`);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^ ${file}: its content hashes to [0-9a-f]{64}: the object is damaged$`)));
    expect(lines).toContainEqual(`${ids[0]} ${file}: damaged, needed by snapshot ${ids[0]} for index part ${name}`);
  });

  it('names an inline unit list that does not name its chunks', async () => {
    const { content, ids } = await archiveOf(1);
    expect((await verifyStore(content)).problems).toEqual([]);
    await rewriteIndex(content, ids[0]!, 4, async (part) =>
      part.inline?.[unitsPath] === undefined ? part : { ...part, inline: { ...part.inline, [unitsPath]: { count: 200, chunks: 'none' } } },
    );
    const reasons = (await verifyStore(content)).problems.map((problem) => problem.reason);
    expect(reasons).toContainEqual(expect.stringMatching(new RegExp(`^the unit list of ${unitsPath} cannot be read`)));
  });
});

describe('verify and an object kept in both forms', () => {
  it('checks the delta of an object that also has a .gz twin (as an unpack can leave it)', async () => {
    const { content, ids } = await archiveOf(2);
    const deltaKey = [...(await neededBy(content, ids[1]!)).keys()].find((key) => key.endsWith('.raw.dz'))!;
    expect(deltaKey).toBeDefined();
    const { hash } = splitObjectKey(deltaKey);
    const store = new ObjectStore(content);
    await writeFile(objectPath(content, hash, 'raw.gz'), gzipSync(await store.readBytes(hash, 'raw')));
    expect((await verifyStore(content)).problems).toEqual([]);

    // The delta's header stays; its operations now build other bytes. Readers take the intact twin.
    const deltaFile = objectPath(content, hash, 'raw.dz');
    const delta = await readFile(deltaFile);
    await writeFile(deltaFile, Buffer.concat([delta.subarray(0, deltaHeaderBytes), deflateRawSync(Buffer.from('I5\nother'))]));
    expect(Buffer.from((await (await openSnapshot(content, ids[1])).file(edited.translationUrl))!.bytes).toString()).toContain('vom Tag 2');
    const problems = (await verifyStore(content)).problems;
    expect(problems).toContainEqual({ snapshot: '', file: deltaFile, reason: `its content hashes to ${sha256('other')}: the object is damaged` });
  });
});
