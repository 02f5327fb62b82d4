/**
 * `tmsnap pack` / `tmsnap unpack`: snapshots with exactly the objects they need, as a tar.gz
 * that moves between machines. Unpacking treats the archive as hostile: only the paths a pack
 * holds (`entries.ts`), only plain files, every object checked against its hash, and nothing
 * becomes visible in the content directory until the whole archive has been read. A pack
 * carries the release tags of its snapshots (`tags.json`), merged into the receiving archive's
 * without moving or dropping a tag already there (archive/tags.ts `mergeTags`).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { type Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import * as tar from 'tar';
import { statSync } from 'node:fs';
import {
  isDelta,
  kindOfExtension,
  listSnapshotDirs,
  manifestFile,
  sizesFile,
  MissingObjectError,
  objectBytes,
  type ObjectExtension,
  objectPath,
  ObjectStore,
  readDeltaHeader,
  readManifestIn,
  sha256,
  type SnapshotDir,
  snapshotsDir,
  splitObjectKey,
  writeAtomic,
} from '../snapshot/index.ts';
import { classifyPackPath } from './entries.ts';
import { mergeTags, parseTags, readTags, type Tag, TagError, tagsFile, tagsText, writeTags } from './tags.ts';
import { references, snapshotReferences, type StoredForms } from './references.ts';

export class PackError extends Error {
  override name = 'PackError';
}

export interface PackResult {
  snapshots: string[];
  objects: number;
  /** The release tags carried: those pinning a packed snapshot (or the one packed since). */
  tags: Tag[];
  /** Bytes written (also when writing to a stream). */
  bytes: number;
}

export interface PackOptions {
  /**
   * Pack only what the chosen snapshots add to this one: their manifests and the objects it
   * does not need. Without ids, the chosen snapshots are the finished ones newer than it. The
   * receiving archive must hold it already (docs/snapshot-format.md, "Moving snapshots").
   */
  since?: string | undefined;
}

/** Counts what passes through, so a pack written to a stream can still say its size. */
function counter(): { through: Transform; bytes: () => number } {
  let bytes = 0;
  const through = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { through, bytes: () => bytes };
}

/**
 * Writes the given finished snapshots (all of them when `ids` is empty, or those newer than
 * `since`) with every object they need to `out`: a file path, written atomically, or a stream
 * (`tmsnap pack --out -` passes stdout).
 */
