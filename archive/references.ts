/**
 * What a content directory holds and what refers to what: the snapshots (finished, and crawls
 * in progress), the objects each one needs, and the objects on disk. verify, prune, pack and
 * snapshots all walk the store through here, so they agree on what "referenced" means.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseJson } from '../api/index.ts';
import {
  type ChangeChunk,
  extensionsOf,
  hashObjectFile,
  indexPart,
  indexRoot,
  isCompressed,
  isDelta,
  journalFile,
  kindOfExtension,
  kindOfPath,
  type Manifest,
  manifestFile,
  objectKey,
  type ObjectKey,
  type ObjectKind,
  objectPath,
  ObjectStore,
  openDeltaFile,
  readDeltaHeader,
  readIndex,
  readManifestIn,
  rebuildFromBase,
  sha256,
  type SnapshotDir,
  splitObjectKey,
  stateFile,
  storedFile,
  type StoredObject,
  unitList,
} from '../snapshot/index.ts';

// Kept for bench/archive.ts, which still imports them from here; they are snapshot/content.ts's.
export { listObjects, listSnapshotDirs } from '../snapshot/index.ts';

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

/** A JSON object's value, in whatever form it is stored (a delta is read through its base). */
async function readObjectJson(contentDir: string, hash: string): Promise<unknown> {
  return parseJson((await new ObjectStore(contentDir).readBytes(hash, 'json')).toString('utf8'));
}

/**
 * Where each object a snapshot needs actually is: format 2 and 3 name objects `.gz`, but
 * format 3 keeps some as deltas (`.dz`), and a delta needs its base, and the base's base
 * (docs/snapshot-format.md, "Format 3: deltas"). Answers the keys as stored, the chains added, each
 * base labelled with what needs it. Shared across calls through `forms` (verify and prune walk
 * every snapshot; a key's form does not change while they run).
 */
export type StoredForms = Map<ObjectKey, { key: ObjectKey; base?: ObjectKey } | { damaged: string; key: ObjectKey }>;

async function storedForm(contentDir: string, key: ObjectKey, forms: StoredForms) {
  const known = forms.get(key);
  if (known !== undefined) return known;
  const { hash, extension } = splitObjectKey(key);
  let form: { key: ObjectKey; base?: ObjectKey } | { damaged: string; key: ObjectKey } = { key };
  if (isCompressed(extension) && !(await exists(objectPath(contentDir, hash, extension)))) {
    const kind = kindOfExtension(extension);
    const deltaKey = objectKey(hash, `${kind}.dz`);
    const delta = await readFile(objectPath(contentDir, hash, `${kind}.dz`)).catch(() => undefined);
    if (delta !== undefined) {
      try {
        form = { key: deltaKey, base: objectKey(readDeltaHeader(delta).base, `${kind}.gz`) };
      } catch (error) {
        form = { key: deltaKey, damaged: (error as Error).message };
      }
    }
  }
  forms.set(key, form);
  return form;
}

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined)) !== undefined;
}

async function withDeltaBases(
  contentDir: string,
  objects: Map<ObjectKey, string>,
  problem: (file: string, reason: string) => void,
  forms: StoredForms,
): Promise<Map<ObjectKey, string>> {
  const resolved = new Map<ObjectKey, string>();
  for (const [key, path] of objects) {
    let next: ObjectKey | undefined = key;
    // Depths strictly fall along a chain a reader accepts; a longer walk is a damaged header.
    for (let step = 0; next !== undefined && step < 256; step++) {
      const form = await storedForm(contentDir, next, forms);
      if (resolved.has(form.key)) break;
      resolved.set(form.key, path);
      if ('damaged' in form) {
        const { hash, extension } = splitObjectKey(form.key);
        problem(objectPath(contentDir, hash, extension), `a delta whose header cannot be read (${form.damaged})`);
        break;
      }
      // A base is needed for the same path as its delta: verify and pack name that path.
      next = form.base;
    }
  }
  return resolved;
}

/**
 * The objects a finished snapshot needs: its index (format 2: the root and its parts), every
 * record, raw record and change chunk the index names, the chunks of each format-2 unit list,
 * and the raw file (or its chunks) each `file/` entry points to. Unreadable links are
 * problems, not exceptions, so verify can list them all.
 */
