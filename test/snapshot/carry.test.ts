import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSnapshot, openSnapshotWriter, type Snapshot } from '../../snapshot/index.ts';
import { apiPath } from '../../snapshot/links.ts';
import { sampleInstance } from '../helpers/records.ts';
import { base, finishOptions, newWriter, writeSample } from './helpers.ts';

const sample = sampleInstance(base);
const translation = apiPath(sample.translation.url, base);
const unitsPath = `${translation}units/`;
const filePath = `${translation}file/`;
const statisticsPath = 'api/components/demo/core/statistics/';
// More items than a chunk holds: stored as a `ChunkedList` (snapshot/chunks.ts `longList`).
const statistics = {
  count: 300,
  next: null,
  previous: null,
  results: Array.from({ length: 300 }, (_, i) => ({ code: `l${i}`, total: 10, translated: i % 10 })),
};

async function writeFirst(content: string): Promise<Snapshot> {
  const writer = await newWriter(content);
  await writeSample(writer, sample);
  await writer.putRecord(`${base}${statisticsPath}`, statistics);
  const { id } = await writer.finish(finishOptions);
  return openSnapshot(content, id);
}

/** The records a later writer meets before it carries anything: the link style is known by then. */
async function writeLists(content: string, date: string) {
  const writer = await newWriter(content, new Date(date));
  await writer.putRecord(`${base}api/`, sample.root);
  await writer.putRecord(sample.project.url, sample.project);
  await writer.putRecord(sample.component.url, sample.component);
  await writer.putRecord(sample.translation.url, sample.translation);
  return writer;
}