export async function pack(contentDir: string, ids: readonly string[], out: string | Writable, options: PackOptions = {}): Promise<PackResult> {
  const finished = (await listSnapshotDirs(contentDir)).filter((snapshot) => !snapshot.partial);
  const find = (id: string) => {
    const snapshot = finished.find((candidate) => candidate.id === id);
    if (!snapshot) throw new PackError(`no finished snapshot "${id}" in ${snapshotsDir(contentDir)}; \`tmsnap snapshots --content ${contentDir}\` lists them`);
    return snapshot;
  };
  const base = options.since === undefined ? undefined : find(options.since);
  const chosen: SnapshotDir[] = ids.map(find);
  // Newest first, as listSnapshotDirs gives them: those after `since`, or all.
  if (ids.length === 0) chosen.push(...(base === undefined ? finished : finished.filter((snapshot) => snapshot.id > base.id)));
  if (chosen.length === 0) {
    throw new PackError(
      base === undefined
        ? `${snapshotsDir(contentDir)} holds no finished snapshot to pack`
        : `no finished snapshot newer than ${base.id} in ${snapshotsDir(contentDir)}: nothing to pack`,
    );
  }
  const carried = await tagsOf(contentDir, new Set([...chosen, ...(base === undefined ? [] : [base])].map((snapshot) => snapshot.id)));
  const already = new Set<string>();
  // References include every delta's chain of bases: a pack (--since too) carries what its deltas need.
  const forms: StoredForms = new Map();
  if (base !== undefined) {
    const found = await references(contentDir, base, forms);
    const first = found.problems[0];
    if (first) throw new PackError(`snapshot ${base.id}: ${first.file}: ${first.reason}; run \`tmsnap verify\``);
    for (const key of found.objects.keys()) already.add(key);
  }

  const files = new Set<string>();
  for (const snapshot of chosen) {
    const found = await references(contentDir, snapshot, forms);
    const first = found.problems[0];
    if (first) throw new PackError(`snapshot ${snapshot.id}: ${first.file}: ${first.reason}; run \`tmsnap verify\``);
    // sizes.json is this store's cache of its own forms' sizes (archive/sizes.ts): the unpacking store records its own.
    for (const name of (await readdir(snapshot.dir)).sort()) if (name !== sizesFile) files.add(relative(contentDir, join(snapshot.dir, name)));
    for (const key of found.objects.keys()) {
      if (already.has(key)) continue;
      const { hash, extension } = splitObjectKey(key);
      const file = objectPath(contentDir, hash, extension);
      await stat(file).catch(() => {
        throw new PackError(`snapshot ${snapshot.id} needs ${file}, which is missing; run \`tmsnap verify\``);
      });
      files.add(relative(contentDir, file));
    }
  }
  const list = [...files].sort();
  // Format 2's objects are gzip already: gzipping the tar again would only cost time.
  const compressedAlready = list.every((path) => !path.startsWith('objects/') || path.endsWith('.gz') || path.endsWith('.dz'));
  // A fixed mtime and sorted entries: packing the same snapshots twice gives the same bytes.
  const tarOptions = { gzip: compressedAlready ? { level: 1 } : true, cwd: contentDir, portable: true, mtime: new Date(0) };
  const result = (bytes: number): PackResult => ({
    snapshots: chosen.map((snapshot) => snapshot.id),
    objects: list.filter((path) => path.startsWith('objects/')).length,
    tags: carried,
    bytes,
  });
  const archive = () => tarStream(tarOptions, list, carried.length === 0 ? undefined : Buffer.from(tagsText(carried)));
  if (typeof out !== 'string') {
    const { through, bytes } = counter();
    // stdout must stay open: the command prints nothing else there, but it is not ours to close.
    await pipeline(archive(), through, out, { end: false });
    return result(bytes());
  }
  const temporary = `${out}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await pipeline(archive(), createWriteStream(temporary));
    await rename(temporary, out);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return result((await stat(out)).size);
}

/** The tags of the archive pinning one of `ids`; a damaged tags file stops the pack. */
async function tagsOf(contentDir: string, ids: ReadonlySet<string>): Promise<Tag[]> {
  try {
    return (await readTags(contentDir)).filter((tag) => ids.has(tag.snapshot));
  } catch (error) {
    if (error instanceof TagError) throw new PackError(error.message);
    throw error;
  }
}

/** The pack's tar stream: the files of `list` under the content folder, then the tags file's `tags` bytes, if any (they are not the archive's own file). */
function tarStream(options: ConstructorParameters<typeof tar.Pack>[0], list: readonly string[], tags: Buffer | undefined): Readable {
  const stream = new tar.Pack(options);
  for (const path of list) stream.add(path);
  if (tags !== undefined) {
    const entry = new tar.ReadEntry(new tar.Header({ path: tagsFile, type: 'File', size: tags.length, mode: 0o644, mtime: new Date(0) }));
    entry.end(tags);
    stream.add(entry);
  }
  stream.end();
  return stream as unknown as Readable;
}

export interface UnpackResult {
  added: string[];
  /** Snapshots already in the content directory, byte for byte. */
  present: string[];
  objectsAdded: number;
  /** Release tags of the pack added to the content directory's (those already there are left out). */
  tags: Tag[];
}

/** Largest single entry accepted: far above any real object, far below what would exhaust memory. */
const maxEntryBytes = 512 * 1024 * 1024;
/** Largest tags file accepted: thousands of releases, yet a small parse. */
const maxTagsBytes = 1024 * 1024;

/**
 * Adds the snapshots of a pack to `contentDir`. Objects go in first (content-addressed and
 * verified, so they can never overwrite anything with different bytes), then each snapshot's
 * directory, once every object it needs is present.
 */
export async function unpack(contentDir: string, archive: string | Readable): Promise<UnpackResult> {
  await mkdir(contentDir, { recursive: true });
  const staging = join(contentDir, `.unpack-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    let file: string;
    if (typeof archive === 'string') {
      file = archive;
    } else {
      // A stream (stdin) is saved whole first: nothing is looked at before it has all arrived.
      await mkdir(staging, { recursive: true });
      file = join(staging, 'stdin.tar.gz');
      await pipeline(archive, createWriteStream(file));
    }
    const label = typeof archive === 'string' ? archive : 'the pack on stdin';
    const staged = await stage(file, staging, label, contentDir);
    let objectsAdded = 0;
    for (const { hash, extension } of staged.objects) {
      const target = objectPath(contentDir, hash, extension);
      if (await stat(target).catch(() => undefined)) continue;
      await mkdir(dirname(target), { recursive: true });
      await rename(objectPath(staging, hash, extension), target);
      objectsAdded += 1;
    }
    const added: string[] = [];
    const present: string[] = [];
    await mkdir(snapshotsDir(contentDir), { recursive: true });
    for (const id of [...staged.snapshots].sort()) {
      const dir = join(snapshotsDir(staging), id);
      const found = await snapshotReferences(contentDir, { id, dir, partial: false });
      const missing = [...found.objects.keys()].find((key) => {
        const { hash, extension } = splitObjectKey(key);
        return !isFile(objectPath(contentDir, hash, extension));
      });
      const problem = found.problems[0]?.reason ?? (missing && `it needs object ${missing}, which neither the pack nor ${contentDir} holds`);
      if (problem) {
        throw new PackError(
          `${label}: snapshot ${id}: ${problem}. The archive is incomplete or damaged, or it is a pack made with --since and ${contentDir} lacks the snapshot it was made since: ` +
            `snapshot ${id} and the ones after it were not added` +
            ` (added: ${added.join(', ') || 'none'}; stray objects go with the next \`tmsnap prune\`).`,
        );
      }
      const target = join(snapshotsDir(contentDir), id);
      const existing = await readFile(join(target, manifestFile)).catch(() => undefined);
      if (existing) {
        if (!existing.equals(await readFile(join(dir, manifestFile)))) {
          throw new PackError(`${label}: snapshot ${id} differs from the snapshot ${target} already here; move one of them away first`);
        }
        present.push(id);
        continue;
      }
      await rename(dir, target);
      added.push(id);
    }
    // Last, once every snapshot they pin is here; checked against the tags here before anything moved (`stage`).
    if (staged.tags.added.length > 0) await writeTags(contentDir, staged.tags.tags);
    return { added, present, objectsAdded, tags: staged.tags.added };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

interface Staged {
  objects: { hash: string; extension: ObjectExtension }[];
  snapshots: Set<string>;
  /** The content directory's tags with the pack's merged in, and those the pack adds. */
  tags: { tags: Tag[]; added: Tag[] };
}

/** Reads the whole archive into `staging`, refusing it at the first entry a pack cannot hold. */
async function stage(archive: string, staging: string, label: string, contentDir: string): Promise<Staged> {
  const staged: Staged = { objects: [], snapshots: new Set(), tags: { tags: [], added: [] } };
  let tagsBytes: Buffer | undefined;
  const writes: Promise<void>[] = [];
  let refusal: PackError | undefined;
  const refuse = (message: string) => {
    refusal ??= new PackError(`${label}: ${message}; nothing was unpacked`);
  };
  await tar
    .t({
      file: archive,
      strict: true,
      onReadEntry: (entry) => {
        const kind = classifyPackPath(entry.path, entry.type);
        if ('refused' in kind) return refuse(`entry "${entry.path}" refused: ${kind.refused}`);
        if (kind.kind === 'directory') return;
        if (entry.size > maxEntryBytes) return refuse(`entry "${entry.path}" is ${entry.size} bytes, more than any object`);
        if (kind.kind === 'tags' && entry.size > maxTagsBytes) return refuse(`entry "${entry.path}" is ${entry.size} bytes, more than any tags file`);
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        writes.push(
          new Promise<void>((resolve) => entry.on('end', resolve)).then(async () => {
            const bytes = Buffer.concat(chunks);
            if (kind.kind === 'tags') {
              if (tagsBytes !== undefined) return refuse(`more than one ${tagsFile}`);
              tagsBytes = bytes;
            } else if (kind.kind === 'object' && isDelta(kind.extension)) {
              // A delta is checked once every object is staged: its base may come later in the pack, or be in the archive already.
              try {
                readDeltaHeader(bytes);
              } catch (error) {
                return refuse(`object "${entry.path}" is not a tmsnap delta (${(error as Error).message})`);
              }
              const file = objectPath(staging, kind.hash, kind.extension);
              await mkdir(dirname(file), { recursive: true });
              await writeAtomic(file, bytes);
              staged.objects.push({ hash: kind.hash, extension: kind.extension });
            } else if (kind.kind === 'object') {
              // Named by the hash of the uncompressed bytes, whatever the form (docs/snapshot-format.md).
              let content: Buffer;
              try {
                content = objectBytes(bytes, kind.extension);
              } catch (error) {
                return refuse(`object "${entry.path}" is not valid gzip (${(error as Error).message})`);
              }
              const actual = sha256(content);
              if (actual !== kind.hash) return refuse(`object "${entry.path}" does not match its hash (it hashes to ${actual})`);
              const file = objectPath(staging, kind.hash, kind.extension);
              await mkdir(dirname(file), { recursive: true });
              await writeAtomic(file, bytes);
              staged.objects.push({ hash: kind.hash, extension: kind.extension });
            } else {
              const dir = join(snapshotsDir(staging), kind.snapshot);
              await mkdir(dir, { recursive: true });
              await writeAtomic(join(dir, kind.name), bytes);
              staged.snapshots.add(kind.snapshot);
            }
          }),
        );
      },
    })
    .catch((error: Error) => refuse(`not a readable tar.gz (${error.message})`));
  await Promise.all(writes);
  if (refusal) throw refusal;
  // Each delta rebuilt from its chain (in the pack, or the archive it goes to) and checked against its name.
  const store = new ObjectStore(staging, { fallback: contentDir });
  for (const { hash, extension } of staged.objects) {
    if (!isDelta(extension)) continue;
    await store.readBytes(hash, kindOfExtension(extension)).catch((error: Error) => {
      // A base neither here nor in the archive: the snapshot that needs it is refused below, naming what is missing (a --since pack unpacked elsewhere).
      if (error instanceof MissingObjectError) return;
      refuse(`object "${hash}.${extension}" cannot be rebuilt and checked: ${error.message.split('\n')[0]}`);
    });
  }
  if (refusal) throw refusal;
  if (tagsBytes !== undefined) {
    try {
      staged.tags = await stagedTags(tagsBytes, staged.snapshots, staging, contentDir);
    } catch (error) {
      if (!(error instanceof TagError)) throw error;
      refuse(error.message);
    }
  }
  if (refusal) throw refusal;
  return staged;
}

/**
 * The pack's tags merged into the content directory's, refused unless each names a tag as
 * `tmsnap tag` would and pins a complete snapshot of the pack or of the content directory (a
 * release is a claim about the whole scope, archive/tags.ts). The caller holds the archive's
 * lock, so the tags read here are the ones `unpack` replaces.
 */
async function stagedTags(bytes: Buffer, packed: ReadonlySet<string>, staging: string, contentDir: string): Promise<Staged['tags']> {
  const incoming = parseTags(bytes.toString('utf8'), `${tagsFile} of the pack`, 'the pack is damaged or was not written by tmsnap');
  for (const tag of incoming) {
    // parseTags checked the id's spelling, so it is safe as a path part.
    const dir = join(snapshotsDir(packed.has(tag.snapshot) ? staging : contentDir), tag.snapshot);
    if (!isFile(join(dir, manifestFile))) {
      // A pack carries the tags of its snapshots and of the one it was made --since (`pack`): name that one first (issue 35).
      if (!packed.has(tag.snapshot)) {
        throw new TagError(
          `${contentDir} lacks snapshot ${tag.snapshot}, which the pack's tag ${tag.name} pins and a pack made with --since ${tag.snapshot} needs: unpack a pack holding it first, or make the pack without --since`,
        );
      }
      throw new TagError(`${tagsFile} of the pack pins tag ${tag.name} to snapshot ${tag.snapshot}, which neither the pack nor ${contentDir} holds`);
    }
    // A damaged manifest is refused by the snapshot's own check, naming what is wrong.
    const manifest = await readManifestIn(dir).catch(() => undefined);
    if (manifest?.complete === false)
      throw new TagError(`${tagsFile} of the pack pins tag ${tag.name} to snapshot ${tag.snapshot}, which is incomplete: a release names a complete snapshot`);
  }
  return mergeTags(await readTags(contentDir), incoming, contentDir);
}
