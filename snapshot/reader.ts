import { readdir } from 'node:fs/promises';
import type { z } from 'zod';
import { parseStoredBytes, sha256 } from './canonical.ts';
import { partialSuffix, snapshotsDir } from './content.ts';
import { readManifest } from './manifest.ts';
import { compareSnapshotIdsNewestFirst, isSnapshotId } from './ids.ts';
import { apiPath, type LinkBase } from './links.ts';
import { kindOfPath } from './normalize.ts';
import { parseUnitsJson } from './unit-json.ts';
import {
  chunkedList,
  indexPart,
  indexRoot,
  type ChangeChunk,
  type Manifest,
  type SnapshotIndex,
  snapshotIndex,
  unitList,
  storedChange,
  storedComponent,
  storedFile,
  storedLanguage,
  storedNotification,
  storedProject,
  storedStatistics,
  storedTranslation,
  storedUser,
  type StoredChange,
  type StoredComponent,
  type StoredLanguage,
  type StoredNotification,
  type StoredProject,
  type StoredStatistics,
  type StoredTranslation,
  type StoredUnit,
  type StoredUser,
} from './schemas.ts';
import { InlineRecords } from './inline.ts';
import { ReadSession } from './session.ts';
import { ObjectStore, type ReadOptions } from './store.ts';

/** A test of a stored part's bytes (`Snapshot.screenedUnits`, `screenedChangesIn`): its JSON, UTF-8, as stored. */
export type JsonScreen = (json: Buffer) => boolean;

/** Units of one stored part (a chunk, or format 1's whole list) with what a `JsonScreen` answered for its bytes. */
export interface ScreenedUnits {
  units: StoredUnit[];
  flagged: boolean;
}

/** A stored record with the relative API path it is indexed under (`api/projects/foo/`). */
export interface StoredEntry<T> {
  path: string;
  record: T;
}

export interface SnapshotSummary {
  id: string;
  /** False for a crawl still running or killed (`<id>.partial/`): it has no manifest. */
  finished: boolean;
  /** Finished and the crawl saw everything in its scope. */
  complete: boolean;
  /** The manifest of a finished snapshot. */
  manifest?: Manifest;
}

/** Every snapshot in `contentDir`, newest first, finished or not. */
export async function listSnapshots(contentDir: string): Promise<SnapshotSummary[]> {
  const names = await readdir(snapshotsDir(contentDir)).catch(() => [] as string[]);
  const summaries: SnapshotSummary[] = [];
  for (const name of names) {
    if (name.endsWith(partialSuffix)) {
      const id = name.slice(0, -partialSuffix.length);
      if (isSnapshotId(id)) summaries.push({ id, finished: false, complete: false });
    } else if (isSnapshotId(name)) {
      const manifest = await readManifest(contentDir, name).catch(() => undefined);
      summaries.push(
        manifest === undefined ? { id: name, finished: false, complete: false } : { id: name, finished: true, complete: manifest.complete, manifest },
      );
    }
  }
  return summaries.sort((a, b) => compareSnapshotIdsNewestFirst(a.id, b.id));
}

export interface OpenOptions {
  /** The caches this snapshot shares with the others its reader opens (a session of its own unless given). */
  session?: ReadSession;
}

/** Opens a finished snapshot; without `id`, the newest complete one. */
export async function openSnapshot(contentDir: string, id?: string, options: OpenOptions = {}): Promise<Snapshot> {
  let chosen = id;
  if (chosen === undefined) {
    chosen = (await listSnapshots(contentDir)).find((summary) => summary.complete)?.id;
    if (chosen === undefined) throw new Error(`no complete snapshot in ${snapshotsDir(contentDir)}: run \`tmsnap crawl\` first`);
  } else if (!isSnapshotId(chosen)) {
    throw new Error(`"${chosen}" is not a snapshot id (expected like 2026-11-22T041500Z); \`tmsnap snapshots\` lists them`);
  }
  const manifest = await readManifest(contentDir, chosen);
  const session = options.session ?? new ReadSession();
  const store = new ObjectStore(contentDir, { bases: session.bases });
  const inline = new InlineRecords(session.inline, async (hash) => indexPart.parse(await store.readJson(hash)));
  return new Snapshot(manifest, await readIndex(store, manifest, inline), store, inline);
}

