/**
 * `tmsnap pack` / `tmsnap unpack`: snapshots with exactly the objects they need, as a tar.gz
 * that moves between machines. Unpacking treats the archive as hostile: only the paths a pack
 * holds (`entries.ts`), only plain files, every object checked against its hash, and nothing
 * becomes visible in the content directory until the whole archive has been read.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import * as tar from 'tar';
import { statSync } from 'node:fs';
import { objectPath, writeAtomic } from '../snapshot/store.ts';
import { classifyPackPath } from './entries.ts';
import { listSnapshotDirs, references, snapshotReferences, snapshotsDir, splitObjectKey, type SnapshotDir } from './references.ts';

export class PackError extends Error {
  override name = 'PackError';
}

export interface PackResult {
  snapshots: string[];
  objects: number;
  bytes: number;
}

/** Writes `out` (atomically) holding the given finished snapshots, or all of them when `ids` is empty. */
export async function pack(contentDir: string, ids: readonly string[], out: string): Promise<PackResult> {
  const finished = (await listSnapshotDirs(contentDir)).filter((snapshot) => !snapshot.partial);
  const chosen: SnapshotDir[] = [];
  for (const id of ids) {
    const snapshot = finished.find((candidate) => candidate.id === id);
    if (!snapshot) throw new PackError(`no finished snapshot "${id}" in ${snapshotsDir(contentDir)}; \`tmsnap snapshots --content ${contentDir}\` lists them`);
    chosen.push(snapshot);
  }
  if (ids.length === 0) chosen.push(...finished);
  if (chosen.length === 0) throw new PackError(`${snapshotsDir(contentDir)} holds no finished snapshot to pack`);

  const files = new Set<string>();
  for (const snapshot of chosen) {
    const found = await references(contentDir, snapshot);
    const first = found.problems[0];
    if (first) throw new PackError(`snapshot ${snapshot.id}: ${first.file}: ${first.reason}; run \`tmsnap verify\``);
    for (const name of (await readdir(snapshot.dir)).sort()) files.add(relative(contentDir, join(snapshot.dir, name)));
    for (const key of found.objects.keys()) {
      const { hash, extension } = splitObjectKey(key);
      const file = objectPath(contentDir, hash, extension);
      await stat(file).catch(() => {
        throw new PackError(`snapshot ${snapshot.id} needs ${file}, which is missing; run \`tmsnap verify\``);
      });
      files.add(relative(contentDir, file));
    }
  }
  const list = [...files].sort();
  const temporary = `${out}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    // A fixed mtime and sorted entries: packing the same snapshots twice gives the same bytes.
    await tar.c({ gzip: true, file: temporary, cwd: contentDir, portable: true, mtime: new Date(0) }, list);
    await rename(temporary, out);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  const bytes = (await stat(out)).size;
  return { snapshots: chosen.map((snapshot) => snapshot.id), objects: list.filter((path) => path.startsWith('objects/')).length, bytes };
}

export interface UnpackResult {
  added: string[];
  /** Snapshots already in the content directory, byte for byte. */
  present: string[];
  objectsAdded: number;
}

/** Largest single entry accepted: far above any real object, far below what would exhaust memory. */
const maxEntryBytes = 512 * 1024 * 1024;

/**
 * Adds the snapshots of a pack to `contentDir`. Objects go in first (content-addressed and
 * verified, so they can never overwrite anything with different bytes), then each snapshot's
 * directory, once every object it needs is present.
 */
export async function unpack(contentDir: string, archive: string): Promise<UnpackResult> {
  await mkdir(contentDir, { recursive: true });
  const staging = join(contentDir, `.unpack-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const staged = await stage(archive, staging);
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
      const problem = found.problems[0]?.reason ?? (missing && `it needs object ${missing}, which the archive does not hold`);
      if (problem) {
        throw new PackError(
          `${archive}: snapshot ${id}: ${problem}. The archive is incomplete or damaged: snapshot ${id} and the ones after it were not added` +
            ` (added: ${added.join(', ') || 'none'}; stray objects go with the next \`tmsnap prune\`).`,
        );
      }
      const target = join(snapshotsDir(contentDir), id);
      const existing = await readFile(join(target, 'manifest.json')).catch(() => undefined);
      if (existing) {
        if (!existing.equals(await readFile(join(dir, 'manifest.json')))) {
          throw new PackError(`${archive}: snapshot ${id} differs from the snapshot ${target} already here; move one of them away first`);
        }
        present.push(id);
        continue;
      }
      await rename(dir, target);
      added.push(id);
    }
    return { added, present, objectsAdded };
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
  objects: { hash: string; extension: 'json' | 'raw' }[];
  snapshots: Set<string>;
}

/** Reads the whole archive into `staging`, refusing it at the first entry a pack cannot hold. */
async function stage(archive: string, staging: string): Promise<Staged> {
  const staged: Staged = { objects: [], snapshots: new Set() };
  const writes: Promise<void>[] = [];
  let refusal: PackError | undefined;
  const refuse = (message: string) => {
    refusal ??= new PackError(`${archive}: ${message}; nothing was unpacked`);
  };
  await tar.t({
    file: archive,
    strict: true,
    onReadEntry: (entry) => {
      const kind = classifyPackPath(entry.path, entry.type);
      if ('refused' in kind) return refuse(`entry "${entry.path}" refused: ${kind.refused}`);
      if (kind.kind === 'directory') return;
      if (entry.size > maxEntryBytes) return refuse(`entry "${entry.path}" is ${entry.size} bytes, more than any object`);
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      writes.push(
        new Promise<void>((resolve) => entry.on('end', resolve)).then(async () => {
          const bytes = Buffer.concat(chunks);
          if (kind.kind === 'object') {
            const actual = createHash('sha256').update(bytes).digest('hex');
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
  }).catch((error: Error) => refuse(`not a readable tar.gz (${error.message})`));
  await Promise.all(writes);
  if (refusal) throw refusal;
  return staged;
}
