/**
 * `tmsnap migrate`: rewrites every format-1 snapshot of an archive to format 2, in place
 * (docs/snapshot-format.md, "Migrating to format 2"). Each snapshot is rewritten whole (its new
 * objects first, then its manifest, atomically), so a reader sees either the old snapshot or
 * the new one, and a killed migrate resumes with the snapshots still in format 1. The old
 * objects go only once every snapshot is in format 2 and `verify` finds nothing wrong.
 */
import { readFile, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { canonicalJson, parseStoredJson, sha256 } from '../snapshot/canonical.ts';
import { type Bases, previousForBases } from '../snapshot/bases.ts';
import { chunkFile, chunkUnits, indexPartOf } from '../snapshot/chunks.ts';
import { kindOfPath } from '../snapshot/normalize.ts';
import { readIndex } from '../snapshot/reader.ts';
import { type ChangeChunk, type IndexPart, type IndexRoot, manifest as manifestSchema, type Manifest, storedFile, type UnitList } from '../snapshot/schemas.ts';
import { ObjectStore, storeWrite, writeAtomic } from '../snapshot/store.ts';
import { changesPerChunk, putChunks, putRecordValue, snapshotFormat } from '../snapshot/writer.ts';
import { listObjects, listSnapshotDirs, references, type ObjectKey } from './references.ts';
import { verifyStore } from './verify.ts';

export class MigrateError extends Error {
  override name = 'MigrateError';
}

export interface MigrateResult {
  /** Snapshots rewritten by this run. */
  migrated: string[];
  /** Snapshots already in format 2 (a fresh archive, or an earlier run's work). */
  already: string[];
  /** Format-1 objects removed once verify passed, and their bytes. */
  objectsRemoved: number;
  bytesRemoved: number;
  /** Bytes of objects before and after. */
  bytesBefore: number;
  bytesAfter: number;
}

export interface MigrateOptions {
  onSnapshot?: ((id: string, done: number, total: number) => void) | undefined;
}

export async function migrate(contentDir: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const bytesBefore = (await listObjects(contentDir)).objects.reduce((sum, object) => sum + object.size, 0);
  const finished = (await listSnapshotDirs(contentDir)).filter((snapshot) => !snapshot.partial).reverse();
  const migrated: string[] = [];
  const already: string[] = [];
  const store = new ObjectStore(contentDir, { compress: true });
  for (const [at, snapshot] of finished.entries()) {
    const manifestFile = join(snapshot.dir, 'manifest.json');
    const parsed = manifestSchema.safeParse(parseStoredJson(await readFile(manifestFile, 'utf8').catch(() => 'null')));
    if (!parsed.success)
      throw new MigrateError(`${manifestFile} cannot be read: nothing more was changed; run \`tmsnap verify\` and repair or remove that snapshot first`);
    if (parsed.data.format === snapshotFormat) {
      already.push(snapshot.id);
      continue;
    }
    if (parsed.data.format === 2) {
      // Format 2's objects are format 3's (format 3 only adds deltas): the manifest says so, nothing else changes.
      await storeWrite(snapshot.dir, () => writeAtomic(manifestFile, canonicalJson(manifestSchema.parse({ ...parsed.data, format: snapshotFormat }))));
      migrated.push(snapshot.id);
      options.onSnapshot?.(snapshot.id, at + 1, finished.length);
      continue;
    }
    // Stored against the snapshot before it, already migrated: the deltas a crawl would have written.
    const bases = await previousForBases(contentDir, parsed.data.server.base_url, snapshot.id);
    const manifest = await rewrite(store, parsed.data, bases).catch((error: Error) => {
      if (error.name === 'StoreWriteError') throw error;
      throw new MigrateError(`snapshot ${snapshot.id}: ${error.message.split('\n')[0]}. It stays in format 1; run \`tmsnap verify\``);
    });
    // The manifest last, atomically: until this rename readers see the format-1 snapshot, whole.
    await storeWrite(snapshot.dir, () => writeAtomic(manifestFile, canonicalJson(manifest)));
    migrated.push(snapshot.id);
    options.onSnapshot?.(snapshot.id, at + 1, finished.length);
  }

  const report = await verifyStore(contentDir);
  if (report.problems.length > 0) {
    const first = report.problems[0]!;
    throw new MigrateError(
      `verify found ${report.problems.length} problem(s) (first: ${first.file}: ${first.reason}); the format-1 objects were kept. Run \`tmsnap verify\` for the list`,
    );
  }
  const { objectsRemoved, bytesRemoved } = await dropFormat1Objects(contentDir);
  const bytesAfter = (await listObjects(contentDir)).objects.reduce((sum, object) => sum + object.size, 0);
  return { migrated, already, objectsRemoved, bytesRemoved, bytesBefore, bytesAfter };
}

/** Writes a format-1 snapshot's content as format 2 and answers its new manifest. */
async function rewrite(store: ObjectStore, manifest: Manifest, bases: Bases): Promise<Manifest> {
  const index = await readIndex(store, manifest);
  const parts = new Map<string, IndexPart>();
  const put = async (value: unknown, base?: string) => (await store.putJson(value, base)).hash;
  const place = (path: string, hash: string, raw: boolean, chunked = false) => {
    const name = indexPartOf(path);
    let part = parts.get(name);
    if (part === undefined) parts.set(name, (part = { records: {}, raw: {} }));
    (raw ? part.raw : part.records)[path] = hash;
    if (chunked) (part.chunked ??= []).push(path);
  };
  for (const [path, hash] of Object.entries(index.records)) {
    const kind = kindOfPath(path);
    if (kind === 'units') {
      const units = (await store.readJson(hash)) as { id?: unknown }[];
      const cut = chunkUnits(units);
      const stored = await putChunks(store, cut.map(canonicalJson), 'json', () => bases.chunks(path));
      const chunks: UnitList['chunks'] = cut.map((chunk, at) => ({ count: chunk.length, hash: stored.hashes[at]! }));
      place(path, await put({ count: units.length, chunks } satisfies UnitList, bases.record(path)), false);
    } else if (kind === 'file') {
      const entry = storedFile.parse(await store.readJson(hash));
      const bytes = await store.readBytes(entry.sha256, 'raw');
      const { hashes: chunks } = await putChunks(store, chunkFile(bytes), 'raw', () => bases.chunks(path));
      place(path, await put({ ...entry, sha256: sha256(bytes), chunks }, bases.record(path)), false);
    } else {
      // As the writer stores it: the same object (same bytes, same name, compressed), or a long list in chunks.
      const stored = await putRecordValue(store, await store.readJson(hash), { record: bases.record(path), chunks: () => bases.chunks(path) });
      place(path, stored.hash, false, stored.chunked);
    }
  }
  for (const [path, hash] of Object.entries(index.raw))
    place(path, (await store.putBytes(await store.readBytes(hash, 'json'), 'json', bases.record(path))).hash, true);

  // Changes re-chunked to format 2's size, so the snapshots crawled next share them.
  const changes: ChangeChunk[] = [];
  let pending: { id: number }[] = [];
  let pendingChunk: number | undefined;
  const flush = async () => {
    const first = pending[0];
    const last = pending.at(-1);
    if (first !== undefined && last !== undefined)
      changes.push({ first: first.id, last: last.id, count: pending.length, hash: await put(pending, await bases.changes(first.id, changesPerChunk)) });
    pending = [];
  };
  for (const chunk of index.changes) {
    for (const change of (await store.readJson(chunk.hash)) as { id: number }[]) {
      const number = Math.floor(change.id / changesPerChunk);
      if (number !== pendingChunk) await flush();
      pendingChunk = number;
      pending.push(change);
    }
  }
  await flush();

  const partHashes: Record<string, string> = {};
  for (const [name, part] of [...parts].sort(([a], [b]) => (a < b ? -1 : 1))) partHashes[name] = await put(part, await bases.part(name));
  const root: IndexRoot = { format: 2, parts: partHashes, changes };
  return manifestSchema.parse({ ...manifest, format: snapshotFormat, index: await put(root) });
}

/** Removes the uncompressed (format-1) objects nothing refers to any more: a crawl in progress of an older tmsnap keeps its own. */
async function dropFormat1Objects(contentDir: string): Promise<{ objectsRemoved: number; bytesRemoved: number }> {
  const live = new Set<ObjectKey>();
  for (const snapshot of await listSnapshotDirs(contentDir)) for (const key of (await references(contentDir, snapshot)).objects.keys()) live.add(key);
  let objectsRemoved = 0;
  let bytesRemoved = 0;
  const emptied = new Set<string>();
  for (const object of (await listObjects(contentDir)).objects) {
    const extension = object.key.slice(object.key.indexOf('.') + 1);
    if ((extension !== 'json' && extension !== 'raw') || live.has(object.key)) continue;
    await rm(object.file, { force: true });
    objectsRemoved += 1;
    bytesRemoved += object.size;
    emptied.add(dirname(object.file));
  }
  for (const dir of emptied) await rmdir(dir).catch(() => undefined); // only succeeds when empty
  return { objectsRemoved, bytesRemoved };
}
