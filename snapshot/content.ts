/**
 * The layout of a content directory and the forms an object takes on disk
 * (docs/snapshot-format.md, "Layout", "Format 3: deltas"): every path into `content/` and
 * every decoding of an object file is made here, and nowhere else. Reading objects by hash is
 * store.ts; what refers to what is archive/references.ts, through this module.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createGunzip, gunzipSync, inflateRawSync } from 'node:zlib';
import { parseJson } from '../api/json.ts';
import { parseStoredJson } from './canonical.ts';
import { applyDelta } from './delta.ts';
import { compareSnapshotIdsNewestFirst, isSnapshotId } from './ids.ts';

/** File and folder names of a content directory. */
export const lockFileName = '.lock';
export const manifestFile = 'manifest.json';
/** A crawl in progress keeps its state and journal here (`snapshots/<id>.partial/`). */
export const stateFile = 'state.json';
export const journalFile = 'journal.ndjson';
/** A finished snapshot's cache of what its objects weigh on disk, for `tmsnap snapshots` (archive/sizes.ts). */
export const sizesFile = 'sizes.json';
/** The archive's release tags (archive/tags.ts). */
export const tagsFileName = 'tags.json';
export const partialSuffix = '.partial';

export const snapshotsFolder = 'snapshots';
export const objectsFolder = 'objects';

export const snapshotsDir = (contentDir: string): string => join(contentDir, snapshotsFolder);
export const objectsDir = (contentDir: string): string => join(contentDir, objectsFolder);

/** `snapshots/<id>` of a finished snapshot, `snapshots/<id>.partial` of a crawl in progress; `id` must be a snapshot id. */
export function snapshotDir(contentDir: string, id: string, partial = false): string {
  if (!isSnapshotId(id)) throw new Error(`"${id}" is not a snapshot id`);
  return join(snapshotsDir(contentDir), partial ? id + partialSuffix : id);
}

export interface SnapshotDir {
  id: string;
  /** `snapshots/<id>` for a finished snapshot, `snapshots/<id>.partial` for a crawl in progress. */
  dir: string;
  partial: boolean;
}

