import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, ObjectStore, openSnapshot, openSnapshotWriter } from '../../snapshot/index.ts';
import { archiveOfDays } from '../archive/days.ts';
import { syntheticInstance } from '../helpers/records.ts';
import { useContentFolders } from '../helpers/temp.ts';

const contentDir = useContentFolders('tmsnap-base-use-');
const base = 'http://127.0.0.1:8000/';
const instance = syntheticInstance(base, { projects: 1, languages: 2, unitsPerTranslation: 40 });

/** Three versions of a unit chunk, each a line different from the one before. */
const versions = [0, 1, 2].map((day) =>
  canonicalJson(Array.from({ length: 120 }, (_, i) => ({ id: i + 1, target: [i === 7 ? `Zpráva dne ${day}` : `Řetězec ${i}`] }))),
);

/** A day's snapshot; from day 2 one string of each translation is edited, so its chunk is stored as a delta. */
async function writeDay(content: string, day: number): Promise<string> {
  const date = new Date(Date.UTC(2026, 10, day, 4, 15));
  const writer = await openSnapshotWriter(content, { baseUrl: base, scope: {}, tmsnapVersion: '0.1.0', resume: false, now: () => date });
  await writer.putRecord(`${base}api/`, instance.root);
  for (const record of [...instance.projects, ...instance.components, ...instance.translations]) await writer.putRecord(record.url, record);
  for (const { translationUrl, units } of instance.units)
    await writer.putUnits(
      translationUrl,
      units.map((unit, at) => (at === 3 ? { ...unit, target: [`edited on day ${day}`] } : unit)),
    );
  return (await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true })).id;
}

async function deltaObjects(content: string): Promise<number> {
  let count = 0;
  for (const folder of await readdir(join(content, 'objects')))
    count += (await readdir(join(content, 'objects', folder))).filter((name) => name.endsWith('.json.dz')).length;
  return count;
}

describe('bases met on a delta chain: kept for the next read, or only used (store.ts BaseUse)', () => {
  it('keeps every base of a chain by default, and none when the read says it passes over', async () => {
    const content = await contentDir();
    const writer = new ObjectStore(content, { compress: true });
    let previous: string | undefined;
    const hashes: string[] = [];
    for (const version of versions) {
      previous = (await writer.putJson(JSON.parse(version) as unknown, { base: previous })).hash;
      hashes.push(previous);
    }
    expect(await writer.depth(hashes[2]!, 'json')).toBe(2);

    const kept = new ObjectStore(content);
    expect((await kept.readBytes(hashes[2]!, 'json')).toString('utf8')).toBe(versions[2]);
    // Both bases held: the first version whole and the second rebuilt from it.
    expect(kept.heldBaseBytes).toBe(Buffer.byteLength(versions[0]!) + Buffer.byteLength(versions[1]!));

    const passed = new ObjectStore(content);
    expect((await passed.readBytes(hashes[2]!, 'json', { check: 'crc', bases: 'pass' })).toString('utf8')).toBe(versions[2]);
    expect(passed.heldBaseBytes).toBe(0);
  });

  it('reads every unit of a snapshot whose chunks are deltas without holding their bases', async () => {
    const { content, ids } = await archiveOfDays(contentDir, 3, writeDay);
    expect(await deltaObjects(content)).toBeGreaterThan(0);
    const snapshot = await openSnapshot(content, ids[2]);
    const held = snapshot.store.heldBaseBytes;
    for (const { path } of await snapshot.translations()) expect((await snapshot.units(path))[3]?.target).toEqual(['edited on day 3']);
    expect(snapshot.store.heldBaseBytes).toBe(held);
  });
});
