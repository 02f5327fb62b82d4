import { z } from 'zod';
import * as api from '../api/index.ts';

/**
 * Stored (normalized) records: the API's own schemas with embedded objects replaced by the
 * stored link of the object they embed (`api/projects/foo/`). Link fields stay strings,
 * now relative to the server's base (see `links.ts`). Unknown fields pass through.
 */
const reference = z.string();

export const storedLanguage = api.language;
export const storedProject = api.project;
export const storedComponent = api.component.extend({ project: reference, source_language: reference });
/** `component` is absent when the crawler stored a `translations/` list entry without its parent. */
export const storedTranslation = api.translation.extend({ language: reference, component: reference.optional() });
export const storedUnit = api.unit;
export const storedChange = api.change;
export const storedUser = api.user;
/** A project or component outside the crawl's scope stays embedded, whole (normalize.ts `OwnRecord`). */
export const storedNotification = api.notification.extend({
  project: z.union([reference, api.project]).nullable(),
  component: z.union([reference, api.component]).nullable(),
});
export const storedStatistics = api.statistics;

export type StoredLanguage = z.infer<typeof storedLanguage>;
export type StoredProject = z.infer<typeof storedProject>;
export type StoredComponent = z.infer<typeof storedComponent>;
export type StoredTranslation = z.infer<typeof storedTranslation>;
export type StoredUnit = z.infer<typeof storedUnit>;
export type StoredChange = z.infer<typeof storedChange>;
export type StoredUser = z.infer<typeof storedUser>;
export type StoredNotification = z.infer<typeof storedNotification>;
export type StoredStatistics = z.infer<typeof storedStatistics>;

/**
 * A raw translation file from `file/`, as indexed. Format 1: the bytes are one `.raw` object
 * named `sha256`. Format 2: `chunks` names the `.raw.gz` objects that, in order, make up the
 * file (content-defined cuts, snapshot/chunks.ts); `sha256` is still that of the whole file.
 */
export const storedFile = z.strictObject({
  content_type: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  chunks: z.array(z.string().regex(/^[0-9a-f]{64}$/)).optional(),
});
export type StoredFile = z.infer<typeof storedFile>;

const hash = z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 hex digest');
const snapshotId = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{6}Z(-\d+)?$/, 'expected a snapshot id like 2026-11-22T041500Z');

/** Something wrong with the data: a record kept raw, a 404 or other 4xx answer, a list item without a URL. */
export const problem = z.object({ url: z.string(), field: z.string(), reason: z.string() });
export type Problem = z.infer<typeof problem>;

/**
 * A kind of resource the crawl's credentials may not read (401/403), recorded once for all its
 * siblings: `kind` is the path with each key of the object written `*` (a translation's
 * repository: `translations/` + three `*` segments + `repository/`), `url` the request that answered, `status` its status (docs/crawl.md, "Access limits").
 */
export const accessProblem = z.object({ kind: z.string(), url: z.string(), status: z.number().int(), reason: z.string() });
export type AccessProblem = z.infer<typeof accessProblem>;

/**
 * Resources a crawl left out on purpose, by kind, and why: a real server lists every language
 * it knows (652), and the statistics of those no translation in scope uses are not fetched
 * (docs/crawl.md). Readers show such an object without the resource, never made-up zeros.
 */
export const skippedResources = z.object({ kind: z.string(), reason: z.string(), urls: z.array(z.string()) });
export type SkippedResources = z.infer<typeof skippedResources>;

/**
 * Fields of the server's records that differ from the shape tmsnap measured (api/fields.ts,
 * docs/weblate-api.md "Drift"): per resource and field, how many records this crawl read lack
 * it, hold it in another type, or add it. Not problems: such records are stored normalized.
 */
export const drift = z.array(
  z.object({
    resource: z.string(),
    field: z.string(),
    change: z.enum(['missing', 'retyped', 'new']),
    records: z.number().int().positive(),
  }),
);
export type Drift = z.infer<typeof drift>;

/** Where a crawl's requests went, by kind of request. */
export const requestKinds = ['lists', 'units', 'statistics', 'files', 'other'] as const;
export type RequestKind = (typeof requestKinds)[number];
const requestCount = z.object({ made: z.number().int().nonnegative(), minimum: z.number().int().nonnegative() });
export type RequestCount = z.infer<typeof requestCount>;

/** A snapshot's `parts`: the current state always, the history (all of it or some). */
export const parts = z.looseObject({
  /** Whether the history is whole: the change log of the crawl's window, translation files, translations' sub-resources. */
  history: z.boolean(),
  /** The change log is held from this time on (absent: the whole window). */
  changes_from: z.string().optional(),
  /** At least this many requests fetch the rest (the crawl's estimate). */
  remaining: z.number().int().nonnegative().optional(),
});
export type Parts = z.infer<typeof parts>;

