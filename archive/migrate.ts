/**
 * `tmsnap migrate`: rewrites every snapshot of an archive to the newest format, in place
 * (docs/snapshot-format.md, "Migrating"). Each snapshot is rewritten whole (its new objects
 * first, then its manifest, atomically), so a reader sees either the old snapshot or the new
 * one, and a killed migrate resumes with the snapshots still in an older format. The objects
 * only the old snapshots needed go only once every snapshot is migrated and `verify` finds
 * nothing wrong.
 */
import { readFile, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  type Bases,
  canonicalJson,
  type ChangeChunk,
  changesPerChunk,
  chunkFile,
  chunkUnits,
  indexPart,
  type IndexPart,
  indexPartOf,
  indexRoot,
  type IndexRoot,
  keptInline,
  kindOfPath,
  listObjects,
  listSnapshotDirs,
  type Manifest,
  manifest as manifestSchema,
  manifestFile,
  type ObjectKey,
  ObjectStore,
  parseStoredJson,
  previousForBases,
  putChunks,
  putRecordValue,
  putValue,
  readIndex,
  rewrittenBase,
  sha256,
  snapshotFormat,
  storedFile,
  type StoredValue,
  storeWrite,
  type UnitList,
  writeAtomic,
} from '../snapshot/index.ts';
import { references } from './references.ts';
import { verifyStore } from './verify.ts';

export class MigrateError extends Error {
  override name = 'MigrateError';
}