export async function snapshotReferences(contentDir: string, snapshot: SnapshotDir, forms: StoredForms = new Map()): Promise<SnapshotReferences> {
  const objects = new Map<ObjectKey, string>();
  const problems: ReferenceProblem[] = [];
  const problem = (file: string, reason: string) => problems.push({ snapshot: snapshot.id, file, reason });
  let manifest: Manifest;
  try {
    manifest = await readManifestIn(snapshot.dir);
  } catch (error) {
    problem(join(snapshot.dir, manifestFile), (error as Error).message);
    return { objects, problems };
  }
  if (manifest.id !== snapshot.id) problem(join(snapshot.dir, manifestFile), `names snapshot ${manifest.id}, but lives in ${snapshot.id}`);
  const ext = extensionsOf(manifest.format);
  objects.set(objectKey(manifest.index, ext.json), 'index');
  const indexFile = objectPath(contentDir, manifest.index, ext.json);
  let index: IndexParts;
  try {
    // Parts are named needed before they are read: a damaged part is then reported with what needs it.
    index = await readIndexParts(new ObjectStore(contentDir), manifest, (name, hash) => objects.set(objectKey(hash, ext.json), `index part ${name}`));
  } catch (error) {
    problem(indexFile, `the snapshot's index cannot be read: ${(error as Error).message.split('\n')[0]}`);
    return { objects: await withDeltaBases(contentDir, objects, problem, forms), problems };
  }
  const chunked = new Set(index.chunked);
  for (const [path, hash] of index.records) await addRecord(contentDir, manifest.format, path, hash, chunked.has(path), objects, problem);
  // A record kept inline is no object of its own; what it names (a unit list's chunks, a file's bytes) is.
  for (const [path, value] of index.inline) await addRecord(contentDir, manifest.format, path, undefined, false, objects, problem, value);
  for (const [path, hash] of index.raw) objects.set(objectKey(hash, ext.json), path);
  for (const chunk of index.changes) objects.set(objectKey(chunk.hash, ext.json), `changes ${chunk.first}–${chunk.last}`);
  return { objects: await withDeltaBases(contentDir, objects, problem, forms), problems };
}

/** A snapshot's index as stored: its parts' names and hashes, and what they hold, inline records apart. */
interface IndexParts {
  records: [string, string][];
  inline: [string, unknown][];
  raw: [string, string][];
  chunked: string[];
  changes: ChangeChunk[];
}

async function readIndexParts(store: ObjectStore, manifest: Manifest, onPart: (name: string, hash: string) => void): Promise<IndexParts> {
  if (manifest.format === 1) {
    const index = await readIndex(store, manifest);
    return { records: Object.entries(index.records), inline: [], raw: Object.entries(index.raw), chunked: [], changes: index.changes };
  }
  const root = indexRoot.parse(await store.readJson(manifest.index));
  for (const [name, hash] of Object.entries(root.parts)) onPart(name, hash);
  const found: IndexParts = { records: [], inline: [], raw: [], chunked: [], changes: root.changes };
  for (const hash of Object.values(root.parts)) {
    const part = indexPart.parse(await store.readJson(hash));
    found.records.push(...Object.entries(part.records));
    found.inline.push(...Object.entries(part.inline ?? {}));
    found.raw.push(...Object.entries(part.raw));
    found.chunked.push(...(part.chunked ?? []));
  }
  return found;
}

/**
 * A record's object (unless it is kept `inline`, with that value), and what it names in turn: a
 * unit list's or a long list's chunks, a file entry's bytes.
 */
async function addRecord(
  contentDir: string,
  format: number,
  path: string,
  hash: string | undefined,
  chunked: boolean,
  objects: Map<ObjectKey, string>,
  problem: (file: string, reason: string) => void,
  inline?: unknown,
): Promise<void> {
  const ext = extensionsOf(format);
  if (hash !== undefined) objects.set(objectKey(hash, ext.json), path);
  const where = hash === undefined ? `the index part holding ${path}` : objectPath(contentDir, hash, ext.json);
  const value = () => (hash === undefined ? Promise.resolve(inline) : readObjectJson(contentDir, hash));
  const kind = kindOfPath(path);
  if (kind === 'file') await addFileBytes(format, path, where, value, objects, problem);
  if ((kind !== 'units' && !chunked) || format === 1) return;
  try {
    const list = unitList.parse(await value());
    for (const chunk of list.chunks) objects.set(objectKey(chunk.hash, ext.json), path);
  } catch (error) {
    problem(where, `the unit list of ${path} cannot be read: ${(error as Error).message.split('\n')[0]}`);
  }
}

