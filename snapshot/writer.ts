import { appendFile, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import * as api from '../api/index.ts';
import { canonicalJson, parseStoredJson, sha256 } from './canonical.ts';
import { alignChunks, type Bases, chunkBase, previousForBases, rewrittenBase } from './bases.ts';
import { chunkFile, chunkList, chunkUnits, indexPartOf, longList } from './chunks.ts';
import { journalFile, manifestFile, partialSuffix, snapshotsDir, stateFile } from './content.ts';
import { addDrift, countDrift, type DriftCounts, driftEntries, driftKeysOf } from './drift.ts';
import { compareSnapshotIdsNewestFirst, isSnapshotId, snapshotIdAt } from './ids.ts';
import { keptInline } from './inline.ts';
import { partialSnapshots, type PartialState, resumable, snapshotFormat } from './partials.ts';
import { recoverJournal } from './journal-lines.ts';
import type { Snapshot } from './reader.ts';
import { apiPath, detectFormatApi, type LinkBase, normalizeBaseUrl } from './links.ts';
import {
  embeddedRecords,
  embeddedReferences,
  embedsRecords,
  kindOfPath,
  linkStrings,
  NormalizeError,
  normalizeRecord,
  type OwnRecord,
  type RecordKind,
} from './normalize.ts';
import {
  type AccessProblem,
  type ChangeChunk,
  changeChunk,
  type ChunkedList,
  type IndexPart,
  type IndexRoot,
  manifest as manifestSchema,
  type Manifest,
  type Parts,
  problem,
  type Problem,
  scope as scopeSchema,
  type Scope,
  type SkippedResources,
  type StoredFile,
  storedUser,
  type UnitList,
  unitList,
} from './schemas.ts';
import { maxRewrittenDepth, ObjectStore, type PutResult, storeWrite, type WriteFault, writeAtomic } from './store.ts';

/**
 * Changes are stored in chunks of this many consecutive ids, so that old chunks stay
 * byte-identical; only the newest, still filling, is rewritten by the next snapshot. Format 1
 * used 1000; 250 makes that daily rewrite a quarter as big.
 */
export const changesPerChunk = 250;

/**
 * A parent a nested list leaves out, named by the URL of its own record instead (the crawler
 * takes it from the list's URL, docs/crawl.md): checked to be stored already, then stored as
 * the same link an embedded copy gives.
 */
const parentUrl = z.string();

/**
 * A list of `item`s, a plain array or a page of them, whose invalid item is named by its field
 * (`results.0.message`): a union of the two shapes would name nothing.
 */
function listOf(item: z.ZodType): z.ZodType {
  const array = z.array(item);
  const paged = api.page(item);
  return z.unknown().superRefine((value, context) => {
    const parsed = (Array.isArray(value) ? array : paged).safeParse(value);
    if (!parsed.success) for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
}

/** The API schema a record of each kind must fit to be normalized; others are kept as they came. */
const recordSchemas: Partial<Record<RecordKind, z.ZodType>> = {
  root: api.apiRoot,
  language: api.language,
  project: api.project,
  component: api.component.extend({ project: z.union([api.project, parentUrl]) }),
  translation: api.translationInList.extend({ component: z.union([api.component, parentUrl]).optional() }),
  unit: api.unit,
  change: api.change,
  // Anonymous clients of real servers get users without `url`: the record's path says who it is.
  user: storedUser,
  notifications: z.union([z.array(api.notification), api.page(api.notification)]),
  // Weblate 2026's lists: an item short of a needed field keeps the list raw, a problem (docs/weblate-api.md, Drift).
  announcements: listOf(api.announcement),
  suggestions: listOf(api.suggestion),
};

/**
 * The fields each kind of record is measured against to report drift (api/fields.ts): every
 * kind `recordSchemas` validates but notifications, whose embedded objects out of scope are not
 * records of their own. The order is the summary's.
 */
const driftResources: Partial<Record<RecordKind, api.AnyResource>> = {
  root: api.apiRootFields,
  project: api.projectFields,
  component: api.componentFields,
  translation: api.translationFields,
  language: api.languageFields,
  unit: api.unitFields,
  change: api.changeFields,
  user: api.userFields,
};

/** Kinds that are lists of records of one resource, whose every item is measured for drift. */
const listDriftResources: Partial<Record<RecordKind, api.AnyResource>> = {
  announcements: api.announcementFields,
  suggestions: api.suggestionFields,
};
const driftOrder = [...Object.values(driftResources), ...Object.values(listDriftResources)].map((resource) => resource.name);

/** The items of a list record: a plain array, or a page's `results`. */
function listItems(record: unknown): unknown[] {
  if (Array.isArray(record)) return record;
  const results = typeof record === 'object' && record !== null ? (record as { results?: unknown }).results : undefined;
  return Array.isArray(results) ? results : [];
}

/** The drift of one record of `kind` (none for kinds not measured). */
function recordDrift(kind: RecordKind, record: unknown): DriftCounts | undefined {
  const resource = driftResources[kind];
  const listResource = listDriftResources[kind];
  let counts: DriftCounts;
  if (resource !== undefined) counts = countDrift(resource, [record]);
  else if (listResource !== undefined) counts = countDrift(listResource, listItems(record));
  else return undefined;
  return Object.keys(counts).length === 0 ? undefined : counts;
}

const driftCounts = z.record(z.string(), z.number().int().nonnegative());

/** One line of `journal.ndjson`: an indexed path, or a problem the writer found. */
const journalEntry = z.object({
  hash: z.string(),
  raw: z.boolean(),
  units: z.number().int().optional(),
  chunked: z.boolean().optional(),
  /** A small record's canonical JSON, kept for its index part instead of stored as an object (snapshot/inline.ts). */
  inline: z.string().optional(),
  /** The record's drift (api/fields.ts): a record stored again replaces its count, so each path counts once. */
  drift: driftCounts.optional(),
});
type JournalEntry = z.infer<typeof journalEntry>;
/** `drift`: of a batch of changes, which have no path of their own. */
const journalLine = z.union([
  journalEntry.extend({ path: z.string() }),
  z.object({ problem }),
  z.object({ carried: changeChunk }),
  z.object({ drift: driftCounts }),
]);

export interface WriterOptions {
  /** The server's base URL or its API root (`…/api/`). */
  baseUrl: string;
  scope: Scope;
  tmsnapVersion: string;
  /** Continue the newest unfinished snapshot of the same base URL and scope, if there is one. */
  resume: boolean;
  /** The clock (tests pin it); the snapshot id is the start time. */
  now?: () => Date;
  /** Which embedded objects become records of their own (all unless told): the crawl's scope (normalize.ts). */
  ownRecord?: OwnRecord;
  /**
   * Tests only: refuses object writes as a full or read-only disk would (store.ts `WriteFault`).
   * A crawl passes its `CrawlOptions.writeFault`; only the CLI reads it from the environment.
   */
  writeFault?: WriteFault | undefined;
  /**
   * A previous snapshot the caller opened already (a crawl's incremental one): the writer stores
   * its deltas against it when it is the snapshot its own rule picks (bases.ts `basesSnapshotId`),
   * and opens that one otherwise.
   */
  previous?: Snapshot | undefined;
}

export interface FinishOptions {
  requests: Manifest['requests'];
  problems: Problem[];
  /** Kinds of resource the credentials may not read (recorded only when there are some). */
  access?: AccessProblem[] | undefined;
  /** Resources left out on purpose (recorded only when there are some). */
  skipped?: SkippedResources[] | undefined;
  complete: boolean;
  serverVersion?: string;
  /** Whether the crawl sent an API key. */
  keyed?: boolean | undefined;
  /** Of a keyed crawl: the projects an anonymous client is listed (paths). */
  publicProjects?: string[] | undefined;
  /** What of the history it holds, when not all (the manifest's `parts`). */
  parts?: Parts | undefined;
}

export interface FinishedSnapshot {
  id: string;
  dir: string;
  manifest: Manifest;
}

async function findResumable(contentDir: string, baseUrl: string, scope: Scope): Promise<PartialState | undefined> {
  const partials = await partialSnapshots(contentDir);
  const live = resumable(partials);
  return partials.find(({ id, state }) => live.has(id) && state?.base_url === baseUrl && canonicalJson(state.scope) === canonicalJson(scope))?.state;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}

/** Claims a new snapshot id by creating its `.partial` directory (exclusively: two crawls never share one). */
async function claimFreshId(contentDir: string, date: Date): Promise<string> {
  const base = snapshotIdAt(date);
  for (let n = 1; ; n += 1) {
    const id = n === 1 ? base : `${base}-${n}`;
    const dir = join(snapshotsDir(contentDir), id);
    if (await exists(dir)) continue;
    try {
      await mkdir(dir + partialSuffix);
      return id;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * Writes one snapshot: every record goes to the object store as soon as it arrives and is
 * journalled in `snapshots/<id>.partial/`, so a killed crawl loses nothing it stored; the
 * manifest is written last and the directory renamed, so nothing unfinished looks finished.
 */
export class SnapshotWriter {
  readonly #store: ObjectStore;
  readonly #entries = new Map<string, JournalEntry>();
  readonly #problems: Problem[] = [];
  /** Chunks of the previous snapshot's changes taken by reference (`carryChanges`), by chunk number. */
  readonly #carriedChanges = new Map<number, ChangeChunk>();
  /** The drift of the changes stored (records' drift is in their journal entries). */
  readonly #changesDrift: DriftCounts = {};
  #state: PartialState;
  #changeQueue: Promise<void> = Promise.resolve();
  #finished = false;
  #bases: Promise<Bases> | undefined;
  /** Bytes this writer added to the object store (0 for objects that were already there). */
  addedBytes = 0;

  readonly contentDir: string;
  readonly dir: string;
  private readonly now: () => Date;
  private readonly ownRecord: OwnRecord | undefined;
  private readonly opened: Snapshot | undefined;

  private constructor(
    contentDir: string,
    dir: string,
    state: PartialState,
    now: () => Date,
    ownRecord: OwnRecord | undefined,
    writeFault: WriteFault | undefined,
    opened: Snapshot | undefined,
  ) {
    this.contentDir = contentDir;
    this.dir = dir;
    this.now = now;
    this.ownRecord = ownRecord;
    this.opened = opened;
    this.#store = new ObjectStore(contentDir, { compress: true, writeFault });
    this.#state = state;
  }

  static open(contentDir: string, options: WriterOptions): Promise<SnapshotWriter> {
    return storeWrite(contentDir, () => SnapshotWriter.#open(contentDir, options));
  }

  static async #open(contentDir: string, options: WriterOptions): Promise<SnapshotWriter> {
    const baseUrl = normalizeBaseUrl(options.baseUrl);
    const now = options.now ?? (() => new Date());
    await mkdir(snapshotsDir(contentDir), { recursive: true });
    const resumed = options.resume ? await findResumable(contentDir, baseUrl, options.scope) : undefined;
    const state: PartialState = resumed ?? {
      format: snapshotFormat,
      id: await claimFreshId(contentDir, now()),
      base_url: baseUrl,
      scope: options.scope,
      tmsnap_version: options.tmsnapVersion,
      started: now().toISOString(),
    };
    const dir = join(snapshotsDir(contentDir), state.id + partialSuffix);
    const writer = new SnapshotWriter(contentDir, dir, state, now, options.ownRecord, options.writeFault, options.previous);
    if (resumed === undefined) {
      await mkdir(join(dir, 'changes'), { recursive: true });
      await writer.#saveState();
    } else {
      await writer.#loadJournal();
    }
    return writer;
  }

  get id(): string {
    return this.#state.id;
  }

  get baseUrl(): string {
    return this.#state.base_url;
  }

  /** What is stored so far: relative API path → object hash. */
  get journal(): ReadonlyMap<string, string> {
    return new Map([...this.#entries].map(([path, entry]) => [path, entry.hash]));
  }

  /** Whether a record (or unit list, or file) for this URL is already stored. */
  has(absoluteApiUrl: string): boolean {
    return this.#entries.has(apiPath(absoluteApiUrl, this.baseUrl));
  }

  /** The object hash stored so far at a relative API path (`journal` without copying it). */
  stored(path: string): string | undefined {
    return this.#entries.get(path)?.hash;
  }

  /**
   * Indexes `path` as `previous` holds it, by reference to its objects, where storing the
   * record again would give the same objects: same archive, server, link style and format, and
   * a record kept normalized whose kind embeds none the writer stores on its own (a unit list, a
   * file, statistics…). Answers whether it did; otherwise the caller stores the record. Carrying
   * 10M units through `putUnits` took 44 min a night (docs/decisions/2026-11-27-one-night.md).
   */
  async carry(previous: Snapshot, path: string): Promise<boolean> {
    this.#assertOpen();
    const hash = previous.index.records[path];
    const kind = kindOfPath(path);
    if (hash === undefined || embedsRecords(kind) || !this.#sharesObjects(previous)) return false;
    const entry: JournalEntry = { hash, raw: false };
    const inline = await previous.inline.read(hash);
    if (inline !== undefined) entry.inline = inline.toString('utf8');
    if (previous.isChunked(path)) entry.chunked = true;
    if (kind === 'units') entry.units = unitList.parse(await previous.readJson(hash)).count;
    await this.#index(path, entry);
    return true;
  }

  /**
   * Takes chunks of `previous`'s changes by reference, as `carry` takes a record, in one journal
   * append (one a chunk was 40,000 appends a 10M night: docs/decisions/2026-11-29-night-after-edits.md);
   * all of them, or none when one cannot be (`canCarryChanges`). Changes put into the same chunk
   * are merged with it at `finish`, the carried ones winning, as when they are put last (the
   * crawl carries changes in its last phase).
   */
  async carryChanges(previous: Snapshot, chunks: readonly ChangeChunk[]): Promise<boolean> {
    this.#assertOpen();
    if (!chunks.every((chunk) => this.canCarryChanges(previous, chunk))) return false;
    for (const chunk of chunks) this.#carriedChanges.set(Math.floor(chunk.first / changesPerChunk), chunk);
    if (chunks.length > 0) await this.#journalLines(chunks.map((chunk) => ({ carried: chunk })));
    return true;
  }

  /** Whether `carryChanges` can take a chunk: `previous`'s objects are this writer's, and the chunk's ids are those of one of its chunks. */
  canCarryChanges(previous: Snapshot, chunk: ChangeChunk): boolean {
    return Math.floor(chunk.last / changesPerChunk) === Math.floor(chunk.first / changesPerChunk) && this.#sharesObjects(previous);
  }

  /** Whether `previous`'s objects are this writer's as they stand: same archive, server, link style and format. */
  #sharesObjects(previous: Snapshot): boolean {
    return (
      previous.manifest.format === snapshotFormat &&
      resolve(previous.store.contentDir) === resolve(this.contentDir) &&
      previous.linkBase.baseUrl === this.baseUrl &&
      previous.linkBase.formatApi === this.#state.format_api_links
    );
  }

  get #linkBase(): LinkBase {
    return { baseUrl: this.baseUrl, formatApi: this.#state.format_api_links ?? false };
  }

  async #saveState(): Promise<void> {
    await storeWrite(this.dir, () => writeAtomic(join(this.dir, stateFile), `${JSON.stringify(this.#state, null, 2)}\n`));
  }

  async #loadJournal(): Promise<void> {
    // A crash can leave half a line at the end: recoverJournal drops it so the next append starts clean.
    for (const line of await recoverJournal(join(this.dir, journalFile))) {
      // A line torn by a full disk and then continued by a later append parses as neither: that
      // put is lost (its objects are not referenced) and the crawler asks for it again.
      const parsed = journalLine.safeParse(parseLine(line));
      if (!parsed.success) continue;
      const entry = parsed.data;
      if ('problem' in entry) this.#problems.push(entry.problem);
      else if ('carried' in entry) this.#carriedChanges.set(Math.floor(entry.carried.first / changesPerChunk), entry.carried);
      else if ('drift' in entry && !('path' in entry)) addDrift(this.#changesDrift, entry.drift);
      else {
        const { path, ...stored } = entry;
        this.#entries.set(path, stored);
      }
    }
  }

  async #journal(line: z.infer<typeof journalLine>): Promise<void> {
    await this.#journalLines([line]);
  }

  async #journalLines(lines: readonly z.infer<typeof journalLine>[]): Promise<void> {
    await storeWrite(this.dir, () => appendFile(join(this.dir, journalFile), lines.map((line) => `${JSON.stringify(line)}\n`).join('')));
  }

  async #index(path: string, entry: JournalEntry): Promise<void> {
    this.#entries.set(path, entry);
    await this.#journal({ path, ...entry });
  }

  async #problem(problem: Problem): Promise<void> {
    this.#problems.push(problem);
    await this.#journal({ problem });
  }

  async #put(value: unknown, base?: string): Promise<string> {
    const { hash, added } = await this.#store.putJson(value, { base });
    this.addedBytes += added;
    return hash;
  }

  async #putRewritten(value: unknown, base: string | undefined): Promise<string> {
    const { hash, added } = await this.#store.putRewritten(value, base);
    this.addedBytes += added;
    return hash;
  }

  /** A normalized record's journal entry: kept inline when small, else stored (as a delta against `base` when worth it). */
  async #putRecordValue(value: unknown, base?: string): Promise<JournalEntry> {
    const stored = await putValue(this.#store, value, { base });
    this.addedBytes += stored.added;
    return stored.inline === undefined ? { hash: stored.hash, raw: false } : { hash: stored.hash, raw: false, inline: stored.inline };
  }

  /** The previous snapshot's objects, the bases of this one's deltas (docs/snapshot-format.md, "Format 3: deltas"). */
  #previous(): Promise<Bases> {
    return (this.#bases ??= previousForBases(this.contentDir, this.baseUrl, this.id, { opened: this.opened }));
  }

  #assertOpen(): void {
    if (this.#finished) throw new Error(`snapshot ${this.id} is already finished`);
  }

  /** Fixes the server's `format=api` habit from the first record that shows it. */
  async #learnLinkStyle(kind: RecordKind, record: unknown): Promise<void> {
    if (this.#state.format_api_links !== undefined) return;
    const formatApi = detectFormatApi(linkStrings(kind, record), this.baseUrl);
    if (formatApi === undefined) return;
    this.#state = { ...this.#state, format_api_links: formatApi };
    await this.#saveState();
  }

  async #storeRaw(url: string, path: string, record: unknown, field: string, reason: string): Promise<void> {
    await this.#index(path, { hash: await this.#put(record, (await this.#previous()).record(path)), raw: true });
    await this.#problem({ url, field, reason });
  }

  /**
   * Why `putRecord` would keep this record raw (the field and the reason), or `undefined` when
   * it would be normalized. The crawler asks before storing a list item, to fetch the item's
   * own record first (docs/crawl.md).
   */
  check(absoluteApiUrl: string, record: unknown): { field: string; reason: string } | undefined {
    const path = apiPath(absoluteApiUrl, this.baseUrl);
    const kind = kindOfPath(path);
    const checked = recordSchemas[kind]?.safeParse(record);
    if (checked !== undefined && !checked.success) {
      const issue = checked.error.issues[0];
      return { field: issue?.path.join('.') ?? '', reason: `not a valid ${kind}: ${issue?.message ?? 'schema mismatch'}` };
    }
    for (const reference of embeddedReferences(kind, record)) {
      const stored = reference.url.startsWith(this.baseUrl) ? this.#entries.get(apiPath(reference.url, this.baseUrl)) : undefined;
      if (stored === undefined || stored.raw || kindOfPath(apiPath(reference.url, this.baseUrl)) !== reference.kind) {
        return { field: reference.field, reason: `names its ${reference.field} ${reference.url}, which the snapshot does not hold as a ${reference.kind}` };
      }
    }
    return undefined;
  }

  /** Stores one API record (a detail record, a plain list such as `languages/`, a sub-resource…) by its URL. */
  async putRecord(absoluteApiUrl: string, record: unknown): Promise<void> {
    this.#assertOpen();
    const path = apiPath(absoluteApiUrl, this.baseUrl);
    const kind = kindOfPath(path);
    if (kind === 'units' || kind === 'file') throw new Error(`${absoluteApiUrl}: store ${kind} with put${kind === 'units' ? 'Units' : 'File'}`);
    const invalid = this.check(absoluteApiUrl, record);
    if (invalid !== undefined) {
      await this.#storeRaw(absoluteApiUrl, path, record, invalid.field, invalid.reason);
      return;
    }
    await this.#learnLinkStyle(kind, record);
    // A parent named by URL is stored as the link an embedded copy of it would give, so a
    // record from a nested list and the same record from a top-level list are the same bytes.
    const references = embeddedReferences(kind, record);
    const embedding =
      references.length === 0
        ? record
        : Object.fromEntries(Object.entries(record as object).filter(([key]) => !references.some((reference) => reference.field === key)));
    let normalized: unknown;
    try {
      normalized = normalizeRecord(kind, embedding, this.#linkBase, this.ownRecord);
      for (const reference of references) (normalized as Record<string, unknown>)[reference.field] = apiPath(reference.url, this.baseUrl);
    } catch (error) {
      if (!(error instanceof NormalizeError)) throw error;
      await this.#storeRaw(absoluteApiUrl, path, record, error.field, error.message);
      return;
    }
    // An embedded object is the record its url names: store it once, unless its own record came first.
    for (const embedded of embeddedRecords(kind, record, this.ownRecord)) {
      const embeddedPath = apiPath(embedded.url, this.baseUrl);
      if (this.#entries.has(embeddedPath)) continue;
      const entry = await this.#putRecordValue(
        normalizeRecord(embedded.kind, embedded.record, this.#linkBase, this.ownRecord),
        (await this.#previous()).record(embeddedPath),
      );
      const embeddedDrift = recordDrift(embedded.kind, embedded.record);
      if (embeddedDrift !== undefined) entry.drift = embeddedDrift;
      // Checked again after the write: the object's own record may have been stored meanwhile.
      if (!this.#entries.has(embeddedPath)) await this.#index(embeddedPath, entry);
    }
    const previous = await this.#previous();
    const stored = await putRecordValue(this.#store, normalized, { record: previous.record(path), chunks: () => previous.chunks(path) });
    this.addedBytes += stored.added;
    const entry: JournalEntry = { hash: stored.hash, raw: false };
    if (stored.chunked) entry.chunked = true;
    if (stored.inline !== undefined) entry.inline = stored.inline;
    const drift = recordDrift(kind, record);
    if (drift !== undefined) entry.drift = drift;
    await this.#index(path, entry);
  }

  /**
   * Keeps a list item that failed its schema out of the typed lists (readers trust those):
   * stored raw at its own URL when it has one on the server, reported either way.
   */
  async #keepInvalid(what: string, item: unknown, error: z.ZodError, listUrl: string, index: number): Promise<void> {
    const issue = error.issues[0];
    const field = issue?.path.join('.') ?? '';
    const reason = `not a valid ${what}: ${issue?.message ?? 'schema mismatch'}`;
    const url = (item as { url?: unknown } | null)?.url;
    if (typeof url === 'string' && url.startsWith(this.baseUrl)) await this.#storeRaw(url, apiPath(url, this.baseUrl), item, field, reason);
    else await this.#problem({ url: listUrl, field: `[${index}].${field}`, reason: `${reason}; not stored (it has no URL on the server)` });
  }

  /** Stores all units of one translation (any order) as one list sorted by position. */
  async putUnits(translationUrl: string, units: readonly unknown[]): Promise<void> {
    this.#assertOpen();
    const translationPath = apiPath(translationUrl, this.baseUrl);
    if (kindOfPath(translationPath) !== 'translation') throw new Error(`${translationUrl} is not a translation URL`);
    const path = `${translationPath}units/`;
    const normalized: unknown[] = [];
    const drift: DriftCounts = {};
    await this.#normalizeUnits(translationUrl, units, normalized, drift);
    await this.#storeUnits(path, normalized, drift);
  }

  /** Validates and normalizes API units into `normalized`, counting their drift; an invalid one is kept raw or reported. */
  async #normalizeUnits(translationUrl: string, units: readonly unknown[], normalized: unknown[], drift: DriftCounts): Promise<void> {
    for (const [index, unit] of units.entries()) {
      const checked = api.unit.safeParse(unit);
      if (!checked.success) {
        await this.#keepInvalid('unit', unit, checked.error, translationUrl + 'units/', index);
        continue;
      }
      await this.#learnLinkStyle('unit', unit);
      countDrift(api.unitFields, [unit], drift);
      normalized.push(normalizeRecord('unit', unit, this.#linkBase));
    }
  }

  /**
   * Stores a translation's units merged at the stored level (a night after edits,
   * docs/crawl.md "Incremental crawls"): `kept`, units as `previous` stores them (validated and
   * normalized when they were put; items of `chunks`, the same objects), and `fresh`, API
   * records validated and normalized here: the objects `putUnits` would store for `kept`
   * expanded plus `fresh`. A chunk holding the same kept units as one of `chunks` is that
   * object again, neither serialized nor hashed. Answers false, storing nothing, where
   * `previous`'s objects are not this writer's (`carry`'s rule): then the caller expands and
   * puts. At 10M, expanding, validating and normalizing every unit of every touched translation
   * again was most of a night's 47 min before its first history request
   * (docs/decisions/2026-11-29-night-after-edits.md).
   */
  async putMergedUnits(
    previous: Snapshot,
    translationUrl: string,
    chunks: readonly { hash: string; units: readonly unknown[] }[],
    kept: readonly unknown[],
    fresh: readonly unknown[],
  ): Promise<boolean> {
    this.#assertOpen();
    if (!this.#sharesObjects(previous)) return false;
    const translationPath = apiPath(translationUrl, this.baseUrl);
    if (kindOfPath(translationPath) !== 'translation') throw new Error(`${translationUrl} is not a translation URL`);
    const path = `${translationPath}units/`;
    // Their drift counts as when they were put, so the manifest's drift is a full crawl's (api/fields.ts: names and types, which normalizing keeps).
    const drift = countDrift(api.unitFields, kept);
    const normalized: unknown[] = [...kept];
    await this.#normalizeUnits(translationUrl, fresh, normalized, drift);
    await this.#storeUnits(path, normalized, drift, chunks);
    return true;
  }

  /**
   * Stores normalized units as one list sorted by position, in chunks; a chunk whose units are
   * those of one of `held` (the same objects, in order) is that stored object again.
   */
  async #storeUnits(path: string, normalized: unknown[], drift: DriftCounts, held: readonly { hash: string; units: readonly unknown[] }[] = []): Promise<void> {
    normalized.sort(compareUnits);
    const heldByFirst = new Map<unknown, { hash: string; units: readonly unknown[] }>();
    for (const chunk of held) if (chunk.units.length > 0) heldByFirst.set(chunk.units[0], chunk);
    const sameAs = (chunk: readonly unknown[]) => {
      const before = heldByFirst.get(chunk[0]);
      return before !== undefined && before.units.length === chunk.length && chunk.every((unit, at) => before.units[at] === unit) ? before.hash : undefined;
    };
    // Chunks first, then the list naming them: an object that exists is whole, and so is what it names.
    const previous = await this.#previous();
    const cut = chunkUnits(normalized as { id?: unknown }[]);
    const stored = await putChunks(
      this.#store,
      cut.map((chunk) => {
        const hash = sameAs(chunk);
        return hash === undefined ? canonicalJson(chunk) : { held: hash };
      }),
      'json',
      () => previous.chunks(path),
    );
    this.addedBytes += stored.added;
    const chunks: UnitList['chunks'] = cut.map((chunk, at) => ({ count: chunk.length, hash: stored.hashes[at]! }));
    const list: UnitList = { count: normalized.length, chunks };
    const entry: JournalEntry = { ...(await this.#putRecordValue(list, previous.record(path))), units: normalized.length };
    if (Object.keys(drift).length > 0) entry.drift = drift;
    await this.#index(path, entry);
  }

  /** Stores changes from any page in any order; they are de-duplicated by id. */
  putChanges(changes: readonly unknown[]): Promise<void> {
    this.#assertOpen();
    // Batches touching the same chunk must not interleave their read-modify-write.
    const run = this.#changeQueue.then(() => this.#putChanges(changes));
    this.#changeQueue = run.catch(() => undefined);
    return run;
  }

  async #putChanges(changes: readonly unknown[]): Promise<void> {
    const byChunk = new Map<number, Map<number, unknown>>();
    /** Each drifting change's drift, counted once it is known to be new to its chunk (pages shift: a change can come twice). */
    const drifting = new Map<number, string[]>();
    for (const [index, change] of changes.entries()) {
      const checked = api.change.safeParse(change);
      if (!checked.success) {
        await this.#keepInvalid('change', change, checked.error, `${this.baseUrl}api/changes/`, index);
        continue;
      }
      await this.#learnLinkStyle('change', change);
      const chunk = Math.floor(checked.data.id / changesPerChunk);
      let bucket = byChunk.get(chunk);
      if (bucket === undefined) byChunk.set(chunk, (bucket = new Map()));
      bucket.set(checked.data.id, normalizeRecord('change', change, this.#linkBase));
      const keys = driftKeysOf(api.changeFields, change);
      if (keys.length > 0) drifting.set(checked.data.id, keys);
    }
    const drift: DriftCounts = {};
    for (const [chunk, bucket] of byChunk) {
      const file = join(this.dir, 'changes', `${chunk}.json`);
      const existing = await readFile(file, 'utf8').catch(() => undefined);
      const before = existing === undefined ? [] : (parseStoredJson(existing) as { id: number }[]);
      if (drifting.size > 0) {
        const held = new Set(before.map((change) => change.id));
        for (const id of bucket.keys()) if (!held.has(id)) for (const key of drifting.get(id) ?? []) drift[key] = (drift[key] ?? 0) + 1;
      }
      const sorted = mergeChanges(before, [...bucket.values()]);
      await storeWrite(this.dir, () => writeAtomic(file, canonicalJson(sorted)));
    }
    if (Object.keys(drift).length > 0) {
      addDrift(this.#changesDrift, drift);
      await this.#journal({ drift });
    }
  }

  /** Archives a raw translation file from `file/`. */
  async putFile(translationUrl: string, bytes: Uint8Array, contentType: string): Promise<void> {
    this.#assertOpen();
    const translationPath = apiPath(translationUrl, this.baseUrl);
    if (kindOfPath(translationPath) !== 'translation') throw new Error(`${translationUrl} is not a translation URL`);
    const path = `${translationPath}file/`;
    const previous = await this.#previous();
    const stored = await putChunks(this.#store, chunkFile(bytes), 'raw', () => previous.chunks(path));
    this.addedBytes += stored.added;
    const entry: StoredFile = { content_type: contentType, size: bytes.byteLength, sha256: sha256(bytes), chunks: stored.hashes };
    await this.#index(path, await this.#putRecordValue(entry, previous.record(path)));
  }

  /** Writes the index and then the manifest, and only then makes the snapshot visible as finished. */
  async finish(options: FinishOptions): Promise<FinishedSnapshot> {
    this.#assertOpen();
    return storeWrite(this.contentDir, () => this.#finish(options));
  }

  async #finish(options: FinishOptions): Promise<FinishedSnapshot> {
    await this.#changeQueue;
    this.#finished = true;
    const changes = await this.#storeChangeChunks();
    const parts = new Map<string, IndexPart>();
    const counts: Record<string, number> = {};
    const count = (kind: string, n: number) => {
      counts[kind] = (counts[kind] ?? 0) + n;
    };
    for (const path of [...this.#entries.keys()].sort()) {
      const entry = this.#entries.get(path) as JournalEntry;
      const name = indexPartOf(path);
      let part = parts.get(name);
      if (part === undefined) parts.set(name, (part = { records: {}, raw: {} }));
      if (entry.inline !== undefined) (part.inline ??= {})[path] = parseStoredJson(entry.inline);
      else (entry.raw ? part.raw : part.records)[path] = entry.hash;
      if (entry.chunked) (part.chunked ??= []).push(path);
      const kind = kindOfPath(path);
      if (entry.raw) count('raw', 1);
      else if (kind === 'units') count('unit', entry.units ?? 0);
      else count(kind, 1);
    }
    count(
      'change',
      changes.reduce((sum, chunk) => sum + chunk.count, 0),
    );
    // A small root naming one part per project (and per other kind of path): an edit in one
    // project rewrites its part and the root, not the whole index.
    const previous = await this.#previous();
    const partHashes: Record<string, string> = {};
    for (const [name, part] of [...parts].sort(([a], [b]) => (a < b ? -1 : 1)))
      partHashes[name] = await this.#putRewritten(part, await rewrittenBase(this.#store, await previous.part(name)));
    const index: IndexRoot = { format: 2, parts: partHashes, changes };
    const drift = { ...this.#changesDrift };
    for (const entry of this.#entries.values()) if (!entry.raw) addDrift(drift, entry.drift);
    const manifest = manifestSchema.parse({
      format: snapshotFormat,
      id: this.id,
      server: {
        base_url: this.baseUrl,
        ...(options.serverVersion === undefined ? {} : { version: options.serverVersion }),
        format_api_links: this.#state.format_api_links ?? false,
      },
      tmsnap_version: this.#state.tmsnap_version,
      started: this.#state.started,
      finished: this.now().toISOString(),
      scope: this.#state.scope,
      counts,
      requests: options.requests,
      problems: uniqueProblems([...options.problems, ...this.#problems]),
      ...(options.access !== undefined && options.access.length > 0 ? { access: options.access } : {}),
      ...(options.skipped !== undefined && options.skipped.length > 0 ? { skipped: options.skipped } : {}),
      ...(options.keyed === undefined ? {} : { keyed: options.keyed }),
      ...(options.publicProjects === undefined ? {} : { public_projects: [...options.publicProjects].sort() }),
      ...(options.parts === undefined ? {} : { parts: options.parts }),
      ...(Object.keys(drift).length > 0 ? { drift: driftEntries(drift, driftOrder) } : {}),
      complete: options.complete,
      // The root is never a delta: damage to one snapshot's root must not make the next one's unreadable.
      index: await this.#put(index),
    });
    await writeAtomic(join(this.dir, manifestFile), canonicalJson(manifest));
    const finalDir = join(snapshotsDir(this.contentDir), this.id);
    await rename(this.dir, finalDir);
    // The journal, the change buffers and whatever the crawler kept in the directory are no longer needed.
    const leftovers = (await readdir(finalDir)).filter((name) => name !== manifestFile);
    await Promise.all(leftovers.map((name) => rm(join(finalDir, name), { recursive: true, force: true })));
    return { id: this.id, dir: finalDir, manifest };
  }

  async #storeChangeChunks(): Promise<ChangeChunk[]> {
    const names = await readdir(join(this.dir, 'changes')).catch(() => [] as string[]);
    const buffered = new Set(names.filter((name) => /^-?\d+\.json$/.test(name)).map((name) => Number.parseInt(name, 10)));
    const numbers = [...new Set([...buffered, ...this.#carriedChanges.keys()])].sort((a, b) => a - b);
    const stored: ChangeChunk[] = [];
    const previous = await this.#previous();
    for (const number of numbers) {
      const carried = this.#carriedChanges.get(number);
      if (!buffered.has(number)) {
        stored.push(carried!);
        continue;
      }
      // `#putChanges` writes each buffer with `canonicalJson`, so its text is stored as it is:
      // parsing and serializing it again was a large part of the crawl's end phase
      // (docs/decisions/2026-11-27-figures-from-comments.md).
      let text = await readFile(join(this.dir, 'changes', `${number}.json`), 'utf8');
      if (carried !== undefined) text = canonicalJson(mergeChanges(parseStoredJson(text), await this.#store.readJson(carried.hash, { check: 'crc' })));
      const changes = JSON.parse(text) as { id: number }[];
      const first = changes[0];
      const last = changes.at(-1);
      if (first === undefined || last === undefined) continue;
      const base = await rewrittenBase(this.#store, await previous.changes(first.id, changesPerChunk));
      const { hash, added } = await this.#store.putBytes(text, 'json', { base, maxDepth: maxRewrittenDepth });
      this.addedBytes += added;
      stored.push({ first: first.id, last: last.id, count: changes.length, hash });
    }
    return stored;
  }
}

/** Changes of one chunk by id, sorted; a change in `over` replaces one of the same id in `under`. */
function mergeChanges(under: unknown, over: unknown): unknown[] {
  const merged = new Map<number, unknown>();
  for (const list of [under, over]) for (const change of list as { id: number }[]) merged.set(change.id, change);
  return [...merged.entries()].sort(([a], [b]) => a - b).map(([, change]) => change);
}

/** A resumed crawl may meet the same bad record twice; the manifest lists it once. */
function uniqueProblems(problems: Problem[]): Problem[] {
  const seen = new Map(problems.map((problem) => [canonicalJson(problem), problem]));
  return [...seen.values()];
}

function compareUnits(a: unknown, b: unknown): number {
  const left = a as { position?: unknown; id?: unknown };
  const right = b as { position?: unknown; id?: unknown };
  const byPosition = Number(left.position ?? 0) - Number(right.position ?? 0);
  return byPosition !== 0 ? byPosition : Number(left.id ?? 0) - Number(right.id ?? 0);
}

/**
 * Stores a normalized record: as it is, or, when it is a long list (or a page of one), as a
 * `ChunkedList` naming chunks of its items, so that one changed item rewrites one chunk
 * (docs/snapshot-format.md, "Chunks"). The writer and `tmsnap migrate` store records through
 * here, so both give the same objects.
 */
export async function putRecordValue(store: ObjectStore, value: unknown, bases: RecordBases = {}): Promise<StoredValue & { chunked: boolean }> {
  const long = longList(value);
  // A record is read once where a unit list is read per translation: it chains as long as an index part (store.ts `maxRewrittenDepth`).
  if (long === undefined) return { ...(await putValue(store, value, { base: bases.record, rewritten: true })), chunked: false };
  const items = chunkList(long.items, canonicalJson);
  const stored = await putChunks(store, items.map(canonicalJson), 'json', bases.chunks ?? (() => Promise.resolve([])));
  const chunks: ChunkedList['chunks'] = items.map((chunk, at) => ({ count: chunk.length, hash: stored.hashes[at]! }));
  const list: ChunkedList = { count: long.items.length, chunks, ...(long.around === undefined ? {} : { around: long.around }) };
  const listStored = await store.putRewritten(list, await rewrittenBase(store, bases.record));
  return { hash: listStored.hash, added: stored.added + listStored.added, chunked: true };
}

/** A record's value as stored: its hash, the bytes it added, and its canonical JSON when it is kept inline instead. */
export interface StoredValue extends PutResult {
  inline?: string;
}

/**
 * Stores a normalized record's value as an object of its own, or, when small, only answers its
 * canonical JSON for its index part to keep inline (format 4, snapshot/inline.ts). Its hash is the
 * same either way. `rewritten`: a record read once per snapshot (statistics, `languages/`, a long
 * list's chunk list) chains like an index part, whose cut every ninth day was a worst day's cost
 * (docs/decisions/2026-11-23-format-4-archive-growth.md, "Format 4: chains").
 */
export async function putValue(store: ObjectStore, value: unknown, options: ValueOptions = {}): Promise<StoredValue> {
  const text = canonicalJson(value);
  if (keptInline(text)) return { hash: sha256(text), added: 0, inline: text };
  if (options.rewritten !== true) return store.putBytes(text, 'json', { base: options.base });
  return store.putBytes(text, 'json', { base: await rewrittenBase(store, options.base), maxDepth: maxRewrittenDepth });
}

/** What `putValue` stores a value against: the previous version's object (`base`), and whether the value is rewritten every day. */
export interface ValueOptions {
  base?: string | undefined;
  rewritten?: boolean;
}

/** What a record's objects are stored against: the previous version of the record, and of its chunks (asked only when it has some). */
export interface RecordBases {
  record?: string | undefined;
  chunks?: () => Promise<string[]>;
}

/**
 * Stores the chunks of one list or file, each as a delta against the previous version's chunk
 * in the same place when there is one (snapshot/bases.ts `alignChunks`), or rather against the
 * whole chunk that version's chain starts from (`chunkBase`), and answers their hashes in order.
 * A `HeldChunk` is named by its hash and not stored again.
 */
export async function putChunks(
  store: ObjectStore,
  chunks: readonly (Uint8Array | string | HeldChunk)[],
  kind: 'json' | 'raw',
  previous: () => Promise<string[]>,
): Promise<{ hashes: string[]; added: number }> {
  const hashes = chunks.map((chunk) => (isHeld(chunk) ? chunk.held : sha256(chunk)));
  const old = await previous();
  const bases = old.length === 0 ? [] : alignChunks(old, hashes);
  let added = 0;
  for (const [at, chunk] of chunks.entries()) {
    if (isHeld(chunk)) continue;
    // An unchanged chunk is stored already: no base to look for.
    const base = bases[at] === hashes[at] ? undefined : await chunkBase(store, bases[at], kind);
    added += (await store.putBytes(chunk, kind, { base, hash: hashes[at]! })).added;
  }
  return { hashes, added };
}

/** A chunk the store holds already, by its hash: an object of the previous snapshot, in the same store. */
export interface HeldChunk {
  held: string;
}

function isHeld(chunk: Uint8Array | string | HeldChunk): chunk is HeldChunk {
  return typeof chunk === 'object' && !(chunk instanceof Uint8Array);
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

export function openSnapshotWriter(contentDir: string, options: WriterOptions): Promise<SnapshotWriter> {
  return SnapshotWriter.open(contentDir, options);
}