export const scope = z.object({
  projects: z.array(z.string()).optional(),
  changes_since: z.string().optional(),
});
export type Scope = z.infer<typeof scope>;

/**
 * Formats this tmsnap reads: 1 (one object per unit list, one index object), 2 (chunked,
 * split, compressed), 3 (2 with objects that may be deltas against other objects) and 4 (3
 * with small records kept inline in their index part).
 */
export const snapshotFormats = [1, 2, 3, 4] as const;

export const manifest = z.looseObject({
  format: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  id: snapshotId,
  server: z.looseObject({
    base_url: z.string(),
    version: z.string().optional(),
    /** Whether the server wrote `format=api` on its API links (restored by `export`). */
    format_api_links: z.boolean(),
  }),
  tmsnap_version: z.string(),
  started: z.string(),
  finished: z.string(),
  scope,
  counts: z.record(z.string(), z.number().int().nonnegative()),
  requests: requestCount.extend({
    /** Added after format 1 shipped: absent in older manifests. */
    by_kind: z.partialRecord(z.enum(requestKinds), requestCount).optional(),
  }),
  problems: z.array(problem),
  /** Added after format 1 shipped (absent: none recorded). Limits of access, not problems of the data. */
  access: z.array(accessProblem).optional(),
  /** Added after format 1 shipped (absent: nothing left out). */
  skipped: z.array(skippedResources).optional(),
  /** Added with issue 23 (absent: not recorded): whether the crawl sent an API key, and so may hold more than the public sees. */
  keyed: z.boolean().optional(),
  /**
   * Added with issue 23, keyed crawls only: the paths of the projects the server lists to an
   * anonymous client, asked once without the key (absent: the answer could not be had). The site
   * publishes only these by default (site-model/privacy.ts).
   */
  public_projects: z.array(z.string()).optional(),
  /**
   * Added with issue 27 (absent: all of it): what of the server the snapshot holds. A crawl
   * stopped once the current state was in finishes without all of the history; the next crawl
   * goes on with the rest (docs/snapshot-format.md, "Parts").
   */
  parts: parts.optional(),
  /** Added with issue 38 (absent: nothing drifted, or not recorded by the tmsnap that wrote it). */
  drift: drift.optional(),
  complete: z.boolean(),
  index: hash,
});
export type Manifest = z.infer<typeof manifest>;

/** One chunk of the changes log: changes with `first <= id <= last`, ascending. */
export const changeChunk = z.object({ first: z.number().int(), last: z.number().int(), count: z.number().int(), hash });
export type ChangeChunk = z.infer<typeof changeChunk>;

/** The index of a format-1 snapshot, one object; `Snapshot.index` gives every format in this shape. */
export const snapshotIndex = z.object({
  format: z.union([z.literal(1), z.literal(2)]),
  /** Format 2: paths (other than unit lists) whose record is kept as a `chunkedList`. */
  chunked: z.array(z.string()).optional(),
  /** Relative API path → hash of its normalized record (unit lists under `<translation>units/`). */
  records: z.record(z.string(), hash),
  /** Relative API path → hash of a record that failed its schema, stored exactly as it came. */
  raw: z.record(z.string(), hash),
  changes: z.array(changeChunk),
});
export type SnapshotIndex = z.infer<typeof snapshotIndex>;

/** Format 2's index root: the parts (snapshot/chunks.ts `indexPartOf`) by name, and the change chunks. */
export const indexRoot = z.object({
  format: z.literal(2),
  parts: z.record(z.string(), hash),
  changes: z.array(changeChunk),
});
export type IndexRoot = z.infer<typeof indexRoot>;

/** One part of a format-2 index: the records and raw records of its paths. */
export const indexPart = z.object({
  records: z.record(z.string(), hash),
  raw: z.record(z.string(), hash),
  /** Paths of `records` (other than unit lists, always chunked) whose object is a `chunkedList`. */
  chunked: z.array(z.string()).optional(),
  /**
   * Format 4: relative API path → a small normalized record kept here instead of in an object
   * of its own (snapshot/inline.ts); its hash is still the sha256 of its canonical JSON.
   */
  inline: z.record(z.string(), z.unknown()).optional(),
});
export type IndexPart = z.infer<typeof indexPart>;

/** Format 2's `…/units/` object: the chunks that, in order, make up the translation's unit list. */
export const unitList = z.object({
  count: z.number().int().nonnegative(),
  chunks: z.array(z.object({ count: z.number().int().nonnegative(), hash })),
});
export type UnitList = z.infer<typeof unitList>;

/** Format 2's form of a long list record (snapshot/chunks.ts `longList`): its items in chunks, and the page around them. */
export const chunkedList = unitList.extend({ around: z.record(z.string(), z.unknown()).optional() });
export type ChunkedList = z.infer<typeof chunkedList>;

export { snapshotId };