describe('SnapshotWriter.carry', () => {
  let content: string;
  let other: string;
  beforeEach(async () => {
    content = await mkdtemp(join(tmpdir(), 'tmsnap-carry-'));
    other = await mkdtemp(join(tmpdir(), 'tmsnap-carry-other-'));
  });
  afterEach(async () => {
    await rm(content, { recursive: true, force: true });
    await rm(other, { recursive: true, force: true });
  });

  it('indexes a unit list, a file and a chunked list as storing them again would, adding no bytes', async () => {
    const first = await writeFirst(content);
    const carried = await writeLists(content, '2026-11-23T04:15:00Z');
    const addedBefore = carried.addedBytes;
    for (const path of [unitsPath, filePath, statisticsPath]) expect([path, await carried.carry(first, path)]).toEqual([path, true]);
    expect(carried.addedBytes).toBe(addedBefore);
    const byReference = await openSnapshot(content, (await carried.finish(finishOptions)).id);

    const stored = await writeLists(content, '2026-11-24T04:15:00Z');
    await stored.putUnits(sample.translation.url, sample.units);
    await stored.putFile(sample.translation.url, (await first.file(translation))!.bytes, 'text/x-gettext-catalog');
    await stored.putRecord(`${base}${statisticsPath}`, statistics);
    const again = await openSnapshot(content, (await stored.finish(finishOptions)).id);

    for (const path of [unitsPath, filePath, statisticsPath]) expect(byReference.paths().get(path)).toBe(again.paths().get(path));
    expect(byReference.isChunked(statisticsPath)).toBe(true);
    expect(byReference.manifest.counts).toEqual(again.manifest.counts);
    expect(byReference.manifest.counts.unit).toBe(2);
    expect(await byReference.units(translation)).toEqual(await again.units(translation));
    expect(await byReference.record(statisticsPath)).toEqual(statistics);
    expect((await byReference.file(translation))?.bytes.toString()).toBe('msgid "Hello"\nmsgstr "Ahoj"\n');
  });

  it('refuses what it cannot carry by reference: the caller stores it', async () => {
    const first = await writeFirst(content);
    // Before the link style is known, a record stored again could be stored otherwise.
    const early = await newWriter(content, new Date('2026-11-23T04:15:00Z'));
    expect(await early.carry(first, unitsPath)).toBe(false);
    const writer = await writeLists(content, '2026-11-24T04:15:00Z');
    // Records that embed others the writer stores on their own, and paths the snapshot does not hold.
    expect(await writer.carry(first, translation)).toBe(false);
    expect(await writer.carry(first, 'api/users/jane/notifications/')).toBe(false);
    expect(await writer.carry(first, 'api/translations/demo/core/de/units/')).toBe(false);
    // Another archive's objects are not in this store.
    const elsewhere = await writeFirst(other);
    expect(await writer.carry(elsewhere, unitsPath)).toBe(false);
    expect(writer.stored(unitsPath)).toBeUndefined();
  });

  it('takes change chunks by reference, merged at finish with changes put into the same chunk, and after a resume', async () => {
    const first = await writeFirst(content);
    const [low, high] = first.index.changes;
    expect(first.index.changes.map((chunk) => [chunk.first, chunk.last])).toEqual([
      [1, 2],
      [1500, 1500],
    ]);
    const writer = await writeLists(content, '2026-11-23T04:15:00Z');
    const [, second] = sample.changes;
    // A change new in the low chunk, and change 2 again as a server might give it: the carried one wins.
    await writer.putChanges([
      { ...second!, id: 3, url: `${base}api/changes/3/` },
      { ...second!, target: 'Edited since' },
    ]);
    for (const chunk of [low!, high!]) expect(await writer.carryChanges(first, [chunk])).toBe(true);
    // A crawl killed here resumes from the writer's journal: the carried chunks are not lost.
    const resumed = await openSnapshotWriter(content, { baseUrl: `${base}api/`, scope: {}, tmsnapVersion: '0.1.0', resume: true });
    const later = await openSnapshot(content, (await resumed.finish(finishOptions)).id);
    expect(later.index.changes.at(-1)).toEqual(high);
    const changes = [];
    for await (const change of later.changes()) changes.push(change);
    expect(changes.map((change) => [change.id, change.target])).toEqual([
      [1, ''],
      [2, 'Hello'],
      [3, 'Hello'],
      [1500, 'Hello'],
    ]);
    expect(later.manifest.counts.change).toBe(4);
  });

  it('takes many change chunks in one call, all or none, and they survive a resume', async () => {
    const first = await writeFirst(content);
    const elsewhere = await writeFirst(other);
    const writer = await writeLists(content, '2026-11-23T04:15:00Z');
    // Another archive's chunks are not this store's: none is taken.
    expect(await writer.carryChanges(elsewhere, elsewhere.index.changes)).toBe(false);
    expect(writer.canCarryChanges(elsewhere, elsewhere.index.changes[0]!)).toBe(false);
    expect(await writer.carryChanges(first, first.index.changes)).toBe(true);
    const resumed = await openSnapshotWriter(content, { baseUrl: `${base}api/`, scope: {}, tmsnapVersion: '0.1.0', resume: true });
    const later = await openSnapshot(content, (await resumed.finish(finishOptions)).id);
    expect(later.index.changes).toEqual(first.index.changes);
    expect(later.manifest.counts.change).toBe(first.manifest.counts.change);
  });
});