async function addFileBytes(
  format: number,
  path: string,
  where: string,
  value: () => Promise<unknown>,
  objects: Map<ObjectKey, string>,
  problem: (file: string, reason: string) => void,
): Promise<void> {
  const ext = extensionsOf(format);
  try {
    const entry = storedFile.parse(await value());
    for (const bytes of entry.chunks ?? [entry.sha256]) objects.set(objectKey(bytes, ext.raw), path);
  } catch (error) {
    problem(where, `the file entry of ${path} cannot be read: ${(error as Error).message.split('\n')[0]}`);
  }
}

/**
 * The objects a crawl in progress has stored so far (its journal), so prune never deletes what
 * a resumed crawl will point its index at.
 */
export async function partialReferences(contentDir: string, snapshot: SnapshotDir, forms: StoredForms = new Map()): Promise<SnapshotReferences> {
  const objects = new Map<ObjectKey, string>();
  const problems: ReferenceProblem[] = [];
  const journal = join(snapshot.dir, journalFile);
  const text = await readFile(journal, 'utf8').catch(() => '');
  // A crawl of an older tmsnap journals format-1 objects; unreadable state: the current format.
  const state = await readFile(join(snapshot.dir, stateFile), 'utf8')
    .then((json) => JSON.parse(json) as { format?: unknown })
    .catch(() => undefined);
  const format = state?.format === 1 ? 1 : 4;
  const problem = (file: string, reason: string) => problems.push({ snapshot: snapshot.id, file, reason });
  for (const line of text.split('\n')) {
    let entry: { path?: unknown; hash?: unknown };
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // the half line a killed crawl leaves; the writer drops it on resume
    }
    if (typeof entry.path !== 'string' || typeof entry.hash !== 'string' || !/^[0-9a-f]{64}$/.test(entry.hash)) continue;
    const inline = (entry as { inline?: unknown }).inline;
    if (typeof inline === 'string') await addRecord(contentDir, format, entry.path, undefined, false, objects, problem, parseJson(inline));
    else await addRecord(contentDir, format, entry.path, entry.hash, (entry as { chunked?: unknown }).chunked === true, objects, problem);
  }
  return { objects: await withDeltaBases(contentDir, objects, problem, forms), problems };
}

/** What a snapshot (or crawl in progress) needs; pass the same `forms` to calls over one store to look up each object's form once. */
export function references(contentDir: string, snapshot: SnapshotDir, forms?: StoredForms): Promise<SnapshotReferences> {
  return snapshot.partial ? partialReferences(contentDir, snapshot, forms) : snapshotReferences(contentDir, snapshot, forms);
}

/**
 * The sha256 of an object's uncompressed content: streamed (through gunzip for `.gz`), or for
 * a delta rebuilt from its base chain (which must then be intact too). The name of every
 * object is the hash of its uncompressed bytes.
 */
export async function hashObject(store: ObjectStore, object: StoredObject): Promise<string | { unreadable: string }> {
  const { hash, extension } = splitObjectKey(object.key);
  if (!isDelta(extension)) return hashObjectFile(object.file);
  const kind = kindOfExtension(extension);
  try {
    // The store reads a `.gz` twin before the delta (an unpack can leave both): rebuild this file itself then.
    if (await exists(objectPath(store.contentDir, hash, `${kind}.gz`))) return sha256(await rebuildDelta(store, object.file, kind));
    await store.readBytes(hash, kind);
    return hash;
  } catch (error) {
    return { unreadable: (error as Error).message.split('\n')[0] ?? '' };
  }
}

/** The bytes a delta file makes of its base (read through the store, checked), for a delta the store would not read itself. */
async function rebuildDelta(store: ObjectStore, file: string, kind: ObjectKind): Promise<Buffer> {
  const { header, operations } = openDeltaFile(await readFile(file));
  return rebuildFromBase(await store.readBytes(header.base, kind), operations);
}
