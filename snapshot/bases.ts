/**
 * Which object a new object is stored as a delta against (docs/snapshot-format.md, "Format 3: deltas"):
 * the same path's object in the previous snapshot, and for the chunks of a unit list, a long
 * list or a raw file, the previous version's chunk in the same place. The writer and
 * `tmsnap migrate` both choose through here, so both store the same objects the same way.
 */
import { readFile } from 'node:fs/promises';
import { type ObjectKind, objectPath, readDeltaHeader } from './content.ts';
import { compareSnapshotIdsNewestFirst } from './ids.ts';
import { listSnapshots, openSnapshot, type Snapshot, type SnapshotSummary } from './reader.ts';
import { indexRoot, storedFile, unitList } from './schemas.ts';
import { maxRewrittenDepth, type ObjectStore } from './store.ts';

/**
 * The base for an object rewritten every day (an index part, the newest change chunk): its
 * previous version, or, once that version's chain is `maxRewrittenDepth` long, the whole object
 * the chain starts from (the delta starts a new chain at depth 1). Such a delta holds every line
 * changed since the chain began, more the longer ago that was (store.ts `maxRewrittenDepth`);
 * when it is not worth it, the store keeps the object whole, which starts the next chains.
 */
export async function rewrittenBase(store: ObjectStore, base: string | undefined, kind: ObjectKind = 'json'): Promise<string | undefined> {
  if (base === undefined || ((await store.depth(base, kind)) ?? 0) < maxRewrittenDepth) return base;
  return chainStart(store, base, kind);
}

/**
 * The whole object (stored `.gz`) a delta's chain starts from; `hash` itself when it is stored
 * whole or not as a delta at all; `hash` again when a link of its chain is damaged (the store
 * then keeps the new object whole, and verify names the damage).
 */
export async function chainStart(store: ObjectStore, hash: string, kind: ObjectKind): Promise<string> {
  let at = hash;
  for (let step = 0; step < maxRewrittenDepth; step++) {
    const file = await readFile(objectPath(store.contentDir, at, `${kind}.dz`)).catch(() => undefined);
    if (file === undefined) return at;
    try {
      at = readDeltaHeader(file).base;
    } catch {
      return hash;
    }
  }
  return at;
}

/**
 * The base for a chunk (of a unit list, a long list or a raw file): the whole object the old
 * chunk's chain starts from, so that every chunk is read as one whole object and at most one
 * delta. Chunks are most of a snapshot's reads, and a chain costs a read and an inflate per link
 * (docs/snapshot-format.md, "Format 3: deltas"); a chunk is edited rarely, so a
 * delta against its first version holds about the lines one against its last would.
 */
export async function chunkBase(store: ObjectStore, old: string | undefined, kind: ObjectKind): Promise<string | undefined> {
  return old === undefined ? undefined : chainStart(store, old, kind);
}

/**
 * For each new chunk, the old chunk it most likely is a version of. Chunks that did not change
 * are anchors (found in the old list, in order); each stretch of changed chunks between two
 * anchors pairs with the old stretch between the same anchors, by place. One edited string
 * changes one chunk, which pairs with its old version, wherever it is in the list and however
 * many other chunks changed elsewhere. Pure.
 */
export function alignChunks(old: readonly string[], next: readonly string[]): (string | undefined)[] {
  const where = new Map<string, number>();
  for (const [at, hash] of old.entries()) if (!where.has(hash)) where.set(hash, at);
  // Anchors: new chunks found in the old list after the previous anchor.
  const anchors: [number, number][] = [];
  for (const [at, hash] of next.entries()) {
    const from = where.get(hash);
    if (from !== undefined && from > (anchors.at(-1)?.[1] ?? -1)) anchors.push([at, from]);
  }
  const paired: (string | undefined)[] = new Array(next.length);
  const pairStretch = (nextFrom: number, nextTo: number, oldFrom: number, oldTo: number) => {
    const oldLength = oldTo - oldFrom;
    const nextLength = nextTo - nextFrom;
    for (let at = nextFrom; at < nextTo; at++) {
      // Nothing changed in place of an inserted stretch: the old chunk that now follows it.
      paired[at] = oldLength > 0 ? old[oldFrom + Math.floor(((at - nextFrom) * oldLength) / nextLength)] : (old[oldFrom] ?? old[oldFrom - 1]);
    }
  };
  let nextFrom = 0;
  let oldFrom = 0;
  for (const [at, from] of anchors) {
    pairStretch(nextFrom, at, oldFrom, from);
    paired[at] = old[from];
    nextFrom = at + 1;
    oldFrom = from + 1;
  }
  pairStretch(nextFrom, next.length, oldFrom, old.length);
  return paired;
}

/** A translation's record path as `api/translations/<project>/<component>/`, a newline, and what follows the language; undefined for other paths. */
function siblingKey(path: string): string | undefined {
  const match = /^(api\/translations\/[^/]+\/[^/]+\/)[^/]+\/(.*)$/.exec(path);
  return match === null ? undefined : `${match[1]}\n${match[2]}`;
}

