import { z } from 'zod';
import * as api from '../api/index.ts';
import { hash } from './manifest.ts';

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

export {
  accessProblem,
  type AccessProblem,
  drift,
  type Drift,
  hash,
  manifest,
  type Manifest,
  parts,
  type Parts,
  problem,
  type Problem,
  type RequestCount,
  type RequestKind,
  requestKinds,
  scope,
  type Scope,
  skippedResources,
  type SkippedResources,
  snapshotFormats,
  snapshotId,
} from './manifest.ts';

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
