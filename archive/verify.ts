/**
 * `tmsnap verify`: every object against the hash its name promises, and every reference of
 * every manifest (and of every crawl in progress) to an object that exists and is intact.
 */
import pLimit from 'p-limit';
import { listObjects, listSnapshotDirs, type ObjectKey, objectPath, ObjectStore, readManifestIn, splitObjectKey } from '../snapshot/index.ts';
import { hashObject, references, type ReferenceProblem, type StoredForms } from './references.ts';

export interface VerifyReport {
  objects: number;
  bytes: number;
  snapshots: number;
  partials: number;
  /** Corruption: damaged or missing objects, unreadable manifests and indexes. */
  problems: ReferenceProblem[];
  /** Files under `objects/` that are not objects (e.g. a temporary file a killed write left): reported, harmless. */
  strays: string[];
  /**
   * Finished snapshots holding raw records (records that did not fit their schema, kept as they
   * came and listed in the manifest's problems), with how many: not corruption, but data the
   * site and search do not show.
   */
  raw: { snapshot: string; records: number }[];
  /** Finished snapshots every object of which is there and intact, newest first: what still builds a site. */
  whole: string[];
  /** Snapshots (crawls in progress too) with a problem, newest first. */
  damaged: string[];
}

export interface VerifyProgress {
  checked: number;
  total: number;
}

/**
 * Why a delta cannot be read back, in verify's words (issue 35: not "hashes to unreadable"): the
 * store's message less the file it names (the line names it) and its advice to run verify.
 */
export function unreadableReason(message: string, file: string): string {
  const said = message.replaceAll('; run `tmsnap verify`', '').replaceAll(': the store is damaged', '');
  const own = said.startsWith(`object ${file} `) ? said.slice(`object ${file} `.length) : `cannot be read back (${said})`;
  return own.startsWith('does not match its hash') ? `its content ${own}: the object is damaged` : `it ${own}: the object is damaged`;
}

export class VerifyError extends Error {
  override name = 'VerifyError';
}

/**
 * `only`: the ids of the snapshots to check (a release's, `tmsnap verify v1.0`): their manifests,
 * references and the objects they need, and nothing else; all of them when not given.
 */
export async function verifyStore(contentDir: string, onProgress?: (progress: VerifyProgress) => void, only?: readonly string[]): Promise<VerifyReport> {
  const listed = await listSnapshotDirs(contentDir);
  const missing = only?.find((id) => !listed.some((snapshot) => snapshot.id === id));
  if (missing !== undefined) throw new VerifyError(`no snapshot "${missing}" in ${contentDir}: \`tmsnap snapshots --content ${contentDir}\` lists them`);
  const snapshots = only === undefined ? listed : listed.filter((snapshot) => only.includes(snapshot.id));
  const forms: StoredForms = new Map();
  // A snapshot's references are read before the hashing when only some snapshots are checked: they say which objects to hash.
  const found = new Map<string, Awaited<ReturnType<typeof references>>>();
  if (only !== undefined) for (const snapshot of snapshots) found.set(snapshot.dir, await references(contentDir, snapshot, forms));
  const needed = only === undefined ? undefined : new Set([...found.values()].flatMap((references) => [...references.objects.keys()]));
  const stored = await listObjects(contentDir);
  const objects = needed === undefined ? stored.objects : stored.objects.filter((object) => needed.has(object.key));
  const strays = only === undefined ? stored.strays : [];
  const problems: ReferenceProblem[] = [];
  const damaged = new Set<ObjectKey>();
  const limit = pLimit(4);
  // One store for every delta: the bases its cache holds serve the next delta on the same chain.
  const store = new ObjectStore(contentDir);
  let checked = 0;
  await Promise.all(
    objects.map((object) =>
      limit(async () => {
        const actual = await hashObject(store, object);
        if (typeof actual !== 'string') {
          damaged.add(object.key);
          problems.push({ snapshot: '', file: object.file, reason: unreadableReason(actual.unreadable, object.file) });
        } else if (actual !== splitObjectKey(object.key).hash) {
          damaged.add(object.key);
          problems.push({ snapshot: '', file: object.file, reason: `its content hashes to ${actual}: the object is damaged` });
        }
        checked += 1;
        if (checked % 5000 === 0) onProgress?.({ checked, total: objects.length });
      }),
    ),
  );
  onProgress?.({ checked, total: objects.length });

  const present = new Set(objects.map((object) => object.key));
  const raw: VerifyReport['raw'] = [];
  for (const snapshot of snapshots) {
    const { problems: referenceProblems, objects: needs } = found.get(snapshot.dir) ?? (await references(contentDir, snapshot, forms));
    if (!snapshot.partial) {
      const records = (await readManifestIn(snapshot.dir).catch(() => undefined))?.counts.raw ?? 0;
      if (records > 0) raw.push({ snapshot: snapshot.id, records });
    }
    problems.push(...referenceProblems);
    for (const [key, path] of needs) {
      const { hash, extension } = splitObjectKey(key);
      const file = objectPath(contentDir, hash, extension);
      const label = snapshot.partial ? `crawl in progress ${snapshot.id}` : `snapshot ${snapshot.id}`;
      if (!present.has(key)) problems.push({ snapshot: snapshot.id, file, reason: `missing, needed by ${label} for ${path}` });
      else if (damaged.has(key)) problems.push({ snapshot: snapshot.id, file, reason: `damaged, needed by ${label} for ${path}` });
    }
  }
  const hurt = new Set(problems.map((problem) => problem.snapshot).filter((id) => id !== ''));
  return {
    whole: snapshots.filter((snapshot) => !snapshot.partial && !hurt.has(snapshot.id)).map((snapshot) => snapshot.id),
    damaged: snapshots.filter((snapshot) => hurt.has(snapshot.id)).map((snapshot) => snapshot.id),
    objects: objects.length,
    bytes: objects.reduce((sum, object) => sum + object.size, 0),
    snapshots: snapshots.filter((snapshot) => !snapshot.partial).length,
    partials: snapshots.filter((snapshot) => snapshot.partial).length,
    problems,
    strays,
    raw,
  };
}
