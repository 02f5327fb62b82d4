import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pack, unpack } from '../../archive/pack.ts';
import { prune } from '../../archive/prune.ts';
import { references } from '../../archive/references.ts';
import { verifyStore } from '../../archive/verify.ts';
import {
  listSnapshotDirs,
  maxDeltaDepth,
  type ObjectKey,
  objectPath,
  ObjectStore,
  openSnapshot,
  openSnapshotWriter,
  readDeltaHeader,
  splitObjectKey,
} from '../../snapshot/index.ts';
import { syntheticInstance } from '../helpers/records.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { archiveOfDays } from './days.ts';

const contentDir = useContentFolders('tmsnap-deltas-');
const base = 'http://127.0.0.1:8000/';
const instance = syntheticInstance(base, { projects: 1, languages: 2, unitsPerTranslation: 200 });
const edited = instance.units[0]!;

/** The target the edited string has on a day: one string changes a day, as a translator would change it. */
const targetOn = (day: number) => [`Übersetzung vom Tag ${day}`];

/** The translation file of a day: 200 entries, the edited one's text changed. */
function fileOn(day: number): Uint8Array {
  const entries = Array.from(
    { length: 200 },
    (_, i) => `#: src/file.c:${i}\nmsgid "String number ${i}"\nmsgstr "${i === 5 ? targetOn(day)[0] : `Zeichenkette ${i}`}"\n`,
  );
  return new TextEncoder().encode(`msgid ""\nmsgstr ""\n"PO-Revision-Date: 2026-11-${String(day).padStart(2, '0')}\\n"\n\n${entries.join('\n')}`);
}

/** Writes the snapshot of a day (its own date, so retention sees one per day) and answers its id. */
async function writeDay(content: string, day: number): Promise<string> {
  const date = new Date(Date.UTC(2026, 10, day, 4, 15));
  const writer = await openSnapshotWriter(content, { baseUrl: base, scope: {}, tmsnapVersion: '0.1.0', resume: false, now: () => date });
  await writer.putRecord(`${base}api/`, instance.root);
  for (const record of [...instance.projects, ...instance.components, ...instance.translations]) await writer.putRecord(record.url, record);
  for (const { translationUrl, units } of instance.units) {
    const today = translationUrl === edited.translationUrl ? units.map((unit, at) => (at === 5 ? { ...unit, target: targetOn(day) } : unit)) : units;
    await writer.putUnits(translationUrl, today);
  }
  await writer.putFile(edited.translationUrl, fileOn(day), 'text/x-gettext-catalog');
  return (await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true })).id;
}

const archiveOf = (days: number) => archiveOfDays(contentDir, days, writeDay);

async function neededBy(content: string, id: string): Promise<Map<ObjectKey, string>> {
  const dir = (await listSnapshotDirs(content)).find((snapshot) => snapshot.id === id)!;
  return (await references(content, dir)).objects;
}

async function editedUnitTarget(content: string, id: string): Promise<unknown> {
  return (await (await openSnapshot(content, id)).units(edited.translationUrl))[5]!.target;
}