/** Every snapshot directory, newest first; names that are not snapshot ids are not tmsnap's and are left alone. */
export async function listSnapshotDirs(contentDir: string): Promise<SnapshotDir[]> {
  const names = await readdir(snapshotsDir(contentDir)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const dirs: SnapshotDir[] = [];
  for (const name of names) {
    const partial = name.endsWith(partialSuffix);
    const id = partial ? name.slice(0, -partialSuffix.length) : name;
    if (isSnapshotId(id)) dirs.push({ id, dir: join(snapshotsDir(contentDir), name), partial });
  }
  return dirs.sort((a, b) => compareSnapshotIdsNewestFirst(a.id, b.id) || (a.partial === b.partial ? 0 : a.partial ? 1 : -1));
}

/**
 * How an object is kept on disk. Format 1 wrote `json` and `raw` as they are; format 2 writes
 * `json.gz` and `raw.gz`, gzip of the same bytes; format 3 adds `json.dz` and `raw.dz`, the
 * bytes as a delta against another object (its base). The name is the sha256 of the
 * uncompressed bytes in every form, so an object's identity never depends on how it is kept.
 */
export type ObjectExtension = 'json' | 'raw' | 'json.gz' | 'raw.gz' | 'json.dz' | 'raw.dz';
/** What an object holds, whatever its form on disk. */
export type ObjectKind = 'json' | 'raw';

export const isCompressed = (extension: ObjectExtension): boolean => extension.endsWith('.gz');
export const isDelta = (extension: ObjectExtension): boolean => extension.endsWith('.dz');
export const kindOfExtension = (extension: ObjectExtension): ObjectKind => (extension.startsWith('json') ? 'json' : 'raw');

/** The form a snapshot of each format names its objects in (a `.gz` name may be kept as its `.dz`). */
export function extensionsOf(format: number): { json: ObjectExtension; raw: ObjectExtension } {
  return format === 1 ? { json: 'json', raw: 'raw' } : { json: 'json.gz', raw: 'raw.gz' };
}

const hashPattern = /^[0-9a-f]{64}$/;

/**
 * `objects/<2 hex>/<62 hex>.<ext>`, named by the sha256 of the (uncompressed) bytes. Names come
 * from hashes only, never from slugs or codes, so no server string can steer a path.
 */
export function objectPath(contentDir: string, hash: string, extension: ObjectExtension): string {
  if (!hashPattern.test(hash)) throw new Error(`"${hash}" is not an object hash (64 lowercase hex digits)`);
  return join(objectsDir(contentDir), hash.slice(0, 2), `${hash.slice(2)}.${extension}`);
}

/** An object, named the way the store names its file: `<hash>.<extension>`. */
export type ObjectKey = `${string}.${ObjectExtension}`;

export const objectKey = (hash: string, extension: ObjectExtension): ObjectKey => `${hash}.${extension}`;

export function splitObjectKey(key: ObjectKey): { hash: string; extension: ObjectExtension } {
  const dot = key.indexOf('.');
  return { hash: key.slice(0, dot), extension: key.slice(dot + 1) as ObjectExtension };
}

export interface StoredObject {
  key: ObjectKey;
  file: string;
  size: number;
  mtimeMs: number;
}

const objectName = /^([0-9a-f]{62})\.(json|raw|json\.gz|raw\.gz|json\.dz|raw\.dz)$/;

/** Every file under `objects/`: the store's objects, and the files that have no business there. */
/** How many object files `listObjects` stats at once. */
const statBatch = 64;

export async function listObjects(contentDir: string): Promise<{ objects: StoredObject[]; strays: string[] }> {
  const root = objectsDir(contentDir);
  const objects: StoredObject[] = [];
  const strays: string[] = [];
  const buckets = await readdir(root, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const bucket of buckets) {
    const bucketPath = join(root, bucket.name);
    if (!bucket.isDirectory() || !/^[0-9a-f]{2}$/.test(bucket.name)) {
      strays.push(bucketPath);
      continue;
    }
    const named: { file: string; key: ObjectKey }[] = [];
    for (const entry of await readdir(bucketPath, { withFileTypes: true })) {
      const file = join(bucketPath, entry.name);
      const match = objectName.exec(entry.name);
      if (!entry.isFile() || !match) strays.push(file);
      else named.push({ file, key: objectKey(bucket.name + match[1], match[2] as ObjectExtension) });
    }
    // A bucket's files are stat'ed a batch at a time: one at a time, each waits its turn on
    // libuv's thread pool, which made `tmsnap snapshots` slow to answer on a loaded machine.
    for (let at = 0; at < named.length; at += statBatch) {
      const batch = named.slice(at, at + statBatch);
      const infos = await Promise.all(batch.map(({ file }) => stat(file)));
      batch.forEach(({ file, key }, index) => objects.push({ key, file, size: infos[index]!.size, mtimeMs: infos[index]!.mtimeMs }));
    }
  }
  return { objects, strays };
}

/** Inflated sizes beyond this are not trusted to size the output buffer in one piece (a damaged trailer could claim 4 GiB). */
const maxOneBufferBytes = 64 * 1024 * 1024;

/**
 * The bytes of a `.gz` object, its gzip CRC-32 checked. The output buffer is sized from the
 * trailer's length, so zlib inflates into one buffer rather than in 16 KiB pieces joined by a
 * copy (docs/snapshot-format.md, "How readers check what they read").
 */
export function gunzipObject(stored: Buffer): Buffer {
  const size = stored.length >= 18 ? stored.readUInt32LE(stored.length - 4) : 0;
  return gunzipSync(stored, size < maxOneBufferBytes ? { chunkSize: Math.max(64, size + 1) } : {});
}

/** The uncompressed bytes of an object file's content (not for deltas: those need their base, `ObjectStore.readBytes`). */
export function objectBytes(stored: Buffer, extension: ObjectExtension): Buffer {
  if (isDelta(extension)) throw new Error('a delta object is read through its store (it needs its base)');
  return isCompressed(extension) ? gunzipSync(stored) : stored;
}

/**
 * A delta object's file (`.dz`): `TMSD`, a version byte (1), its depth (1 + its base's; a
 * `.gz` base has depth 0), the base's sha256 (32 bytes, same kind: a `.json.dz` has a json
 * base), then the operations of snapshot/delta.ts, raw-deflated.
 */
const deltaMagic = Buffer.from('TMSD1', 'latin1');
export const deltaHeaderBytes = deltaMagic.length + 1 + 32;

export interface DeltaHeader {
  depth: number;
  base: string;
}

/** The header of a delta object's file; throws when the bytes are not one. */
export function readDeltaHeader(stored: Uint8Array): DeltaHeader {
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (bytes.length < deltaHeaderBytes || !bytes.subarray(0, deltaMagic.length).equals(deltaMagic)) throw new Error('not a tmsnap delta (bad header)');
  const depth = bytes[deltaMagic.length]!;
  if (depth < 1) throw new Error('not a tmsnap delta (depth 0)');
  return { depth, base: bytes.toString('hex', deltaMagic.length + 1, deltaHeaderBytes) };
}

/** A delta object's file from its header and its raw-deflated operations. */
export function deltaFile(header: DeltaHeader, deflated: Uint8Array): Buffer {
  return Buffer.concat([deltaMagic, Buffer.from([header.depth]), Buffer.from(header.base, 'hex'), deflated]);
}

/** A delta object's file, opened: its header and its operations inflated (throws when it is not one). */
export function openDeltaFile(stored: Buffer): { header: DeltaHeader; operations: Buffer } {
  const header = readDeltaHeader(stored);
  return { header, operations: inflateRawSync(stored.subarray(deltaHeaderBytes)) };
}

/** The bytes a delta's operations make of its base's bytes. */
export function rebuildFromBase(base: Uint8Array, operations: Uint8Array): Buffer {
  return applyDelta(base, operations);
}

/** The sha256 of a `.gz` or plain object file's uncompressed content, streamed; `unreadable (…)` when it cannot be read. */
export async function hashObjectFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  const source = createReadStream(file);
  const stream = file.endsWith('.gz') ? source.pipe(createGunzip()) : source;
  try {
    for await (const chunk of stream) hash.update(chunk as Buffer);
  } catch (error) {
    source.destroy();
    return `unreadable (${(error as Error).message})`;
  }
  return hash.digest('hex');
}