/**
 * A snapshot's whole index in format 1's shape, whatever its format: format 2's root and parts
 * (docs/snapshot-format.md, "Index") merged, so callers see one `records` and one `raw` map.
 * Inline records are named by their hash and served through `inline` (one of its own unless given).
 */
export async function readIndex(store: ObjectStore, manifest: Manifest, inline?: InlineRecords): Promise<SnapshotIndex> {
  if (manifest.format === 1) return snapshotIndex.parse(await store.readJson(manifest.index));
  const root = indexRoot.parse(await store.readJson(manifest.index));
  const parts = await Promise.all(Object.values(root.parts).map(async (hash) => ({ hash, part: indexPart.parse(await store.readJson(hash)) })));
  const records = (inline ?? new InlineRecords(new ReadSession().inline, async (hash) => indexPart.parse(await store.readJson(hash)))).add(parts);
  const raw: [string, string][] = [];
  const chunked: string[] = [];
  for (const { part } of parts) {
    records.push(...Object.entries(part.records));
    raw.push(...Object.entries(part.raw));
    chunked.push(...(part.chunked ?? []));
  }
  const byPath = ([a]: [string, string], [b]: [string, string]) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    format: 2,
    records: Object.fromEntries(records.sort(byPath)),
    raw: Object.fromEntries(raw.sort(byPath)),
    ...(chunked.length > 0 ? { chunked: chunked.sort() } : {}),
    changes: root.changes,
  };
}

/** A unit as parsed, made a `StoredUnit`: small hashes come back as JS numbers; the schema's type (int64) is bigint. */
function asStoredUnit(unit: unknown): void {
  const fields = unit as Record<string, unknown>;
  if (typeof fields.id_hash === 'number') fields.id_hash = BigInt(fields.id_hash);
  if (typeof fields.content_hash === 'number') fields.content_hash = BigInt(fields.content_hash);
}

/**
 * Reads the chunks of one list, a few at a time: in parallel enough to keep the disk busy,
 * never so many that a list of thousands of chunks runs out of file handles.
 */
async function readAll<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await read(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, items.length) }, worker));
  return results;
}

/** One finished snapshot, read through its index. Records come normalized (see `docs/snapshot-format.md`). */
export class Snapshot {
  readonly linkBase: LinkBase;
  readonly #paths: ReadonlyMap<string, string>;
  readonly #chunked: ReadonlySet<string>;

  readonly manifest: Manifest;
  readonly index: SnapshotIndex;
  readonly store: ObjectStore;
  /** Records format 4 keeps inline in its index parts, served by hash like objects (inline.ts). */
  readonly inline: InlineRecords;

  constructor(manifest: Manifest, index: SnapshotIndex, store: ObjectStore, inline: InlineRecords) {
    this.manifest = manifest;
    this.index = index;
    this.store = store;
    this.inline = inline;
    this.linkBase = { baseUrl: manifest.server.base_url, formatApi: manifest.server.format_api_links };
    this.#chunked = new Set(index.chunked ?? []);
    this.#paths = new Map([...Object.entries(index.records), ...Object.entries(index.raw)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  get id(): string {
    return this.manifest.id;
  }

  /** The bytes of an object or of a record kept inline, by hash (`ObjectStore.readBytes`). */
  async readBytes(hash: string, kind: 'json' | 'raw', options: ReadOptions = {}): Promise<Buffer> {
    // An inline record's bytes are keyed by their own sha256, computed from a part read checked.
    const inline = kind === 'json' && this.inline.has(hash) ? await this.inline.read(hash) : undefined;
    return inline ?? this.store.readBytes(hash, kind, options);
  }