describe('SnapshotWriter.putMergedUnits', () => {
  let content: string;
  let other: string;
  beforeEach(async () => {
    content = await mkdtemp(join(tmpdir(), 'tmsnap-merged-'));
    other = await mkdtemp(join(tmpdir(), 'tmsnap-merged-other-'));
  });
  afterEach(async () => {
    await rm(content, { recursive: true, force: true });
    await rm(other, { recursive: true, force: true });
  });

  it('stores units kept as stored and changed API records as putUnits stores them all, and refuses another archive', async () => {
    await writeFirst(content);
    // A field tmsnap does not know, on each side: both count as drift.
    const keptUnit = { ...sample.units[0]!, kept_field_2026: 'x' };
    const edited = { ...sample.units[1]!, target: ['Edited since'], extra_field_2026: 1 };
    const writer = await writeLists(content, '2026-11-22T04:15:00Z');
    await writer.putUnits(sample.translation.url, [keptUnit, sample.units[1]]);
    const first = await openSnapshot(content, (await writer.finish(finishOptions)).id);
    const chunks = (await first.unitChunks(translation))!;
    const kept = chunks.flatMap((chunk) => chunk.units).filter((unit) => unit.id === keptUnit.id);
    expect(kept).toHaveLength(1);

    const merged = await writeLists(content, '2026-11-23T04:15:00Z');
    expect(await merged.putMergedUnits(first, sample.translation.url, chunks, kept, [edited])).toBe(true);
    const byMerge = await openSnapshot(content, (await merged.finish(finishOptions)).id);

    const stored = await writeLists(content, '2026-11-24T04:15:00Z');
    await stored.putUnits(sample.translation.url, [keptUnit, edited]);
    const again = await openSnapshot(content, (await stored.finish(finishOptions)).id);

    expect(byMerge.paths().get(unitsPath)).toBe(again.paths().get(unitsPath));
    expect(byMerge.paths().get(unitsPath)).not.toBe(first.paths().get(unitsPath));
    expect(await byMerge.units(translation)).toEqual(await again.units(translation));
    // By position: the edited unit (id 10) first.
    expect((await byMerge.units(translation)).map((unit) => unit.target)).toEqual([['Edited since'], keptUnit.target]);
    expect(byMerge.manifest.counts).toEqual(again.manifest.counts);
    // The kept unit's drift counts as when it was put, the changed one's as it came.
    expect(byMerge.manifest.drift).toEqual(again.manifest.drift);
    expect(byMerge.manifest.drift?.map((entry) => entry.field)).toEqual(expect.arrayContaining(['extra_field_2026', 'kept_field_2026']));

    const elsewhere = await writeFirst(other);
    const refusing = await writeLists(content, '2026-11-25T04:15:00Z');
    const otherChunks = (await elsewhere.unitChunks(translation))!;
    expect(await refusing.putMergedUnits(elsewhere, sample.translation.url, otherChunks, otherChunks[0]!.units, [])).toBe(false);
    expect(refusing.stored(unitsPath)).toBeUndefined();
  });

  it('keeps each chunk no changed unit is in as the object it was', async () => {
    const first = await writeFirst(content);
    const many = Array.from({ length: 200 }, (_, i) => ({ ...sample.units[0]!, id: 100 + i, position: i + 1, url: `${base}api/units/${100 + i}/` }));
    const writer = await writeLists(content, '2026-11-23T04:15:00Z');
    await writer.putUnits(sample.translation.url, many);
    const previous = await openSnapshot(content, (await writer.finish(finishOptions)).id);
    const chunks = (await previous.unitChunks(translation))!;
    expect(chunks.length).toBeGreaterThan(2);
    // The last unit changes: every chunk but the last is kept whole.
    const last = many.at(-1)!;
    const kept = chunks.flatMap((chunk) => chunk.units).filter((unit) => unit.id !== last.id);
    const merged = await writeLists(content, '2026-11-24T04:15:00Z');
    expect(await merged.putMergedUnits(previous, sample.translation.url, chunks, kept, [{ ...last, target: ['Changed'] }])).toBe(true);
    const after = await openSnapshot(content, (await merged.finish(finishOptions)).id);
    const afterChunks = (await after.unitChunks(translation))!;
    expect(afterChunks.map((chunk) => chunk.hash).slice(0, -1)).toEqual(chunks.map((chunk) => chunk.hash).slice(0, -1));
    expect(afterChunks.at(-1)!.hash).not.toBe(chunks.at(-1)!.hash);
    expect((await after.units(translation)).map((unit) => unit.target[0])).toEqual(many.map((unit, i) => (i === 199 ? 'Changed' : unit.target[0])));
  });
});