export interface MigrateResult {
  /** Snapshots rewritten by this run. */
  migrated: string[];
  /** Snapshots already in the newest format (a fresh archive, or an earlier run's work). */
  already: string[];
  /** Objects only the old snapshots needed (format 1's, records now inline), removed once verify passed, and their bytes. */
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
  // What the snapshots needed before: objects of theirs that no migrated snapshot needs are dropped at the end.
  const before = await liveObjects(contentDir);
  for (const [at, snapshot] of finished.entries()) {
    const manifestPath = join(snapshot.dir, manifestFile);
    const parsed = manifestSchema.safeParse(parseStoredJson(await readFile(manifestPath, 'utf8').catch(() => 'null')));
    if (!parsed.success)
      throw new MigrateError(`${manifestPath} cannot be read: nothing more was changed; run \`tmsnap verify\` and repair or remove that snapshot first`);
    if (parsed.data.format === snapshotFormat) {
      already.push(snapshot.id);
      continue;
    }
    // Stored against the snapshot before it, already migrated: the deltas a crawl would have written.
    const bases = await previousForBases(contentDir, parsed.data.server.base_url, snapshot.id);
    // Formats 2 and 3 keep their objects (format 3 only added deltas, 4 keeps small records inline): only the index is rewritten.
    const rewritten = parsed.data.format === 1 ? rewrite(store, parsed.data, bases) : inlineSmallRecords(store, parsed.data, bases);
    const manifest = await rewritten.catch((error: Error) => {
      if (error.name === 'StoreWriteError') throw error;
      throw new MigrateError(`snapshot ${snapshot.id}: ${error.message.split('\n')[0]}. It stays in format ${parsed.data.format}; run \`tmsnap verify\``);
    });
    // The manifest last, atomically: until this rename readers see the format-1 snapshot, whole.
    await storeWrite(snapshot.dir, () => writeAtomic(manifestPath, canonicalJson(manifest)));
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
  const { objectsRemoved, bytesRemoved } = await dropOldObjects(contentDir, before);
  const bytesAfter = (await listObjects(contentDir)).objects.reduce((sum, object) => sum + object.size, 0);
  return { migrated, already, objectsRemoved, bytesRemoved, bytesBefore, bytesAfter };
}

/**
 * A format-2 or 3 snapshot in format 4: its index parts again, each record whose canonical JSON
 * is small kept inline (snapshot/inline.ts), as a crawl of the same data writes them. Answers its
 * new manifest.
 */
async function inlineSmallRecords(store: ObjectStore, manifest: Manifest, bases: Bases): Promise<Manifest> {
  const root = indexRoot.parse(await store.readJson(manifest.index));
  const parts: Record<string, string> = {};
  for (const [name, hash] of Object.entries(root.parts)) {
    const part = indexPart.parse(await store.readJson(hash));
    const chunked = new Set(part.chunked ?? []);
    const next: IndexPart = { ...part, records: {} };
    for (const [path, record] of Object.entries(part.records)) {
      const text = chunked.has(path) ? undefined : (await store.readBytes(record, 'json')).toString('utf8');
      if (text !== undefined && keptInline(text)) (next.inline ??= {})[path] = parseStoredJson(text);
      else next.records[path] = record;
    }
    parts[name] = (await store.putRewritten(next, await rewrittenBase(store, await bases.part(name)))).hash;
  }
  const index: IndexRoot = { ...root, parts };
  return manifestSchema.parse({ ...manifest, format: snapshotFormat, index: (await store.putJson(index)).hash });
}

/** Writes a format-1 snapshot's content in the newest format and answers its new manifest. */
async function rewrite(store: ObjectStore, manifest: Manifest, bases: Bases): Promise<Manifest> {
  const index = await readIndex(store, manifest);
  const parts = new Map<string, IndexPart>();
  const put = async (value: unknown, base?: string) => (await store.putJson(value, { base })).hash;
  const place = (path: string, stored: StoredValue, raw: boolean, chunked = false) => {
    const name = indexPartOf(path);
    let part = parts.get(name);
    if (part === undefined) parts.set(name, (part = { records: {}, raw: {} }));
    if (stored.inline !== undefined) (part.inline ??= {})[path] = parseStoredJson(stored.inline);
    else (raw ? part.raw : part.records)[path] = stored.hash;
    if (chunked) (part.chunked ??= []).push(path);
  };
  for (const [path, hash] of Object.entries(index.records)) {
    const kind = kindOfPath(path);
    if (kind === 'units') {
      const units = (await store.readJson(hash)) as { id?: unknown }[];
      const cut = chunkUnits(units);
      const stored = await putChunks(store, cut.map(canonicalJson), 'json', () => bases.chunks(path));
      const chunks: UnitList['chunks'] = cut.map((chunk, at) => ({ count: chunk.length, hash: stored.hashes[at]! }));
      place(path, await putValue(store, { count: units.length, chunks } satisfies UnitList, { base: bases.record(path) }), false);
    } else if (kind === 'file') {
      const entry = storedFile.parse(await store.readJson(hash));
      const bytes = await store.readBytes(entry.sha256, 'raw');
      const { hashes: chunks } = await putChunks(store, chunkFile(bytes), 'raw', () => bases.chunks(path));
      place(path, await putValue(store, { ...entry, sha256: sha256(bytes), chunks }, { base: bases.record(path) }), false);
    } else {
      // As the writer stores it: the same object (same bytes, same name, compressed), or a long list in chunks.
      const stored = await putRecordValue(store, await store.readJson(hash), { record: bases.record(path), chunks: () => bases.chunks(path) });
      place(path, stored, false, stored.chunked);
    }
  }
  for (const [path, hash] of Object.entries(index.raw))
    place(path, await store.putBytes(await store.readBytes(hash, 'json'), 'json', { base: bases.record(path) }), true);

  // Changes re-chunked to format 2's size, so the snapshots crawled next share them.
  const changes: ChangeChunk[] = [];
  let pending: { id: number }[] = [];
  let pendingChunk: number | undefined;
  const flush = async () => {
    const first = pending[0];
    const last = pending.at(-1);
    if (first !== undefined && last !== undefined)
      changes.push({
        first: first.id,
        last: last.id,
        count: pending.length,
        hash: (await store.putRewritten(pending, await rewrittenBase(store, await bases.changes(first.id, changesPerChunk)))).hash,
      });
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
  for (const [name, part] of [...parts].sort(([a], [b]) => (a < b ? -1 : 1)))
    partHashes[name] = (await store.putRewritten(part, await rewrittenBase(store, await bases.part(name)))).hash;
  const root: IndexRoot = { format: 2, parts: partHashes, changes };
  return manifestSchema.parse({ ...manifest, format: snapshotFormat, index: await put(root) });
}

/** Every object some snapshot, or crawl in progress, needs. */
async function liveObjects(contentDir: string): Promise<Set<ObjectKey>> {
  const live = new Set<ObjectKey>();
  for (const snapshot of await listSnapshotDirs(contentDir)) for (const key of (await references(contentDir, snapshot)).objects.keys()) live.add(key);
  return live;
}

/**
 * Removes the objects nothing refers to any more that the old snapshots needed (`before`) or
 * that are uncompressed (format 1's): other unreferenced objects are prune's business. A crawl
 * in progress of an older tmsnap keeps its own.
 */
async function dropOldObjects(contentDir: string, before: ReadonlySet<ObjectKey>): Promise<{ objectsRemoved: number; bytesRemoved: number }> {
  const live = await liveObjects(contentDir);
  let objectsRemoved = 0;
  let bytesRemoved = 0;
  const emptied = new Set<string>();
  for (const object of (await listObjects(contentDir)).objects) {
    const extension = object.key.slice(object.key.indexOf('.') + 1);
    if ((extension !== 'json' && extension !== 'raw' && !before.has(object.key)) || live.has(object.key)) continue;
    await rm(object.file, { force: true });
    objectsRemoved += 1;
    bytesRemoved += object.size;
    emptied.add(dirname(object.file));
  }
  for (const dir of emptied) await rmdir(dir).catch(() => undefined); // only succeeds when empty
  return { objectsRemoved, bytesRemoved };
}