  /** The JSON of an object or of a record kept inline, by hash. */
  async readJson(hash: string, options: ReadOptions = {}): Promise<unknown> {
    return parseStoredBytes(await this.readBytes(hash, 'json', options));
  }

  /** Every indexed path → object hash, sorted by path. */
  paths(): ReadonlyMap<string, string> {
    return this.#paths;
  }

  /** A relative API path, from either a path or an absolute URL on the snapshot's server. */
  toPath(pathOrUrl: string): string {
    return /^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl) ? apiPath(pathOrUrl, this.linkBase.baseUrl) : pathOrUrl;
  }

  /** Whether the record at `path` is a long list stored as a `ChunkedList` (docs/snapshot-format.md, "Chunks"). */
  isChunked(path: string): boolean {
    return this.#chunked.has(this.toPath(path));
  }

  /** Whether the record at `path` was kept as it came because it did not fit its schema. */
  isRaw(path: string): boolean {
    return Object.hasOwn(this.index.raw, this.toPath(path));
  }

  /**
   * The stored JSON at a path (normalized, or as it came for a raw record); undefined when
   * absent. A unit list comes whole, in any format.
   */
  async record(pathOrUrl: string): Promise<unknown> {
    const path = this.toPath(pathOrUrl);
    const hash = this.#paths.get(path);
    if (hash === undefined) return undefined;
    if (this.manifest.format !== 1 && kindOfPath(path) === 'units' && this.index.records[path] === hash) return this.#unitList(path, hash);
    if (this.#chunked.has(path) && this.index.records[path] === hash) return this.#chunkedList(path, hash);
    return this.readJson(hash);
  }

  /** A long list kept in chunks (format 2), whole again: the list, or the page around it with its `results`. */
  async #chunkedList(path: string, hash: string): Promise<unknown> {
    const list = chunkedList.safeParse(await this.readJson(hash));
    if (!list.success) throw new Error(`snapshot ${this.id}, ${path}: expected a chunked list (count and chunks)`);
    const items = (await readAll(list.data.chunks, (chunk) => this.readJson(chunk.hash))).flatMap((chunk) => (Array.isArray(chunk) ? chunk : []));
    if (items.length !== list.data.count) throw new Error(`snapshot ${this.id}, ${path}: its chunks hold ${items.length} items, not ${list.data.count}`);
    return list.data.around === undefined ? items : { ...list.data.around, results: items };
  }

  /**
   * Units as stored (a chunk, or format 1's whole list), parsed without walking every value
   * (snapshot/unit-json.ts). A chunk kept whole is checked by its gzip CRC-32, not hashed
   * (store.ts `ReadCheck`): a pass over the units reads every chunk, and meets each delta chain
   * once, so the bases on the way are not kept (store.ts `BaseUse`).
   */
  async #readUnits(hash: string, screen?: JsonScreen): Promise<{ value: unknown; flagged: boolean }> {
    const bytes = await this.readBytes(hash, 'json', { check: 'crc', bases: 'pass' });
    return { value: parseUnitsJson(bytes), flagged: screen?.(bytes) ?? false };
  }

  /** A unit list as stored: format 1's one object, or format 2's chunks read (in parallel) and joined. */
  async #unitList(unitsPath: string, hash: string): Promise<unknown[]> {
    if (this.manifest.format === 1) return (await this.#wholeUnitList(unitsPath, hash)).units;
    const units: unknown[] = [];
    for (const chunk of await this.#unitChunks(unitsPath, hash)) for (const unit of chunk.units) units.push(unit);
    return units;
  }

  /** Format 1's one object of a unit list. */
  async #wholeUnitList(unitsPath: string, hash: string, screen?: JsonScreen): Promise<{ units: unknown[]; flagged: boolean }> {
    const { value, flagged } = await this.#readUnits(hash, screen);
    if (!Array.isArray(value)) throw new Error(`snapshot ${this.id}, ${unitsPath}: expected a list of units`);
    return { units: value, flagged };
  }

  /** Format 2's chunks of a unit list, each with its hash (and what `screen` said of its bytes), read in parallel. */
  async #unitChunks(unitsPath: string, hash: string, screen?: JsonScreen): Promise<{ hash: string; units: unknown[]; flagged: boolean }[]> {
    const list = unitList.safeParse(await this.readJson(hash));
    if (!list.success) throw new Error(`snapshot ${this.id}, ${unitsPath}: expected a unit list (count and chunks)`);
    const chunks = await readAll(list.data.chunks, (chunk) => this.#readUnits(chunk.hash, screen));
    return chunks.map(({ value, flagged }, at) => {
      const { count, hash: chunkHash } = list.data.chunks[at]!;
      if (!Array.isArray(value) || value.length !== count)
        throw new Error(`snapshot ${this.id}, ${unitsPath}: chunk ${chunkHash} does not hold the units its list says`);
      return { hash: chunkHash, units: value as unknown[], flagged };
    });
  }

  async #typed<T extends z.ZodType>(path: string, schema: T): Promise<z.infer<T>> {
    const parsed = schema.safeParse(await this.record(path));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`snapshot ${this.id}, ${path}: field ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}`);
    }
    return parsed.data;
  }

  async #all<T extends z.ZodType>(kind: string, schema: T): Promise<StoredEntry<z.infer<T>>[]> {
    const entries: StoredEntry<z.infer<T>>[] = [];
    for (const path of Object.keys(this.index.records)) if (kindOfPath(path) === kind) entries.push({ path, record: await this.#typed(path, schema) });
    return entries;
  }

  /** Paths of one kind's records kept raw (they failed their schema), sorted. */
  rawPaths(kind: string): string[] {
    return Object.keys(this.index.raw)
      .filter((path) => kindOfPath(path) === kind)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** A record kept raw, exactly as it came from the server; undefined when none is kept at that path. */
  async rawRecord(pathOrUrl: string): Promise<unknown> {
    const hash = this.index.raw[this.toPath(pathOrUrl)];
    return hash === undefined ? undefined : this.readJson(hash);
  }

  /**
   * Every raw record of one kind, as it came (absolute links, embedded objects), sorted by
   * path: readers that can make sense of part of a record (the site) read them leniently.
   */
  async rawRecords(kind: string): Promise<StoredEntry<unknown>[]> {
    const entries: StoredEntry<unknown>[] = [];
    for (const path of this.rawPaths(kind)) entries.push({ path, record: await this.rawRecord(path) });
    return entries;
  }

  /** Records of one kind, sorted by path. */
  languages(): Promise<StoredEntry<StoredLanguage>[]> {
    return this.#all('language', storedLanguage);
  }

  projects(): Promise<StoredEntry<StoredProject>[]> {
    return this.#all('project', storedProject);
  }

  components(): Promise<StoredEntry<StoredComponent>[]> {
    return this.#all('component', storedComponent);
  }

  translations(): Promise<StoredEntry<StoredTranslation>[]> {
    return this.#all('translation', storedTranslation);
  }

  users(): Promise<StoredEntry<StoredUser>[]> {
    return this.#all('user', storedUser);
  }

  /**
   * The units of one translation (its path, URL, or its `units/` path), by position; [] when
   * none were stored. The writer validated every unit it put in the list and the store checks
   * each object's hash, so they are not validated again: on a million units that would cost as
   * much as reading them.
   */
  async units(translationPathOrUrl: string): Promise<StoredUnit[]> {
    const path = this.toPath(translationPathOrUrl);
    const unitsPath = path.endsWith('/units/') ? path : `${path}units/`;
    const hash = this.index.records[unitsPath];
    if (hash === undefined) return [];
    const stored = await this.#unitList(unitsPath, hash);
    for (const unit of stored) asStoredUnit(unit);
    return stored as StoredUnit[];
  }

  /**
   * The units of one translation in the chunks they are stored in, each chunk with its object's
   * hash (`units` cut as the writer cut them); undefined for format 1's one object. A writer
   * merging a few changed units into the list keeps the chunks they do not touch as they are
   * (SnapshotWriter `putMergedUnits`).
   */
  async unitChunks(translationPathOrUrl: string): Promise<{ hash: string; units: StoredUnit[] }[] | undefined> {
    const path = this.toPath(translationPathOrUrl);
    const unitsPath = path.endsWith('/units/') ? path : `${path}units/`;
    const hash = this.index.records[unitsPath];
    if (hash === undefined) return [];
    if (this.manifest.format === 1) return undefined;
    const chunks = await this.#unitChunks(unitsPath, hash);
    for (const chunk of chunks) for (const unit of chunk.units) asStoredUnit(unit);
    return chunks.map(({ hash: chunkHash, units }) => ({ hash: chunkHash, units: units as StoredUnit[] }));
  }

  /**
   * The units of one translation as `units` gives them, in the parts they are stored in (format
   * 2's chunks, format 1's one list), each part with what `screen` answered for its stored
   * bytes (the JSON, UTF-8, before parsing). A reader of every unit that looks at only some
   * (the published view: site-model/published-snapshot.ts) asks the bytes first, which costs a
   * scan, not a walk of every parsed field.
   */
  async screenedUnits(translationPathOrUrl: string, screen: JsonScreen): Promise<ScreenedUnits[]> {
    const path = this.toPath(translationPathOrUrl);
    const unitsPath = path.endsWith('/units/') ? path : `${path}units/`;
    const hash = this.index.records[unitsPath];
    if (hash === undefined) return [];
    const parts = this.manifest.format === 1 ? [await this.#wholeUnitList(unitsPath, hash, screen)] : await this.#unitChunks(unitsPath, hash, screen);
    for (const part of parts) for (const unit of part.units) asStoredUnit(unit);
    return parts.map(({ units, flagged }) => ({ units: units as StoredUnit[], flagged }));
  }

  /**
   * The stored part holding the unit at `position` of a translation (format 2's chunk, format
   * 1's whole list) with the position of its first unit; undefined when there is none. A reader
   * of one unit reads one chunk, not the translation's every unit (the changes pages).
   */
  async unitsAt(translationPathOrUrl: string, position: number): Promise<{ first: number; units: StoredUnit[] } | undefined> {
    const part = await this.screenedUnitsAt(translationPathOrUrl, position, () => false);
    return part && { first: part.first, units: part.units };
  }

  /** `unitsAt` with what `screen` answered for the part's stored bytes (as `screenedUnits`). */
  async screenedUnitsAt(translationPathOrUrl: string, position: number, screen: JsonScreen): Promise<(ScreenedUnits & { first: number }) | undefined> {
    const path = this.toPath(translationPathOrUrl);
    const unitsPath = path.endsWith('/units/') ? path : `${path}units/`;
    const hash = this.index.records[unitsPath];
    if (hash === undefined) return undefined;
    let part: { units: unknown[]; flagged: boolean } | undefined;
    let first = 0;
    if (this.manifest.format === 1) part = await this.#wholeUnitList(unitsPath, hash, screen);
    else {
      const list = unitList.safeParse(await this.readJson(hash));
      if (!list.success) throw new Error(`snapshot ${this.id}, ${unitsPath}: expected a unit list (count and chunks)`);
      const chunk = list.data.chunks.find((candidate) => position < (first += candidate.count));
      if (chunk === undefined) return undefined;
      first -= chunk.count;
      const { value, flagged } = await this.#readUnits(chunk.hash, screen);
      if (!Array.isArray(value) || value.length !== chunk.count)
        throw new Error(`snapshot ${this.id}, ${unitsPath}: chunk ${chunk.hash} does not hold the units its list says`);
      part = { units: value, flagged };
    }
    if (position >= first + part.units.length) return undefined;
    for (const unit of part.units) asStoredUnit(unit);
    return { first, units: part.units as StoredUnit[], flagged: part.flagged };
  }

  /** Every change, ascending id, read one chunk at a time. */
  async *changes(): AsyncIterable<StoredChange> {
    for (const chunk of this.index.changes) yield* await this.changesIn(chunk);
  }

  /** The changes of one chunk of the index, ascending id. */
  async changesIn(chunk: ChangeChunk): Promise<StoredChange[]> {
    return (await this.#changesIn(chunk)).changes;
  }

  /** The changes of one chunk, as `changesIn` gives them, with what `screen` answered for the chunk's stored bytes (as `screenedUnits`). */
  screenedChangesIn(chunk: ChangeChunk, screen: JsonScreen): Promise<{ changes: StoredChange[]; flagged: boolean }> {
    return this.#changesIn(chunk, screen);
  }

  async #changesIn(chunk: ChangeChunk, screen?: JsonScreen): Promise<{ changes: StoredChange[]; flagged: boolean }> {
    // Every chunk is read: checked by its CRC-32 like unit chunks (store.ts `ReadCheck`).
    const bytes = await this.readBytes(chunk.hash, 'json', { check: 'crc' });
    const stored = parseStoredBytes(bytes);
    if (!Array.isArray(stored)) throw new Error(`snapshot ${this.id}: change chunk ${chunk.hash} is not a list`);
    return { changes: stored.map((change) => storedChange.parse(change)), flagged: screen?.(bytes) ?? false };
  }

  /** The statistics of an object (its path or its `statistics/` path); undefined when not stored or of another shape. */
  async statistics(pathOrUrl: string): Promise<StoredStatistics | undefined> {
    const path = this.toPath(pathOrUrl);
    const parsed = storedStatistics.safeParse(await this.record(path.endsWith('/statistics/') ? path : `${path}statistics/`));
    return parsed.success ? parsed.data : undefined;
  }

  /** A user's notification subscriptions (the user's path or URL, or its `notifications/` path); [] when not stored. */
  async notifications(userPathOrUrl: string): Promise<StoredNotification[]> {
    const path = this.toPath(userPathOrUrl);
    const listPath = path.endsWith('/notifications/') ? path : `${path}notifications/`;
    if (this.index.records[listPath] === undefined) return [];
    const stored = await this.record(listPath);
    const items = Array.isArray(stored) ? stored : ((stored as { results?: unknown[] }).results ?? []);
    return items.map((item, index) => {
      const parsed = storedNotification.safeParse(item);
      if (!parsed.success) throw new Error(`snapshot ${this.id}, ${listPath}[${index}]: ${parsed.error.issues[0]?.message ?? 'invalid notification'}`);
      return parsed.data;
    });
  }

  /** The raw file archived from a translation's `file/`. */
  async file(translationPathOrUrl: string): Promise<{ contentType: string; bytes: Buffer } | undefined> {
    const path = this.toPath(translationPathOrUrl);
    const filePath = path.endsWith('/file/') ? path : `${path}file/`;
    if (this.index.records[filePath] === undefined) return undefined;
    const entry = await this.#typed(filePath, storedFile);
    if (entry.chunks === undefined) return { contentType: entry.content_type, bytes: await this.store.readBytes(entry.sha256, 'raw') };
    const bytes = Buffer.concat(await readAll(entry.chunks, (hash) => this.store.readBytes(hash, 'raw', { check: 'crc', bases: 'pass' })));
    // Each chunk is checked by its CRC-32 (or, a delta, its hash); the whole against the file's sha256.
    if (bytes.length !== entry.size || sha256(bytes) !== entry.sha256)
      throw new Error(`snapshot ${this.id}, ${filePath}: its chunks do not make up the file (sha256 ${entry.sha256}); run \`tmsnap verify\``);
    return { contentType: entry.content_type, bytes };
  }
}

export type { StoredChange, StoredComponent, StoredLanguage, StoredNotification, StoredProject, StoredStatistics, StoredTranslation, StoredUnit, StoredUser };
