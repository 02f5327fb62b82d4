/**
 * What a content directory holds and what refers to what: the snapshots (finished, and crawls
 * in progress), the objects each one needs, and the objects on disk. verify, prune, pack and
 * snapshots all walk the store through here, so they agree on what "referenced" means.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseJson } from '../api/index.ts';
import { isSnapshotId } from '../snapshot/ids.ts';
import { kindOfPath } from '../snapshot/normalize.ts';
import { manifest as manifestSchema, snapshotIndex, storedFile, type Manifest } from '../snapshot/schemas.ts';
import { objectPath, type ObjectExtension } from '../snapshot/store.ts';

/** An object, named the way the store names its file: `<hash>.<extension>`. */
export type ObjectKey = `${string}.${ObjectExtension}`;

export const objectKey = (hash: string, extension: ObjectExtension): ObjectKey => `${hash}.${extension}`;

export function splitObjectKey(key: ObjectKey): { hash: string; extension: ObjectExtension } {
  const [hash = '', extension] = key.split('.') as [string, ObjectExtension];
  return { hash, extension };
}

export interface SnapshotDir {
  id: string;
  /** `snapshots/<id>` for a finished snapshot, `snapshots/<id>.partial` for a crawl in progress. */
  dir: string;
  partial: boolean;
}

export const snapshotsDir = (contentDir: string) => join(contentDir, 'snapshots');
const partialSuffix = '.partial';

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
  return dirs.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** A broken link in the store, named so a person can find it. */
export interface ReferenceProblem {
  snapshot: string;
  /** The file that holds the broken reference, or is itself broken. */
  file: string;
  reason: string;
}

export interface SnapshotReferences {
  /** Every object the snapshot needs, with the first stored path that needs it. */
  objects: Map<ObjectKey, string>;
  problems: ReferenceProblem[];
}

export async function readManifest(dir: string): Promise<Manifest> {
  const file = join(dir, 'manifest.json');
  const parsed = manifestSchema.safeParse(parseJson(await readFile(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: field "${issue?.path.join('.')}" ${issue?.message}; the manifest is damaged`);
  }
  return parsed.data;
}

async function readObjectJson(contentDir: string, hash: string): Promise<unknown> {
  return parseJson(await readFile(objectPath(contentDir, hash, 'json'), 'utf8'));
}

/**
 * The objects a finished snapshot needs: its index, every record, raw record and change chunk
 * the index names, and the raw file each `file/` entry points to. Unreadable links are
 * problems, not exceptions, so verify can list them all.
 */
export async function snapshotReferences(contentDir: string, snapshot: SnapshotDir): Promise<SnapshotReferences> {
  const objects = new Map<ObjectKey, string>();
  const problems: ReferenceProblem[] = [];
  const problem = (file: string, reason: string) => problems.push({ snapshot: snapshot.id, file, reason });
  let manifest: Manifest;
  try {
    manifest = await readManifest(snapshot.dir);
  } catch (error) {
    problem(join(snapshot.dir, 'manifest.json'), (error as Error).message);
    return { objects, problems };
  }
  if (manifest.id !== snapshot.id) problem(join(snapshot.dir, 'manifest.json'), `names snapshot ${manifest.id}, but lives in ${snapshot.id}`);
  objects.set(objectKey(manifest.index, 'json'), 'index');
  const indexFile = objectPath(contentDir, manifest.index, 'json');
  let index;
  try {
    index = snapshotIndex.parse(await readObjectJson(contentDir, manifest.index));
  } catch (error) {
    problem(indexFile, `the snapshot's index cannot be read: ${(error as Error).message.split('\n')[0]}`);
    return { objects, problems };
  }
  for (const [path, hash] of Object.entries(index.records)) {
    objects.set(objectKey(hash, 'json'), path);
    if (kindOfPath(path) === 'file') await addFileBytes(contentDir, path, hash, objects, problem);
  }
  for (const [path, hash] of Object.entries(index.raw)) objects.set(objectKey(hash, 'json'), path);
  for (const chunk of index.changes) objects.set(objectKey(chunk.hash, 'json'), `changes ${chunk.first}–${chunk.last}`);
  return { objects, problems };
}

async function addFileBytes(
  contentDir: string,
  path: string,
  hash: string,
  objects: Map<ObjectKey, string>,
  problem: (file: string, reason: string) => void,
): Promise<void> {
  try {
    const entry = storedFile.parse(await readObjectJson(contentDir, hash));
    objects.set(objectKey(entry.sha256, 'raw'), path);
  } catch (error) {
    problem(objectPath(contentDir, hash, 'json'), `the file entry of ${path} cannot be read: ${(error as Error).message.split('\n')[0]}`);
  }
}

/**
 * The objects a crawl in progress has stored so far (its journal), so prune never deletes what
 * a resumed crawl will point its index at.
 */
export async function partialReferences(contentDir: string, snapshot: SnapshotDir): Promise<SnapshotReferences> {
  const objects = new Map<ObjectKey, string>();
  const problems: ReferenceProblem[] = [];
  const journal = join(snapshot.dir, 'journal.ndjson');
  const text = await readFile(journal, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    let entry: { path?: unknown; hash?: unknown };
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // the half line a killed crawl leaves; the writer drops it on resume
    }
    if (typeof entry.path !== 'string' || typeof entry.hash !== 'string') continue;
    objects.set(objectKey(entry.hash, 'json'), entry.path);
    if (kindOfPath(entry.path) === 'file') {
      await addFileBytes(contentDir, entry.path, entry.hash, objects, (file, reason) => problems.push({ snapshot: snapshot.id, file, reason }));
    }
  }
  return { objects, problems };
}

export function references(contentDir: string, snapshot: SnapshotDir): Promise<SnapshotReferences> {
  return snapshot.partial ? partialReferences(contentDir, snapshot) : snapshotReferences(contentDir, snapshot);
}

export interface StoredObject {
  key: ObjectKey;
  file: string;
  size: number;
  mtimeMs: number;
}

const objectName = /^([0-9a-f]{62})\.(json|raw)$/;

/** Every file under `objects/`: the store's objects, and the files that have no business there. */
export async function listObjects(contentDir: string): Promise<{ objects: StoredObject[]; strays: string[] }> {
  const root = join(contentDir, 'objects');
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
    for (const entry of await readdir(bucketPath, { withFileTypes: true })) {
      const file = join(bucketPath, entry.name);
      const match = objectName.exec(entry.name);
      if (!entry.isFile() || !match) {
        strays.push(file);
        continue;
      }
      const info = await stat(file);
      objects.push({ key: objectKey(bucket.name + match[1], match[2] as ObjectExtension), file, size: info.size, mtimeMs: info.mtimeMs });
    }
  }
  return { objects, strays };
}

/** The sha256 of a file, streamed: unit lists of big translations need not fit in memory twice. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