/**
 * For each record of a translation (its units, file, `repository/`…), keyed by component and
 * what follows the language, the first such path in `paths`. A new language's records are
 * stored against them: its units have the same sources, positions and hashes as its siblings'
 * lines, its file the same msgids, and its `repository/` record shows the component's
 * repository as theirs do (docs/weblate-api.md); stored whole, a language added to a project
 * was most of a structural day's bytes (bench:archive, docs/snapshot-format.md "Format 3: deltas"). Pure.
 */
export function siblingPaths(paths: Iterable<string>): Map<string, string> {
  const siblings = new Map<string, string>();
  for (const path of paths) {
    const key = siblingKey(path);
    if (key !== undefined && !siblings.has(key)) siblings.set(key, path);
  }
  return siblings;
}

/** The previous snapshot's objects, by what they are, for choosing bases. Everything is read lazily and at most once. */
export class Bases {
  readonly #lists = new Map<string, Promise<string[]>>();
  #siblings: Map<string, string> | undefined;
  #root: Promise<{ parts: Record<string, string>; changes: { first: number; hash: string }[] } | undefined> | undefined;

  readonly parent: Snapshot | undefined;

  constructor(parent: Snapshot | undefined) {
    this.parent = parent;
  }

  /**
   * The object at `path` in the previous snapshot (normalized or raw); for a record of a
   * translation that snapshot does not hold (a new language), the same record of a sibling
   * translation (`siblingPaths`).
   */
  record(path: string): string | undefined {
    const paths = this.parent?.paths();
    return paths?.get(path) ?? paths?.get(this.#sibling(path) ?? '');
  }

  /** Where a new translation's record finds its base: the same record of another translation of its component in the previous snapshot. */
  #sibling(path: string): string | undefined {
    if (this.parent === undefined || this.parent.paths().has(path)) return undefined;
    this.#siblings ??= siblingPaths(this.parent.paths().keys());
    return this.#siblings.get(siblingKey(path) ?? '');
  }

  /** The chunks of the previous version of a chunked record at `path` (or of its sibling's, as `record`): a unit list, a long list, or a file's bytes. */
  chunks(path: string): Promise<string[]> {
    const at = this.#sibling(path) ?? path;
    const hash = this.parent?.index.records[at];
    if (this.parent === undefined || hash === undefined) return Promise.resolve([]);
    let list = this.#lists.get(at);
    if (list === undefined) {
      // Through the snapshot, not its store: a short unit list or file entry is kept inline in its index part.
      list = this.parent
        .readJson(hash)
        .then((value) => {
          const file = storedFile.safeParse(value);
          if (file.success) return file.data.chunks ?? [];
          const chunked = unitList.safeParse(value);
          return chunked.success ? chunked.data.chunks.map((chunk) => chunk.hash) : [];
        })
        .catch(() => []);
      this.#lists.set(at, list);
    }
    return list;
  }

  async #readRoot() {
    if (this.parent === undefined || this.parent.manifest.format === 1) return undefined;
    const root = indexRoot.safeParse(await this.parent.store.readJson(this.parent.manifest.index).catch(() => undefined));
    return root.success ? { parts: root.data.parts, changes: root.data.changes } : undefined;
  }

  /** The previous snapshot's index part of that name. */
  async part(name: string): Promise<string | undefined> {
    return (await (this.#root ??= this.#readRoot()))?.parts[name];
  }

  /** The previous snapshot's chunk of changes that starts in the same range of ids. */
  async changes(first: number, perChunk: number): Promise<string | undefined> {
    const root = await (this.#root ??= this.#readRoot());
    return root?.changes.find((chunk) => Math.floor(chunk.first / perChunk) === Math.floor(first / perChunk))?.hash;
  }
}

/**
 * The id of the snapshot snapshot `id` is stored against: the newest finished one before it of
 * the same server (any scope: a base only has to be similar bytes; complete or not), in format 2
 * or later. It differs from an incremental crawl's previous snapshot (the newest *complete* one of
 * the same server and *scope*, crawler/incremental.ts) only when scopes are interleaved, a
 * finished crawl was incomplete, or the newer one is format 1 (docs/snapshot-format.md,
 * "Format 3: deltas"). Pure.
 */
export function basesSnapshotId(summaries: readonly SnapshotSummary[], baseUrl: string, id: string): string | undefined {
  for (const summary of summaries) {
    const manifest = summary.manifest;
    if (manifest === undefined || compareSnapshotIdsNewestFirst(summary.id, id) <= 0) continue;
    if (manifest.format === 1 || manifest.server.base_url !== baseUrl) continue;
    return summary.id;
  }
  return undefined;
}

export interface BasesOptions {
  /**
   * A snapshot the caller has open already (the crawl's incremental previous snapshot): used
   * when it is the one `basesSnapshotId` picks, so it is not opened twice.
   */
  opened?: Snapshot | undefined;
}

/** The bases for snapshot `id`: the snapshot `basesSnapshotId` picks, opened unless `options.opened` is that one. */
export async function previousForBases(contentDir: string, baseUrl: string, id: string, options: BasesOptions = {}): Promise<Bases> {
  const chosen = basesSnapshotId(await listSnapshots(contentDir), baseUrl, id);
  if (chosen === undefined) return new Bases(undefined);
  if (options.opened?.manifest.id === chosen) return new Bases(options.opened);
  return new Bases(await openSnapshot(contentDir, chosen).catch(() => undefined));
}