describe('objects stored as deltas (format 3)', () => {
  it('stores a day’s edited chunk, file chunk and index part as deltas against the day before, and reads them back exactly', async () => {
    const { content, ids } = await archiveOf(2);
    const deltas = [...(await neededBy(content, ids[1]!)).keys()].filter((key) => key.endsWith('.dz'));
    expect(deltas.some((key) => key.endsWith('.raw.dz'))).toBe(true);
    expect(deltas.filter((key) => key.endsWith('.json.dz')).length).toBeGreaterThanOrEqual(2);
    expect(await editedUnitTarget(content, ids[1]!)).toEqual(targetOn(2));
    expect(Buffer.from((await (await openSnapshot(content, ids[1])).file(edited.translationUrl))!.bytes)).toEqual(Buffer.from(fileOn(2)));
    expect((await openSnapshot(content, ids[1])).manifest.format).toBe(4);
  });

  it('keeps a delta readable after the snapshot its base came with is pruned', async () => {
    const { content, ids } = await archiveOf(2);
    const needed = await neededBy(content, ids[1]!);
    const deltas = [...needed.keys()].filter((key) => key.endsWith('.dz'));
    expect(deltas.length).toBeGreaterThan(0);
    // Their bases came with the first snapshot: the chain, not a snapshot's index, is what keeps them.
    const firstNeeds = await neededBy(content, ids[0]!);
    for (const key of deltas) {
      const { hash, extension } = splitObjectKey(key);
      const header = readDeltaHeader(await readFile(objectPath(content, hash, extension)));
      expect(firstNeeds.has(`${header.base}.${extension.replace('.dz', '.gz')}` as ObjectKey)).toBe(true);
    }
    const result = await prune(content, { daily: 1, weekly: 0, monthly: 0 }, { dryRun: false });
    expect(result.removed.map((snapshot) => snapshot.id)).toEqual([ids[0]]);
    expect(result.objectsRemoved).toBeGreaterThan(0);
    expect(await editedUnitTarget(content, ids[1]!)).toEqual(targetOn(2));
    expect(Buffer.from((await (await openSnapshot(content, ids[1])).file(edited.translationUrl))!.bytes)).toEqual(Buffer.from(fileOn(2)));
    expect((await verifyStore(content)).problems).toEqual([]);
  });

  it('has verify name a damaged base, and the delta and snapshot that need it', async () => {
    const { content, ids } = await archiveOf(2);
    const needed = await neededBy(content, ids[1]!);
    const deltaKey = [...needed.keys()].find((key) => key.endsWith('.raw.dz'))!;
    const { hash, extension } = splitObjectKey(deltaKey);
    const header = readDeltaHeader(await readFile(objectPath(content, hash, extension)));
    const baseFile = objectPath(content, header.base, 'raw.gz');
    expect(needed.has(`${header.base}.raw.gz`)).toBe(true);
    // Same length, other bytes: a valid gzip of the wrong content.
    const { gzipSync, gunzipSync } = await import('node:zlib');
    const original = gunzipSync(await readFile(baseFile));
    original.writeUInt8(original.readUInt8(original.length - 2) ^ 0x20, original.length - 2);
    await writeFile(baseFile, gzipSync(original));

    const report = await verifyStore(content);
    const lines = report.problems.map((problem) => `${problem.snapshot} ${problem.file}: ${problem.reason}`);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^ ${baseFile}: its content hashes to [0-9a-f]{64}: the object is damaged$`)));
    expect(lines).toContainEqual(
      // Said as what it is, not as "hashes to unreadable" (issue 35).
      expect.stringMatching(
        new RegExp(`^ ${objectPath(content, hash, extension)}: it is a delta whose base ${header.base} cannot be read: .*: the object is damaged$`),
      ),
    );
    expect(lines).toContainEqual(`${ids[1]} ${baseFile}: damaged, needed by snapshot ${ids[1]} for ${needed.get(deltaKey)}`);
    await expect((await openSnapshot(content, ids[1])).file(edited.translationUrl)).rejects.toThrow(/does not match its hash/);
  });

  it('ships a day with pack --since: the pack carries the new deltas, and their bases come from the snapshot it was made since', async () => {
    const { content, ids } = await archiveOf(3);
    const receiving = await contentDir();
    const first = join(content, '..', 'first.tar.gz');
    await pack(content, [ids[1]!], first);
    expect((await unpack(receiving, first)).added).toEqual([ids[1]]);
    const since = join(content, '..', 'since.tar.gz');
    const packed = await pack(content, [], since, { since: ids[1]! });
    expect(packed.snapshots).toEqual([ids[2]]);
    expect((await unpack(receiving, since)).added).toEqual([ids[2]]);
    expect(await editedUnitTarget(receiving, ids[2]!)).toEqual(targetOn(3));
    expect((await verifyStore(receiving)).problems).toEqual([]);
    // Every delta the last day needs is there with its whole chain, in the receiving folder.
    const needed = [...(await neededBy(receiving, ids[2]!)).keys()];
    expect(needed.some((key) => key.endsWith('.dz'))).toBe(true);
    const store = new ObjectStore(receiving);
    for (const key of needed) {
      const { hash, extension } = splitObjectKey(key);
      await expect(store.readBytes(hash, extension.startsWith('raw') ? 'raw' : 'json')).resolves.toBeInstanceOf(Buffer);
    }
  });

  it('refuses to unpack a --since pack where the base snapshot is missing, naming it', async () => {
    const { content, ids } = await archiveOf(2);
    const since = join(content, '..', 'since.tar.gz');
    await pack(content, [], since, { since: ids[0]! });
    await expect(unpack(await contentDir(), since)).rejects.toThrow(/a pack made with --since/);
  });

  it('stores a chunk rewritten every day as one delta against the whole chunk its chain starts from, so a read is one base and one delta', async () => {
    const { content, ids } = await archiveOf(maxDeltaDepth + 3);
    const store = new ObjectStore(content);
    const headers: (string | undefined)[] = [];
    const firstChunks: string[] = [];
    for (const id of ids) {
      const file = (await (await openSnapshot(content, id)).record(`${edited.translationUrl.slice(base.length)}file/`)) as { chunks: string[] };
      // The first chunk holds the header, whose revision date changes every day.
      firstChunks.push(file.chunks[0]!);
      const delta = await readFile(objectPath(content, file.chunks[0]!, 'raw.dz')).catch(() => undefined);
      headers.push(delta === undefined ? undefined : readDeltaHeader(delta).base);
      expect(await store.depth(file.chunks[0]!, 'raw')).toBe(delta === undefined ? 0 : 1);
    }
    expect(headers).toEqual([undefined, ...ids.slice(1).map(() => firstChunks[0])]);
    for (const [day, id] of ids.entries()) expect(await editedUnitTarget(content, id)).toEqual(targetOn(day + 1));
  });
});
