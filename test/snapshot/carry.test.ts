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
    for (const chunk of [low!, high!]) expect(await writer.carryChanges(first, chunk)).toBe(true);
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
});
