import { describe, expect, it, vi } from 'vitest';
import { canonicalJson, indexRoot, openSnapshot, openSnapshotWriter, ReadSession, sha256 } from '../../snapshot/index.ts';
import { archiveOfDays } from '../archive/days.ts';
import { syntheticInstance } from '../helpers/records.ts';
import { useContentFolders } from '../helpers/temp.ts';

const contentDir = useContentFolders('tmsnap-inline-held-');
const base = 'http://127.0.0.1:8000/';
const instance = syntheticInstance(base, { projects: 2, languages: 3, unitsPerTranslation: 20 });

/** A day's snapshot: every translation's `repository/` record names that day's commit, so every part differs from the day before. */
async function writeDay(content: string, day: number): Promise<string> {
  const date = new Date(Date.UTC(2026, 10, day, 4, 15));
  const writer = await openSnapshotWriter(content, { baseUrl: base, scope: {}, tmsnapVersion: '0.1.0', resume: false, now: () => date });
  await writer.putRecord(`${base}api/`, instance.root);
  for (const record of [...instance.projects, ...instance.components, ...instance.translations]) await writer.putRecord(record.url, record);
  for (const translation of instance.translations)
    await writer.putRecord(`${translation.url}repository/`, {
      needs_commit: false,
      needs_merge: false,
      needs_push: true,
      remote_commit: `commit of day ${day}`,
    });
  for (const { translationUrl, units } of instance.units) await writer.putUnits(translationUrl, units);
  return (await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true })).id;
}

describe('inline records held in memory (format 4)', () => {
  it('holds one snapshot’s worth however many snapshots a session opens, and still serves every record by its hash', async () => {
    const { content, ids } = await archiveOfDays(contentDir, 5, writeDay);
    const first = new ReadSession();
    await openSnapshot(content, ids[0], { session: first });
    const oneSnapshot = first.inline.heldBytes;
    expect(oneSnapshot).toBeGreaterThan(0);
    // No cache is shared behind a reader's back: a snapshot opened in a session of its own leaves this one's alone.
    await openSnapshot(content, ids[1]);
    expect(first.inline.heldBytes).toBe(oneSnapshot);

    const session = new ReadSession({ inlineBytes: oneSnapshot });
    const snapshots = [];
    let inline = 0;
    for (const id of ids) snapshots.push(await openSnapshot(content, id, { session }));
    expect(session.inline.heldBytes).toBeLessThanOrEqual(oneSnapshot);
    for (const snapshot of snapshots) {
      for (const [path, hash] of snapshot.paths()) {
        if (!snapshot.inline.has(hash)) continue;
        inline += 1;
        // A unit list comes whole (its chunks' units), so its own bytes are checked through the store.
        const bytes = path.endsWith('/units/') ? await snapshot.readBytes(hash, 'json') : Buffer.from(canonicalJson(await snapshot.record(path)));
        expect(sha256(bytes)).toBe(hash);
        expect(session.inline.heldBytes).toBeLessThanOrEqual(oneSnapshot);
      }
    }
    // Each day's repository records differ, so five days of parts are about five times one day's: the bound was needed.
    expect(inline).toBeGreaterThan(4 * instance.translations.length);
    expect(new Set(snapshots.flatMap((snapshot) => [...snapshot.paths().values()].filter((hash) => snapshot.inline.has(hash)))).size).toBeGreaterThan(
      (snapshots.length * instance.translations.length) / 2,
    );
  });

  it('holds the snapshot opened last whole, beyond the limit: a pass over its records reads no index part again', async () => {
    const { content, ids } = await archiveOfDays(contentDir, 2, writeDay);
    // Below any one part: before, each part was dropped as the next was read, and read again for each of its records.
    const session = new ReadSession({ inlineBytes: 1 });
    const snapshot = await openSnapshot(content, ids.at(-1), { session });
    const partHashes = new Set(Object.values(indexRoot.parse(await snapshot.store.readJson(snapshot.manifest.index)).parts));
    const readJson = vi.spyOn(snapshot.store, 'readJson');
    let inline = 0;
    for (const [path, hash] of snapshot.paths()) {
      if (!snapshot.inline.has(hash)) continue;
      inline += 1;
      expect(sha256(await snapshot.readBytes(hash, 'json')), path).toBe(hash);
    }
    expect(inline).toBeGreaterThan(2 * instance.translations.length);
    expect(readJson.mock.calls.filter(([hash]) => partHashes.has(hash))).toEqual([]);
    expect(session.inline.heldBytes).toBe(session.inline.openedBytes);
  });
});
