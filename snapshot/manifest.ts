/**
 * A snapshot's manifest and what it names (docs/snapshot-format.md, "Manifest"): apart from the
 * record schemas, so that reading manifests (`tmsnap snapshots`, tags) loads zod only, not every
 * schema of the API (start-up time: docs/decisions/2026-11-29-listing-start.md).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { parseJson } from '../api/json.ts';
import { parseStoredJson } from './canonical.ts';
import { manifestFile, snapshotsDir } from './content.ts';
import { snapshotIdPattern } from './ids.ts';

export const hash = z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 hex digest');
export const snapshotId = z.string().regex(snapshotIdPattern, 'expected a snapshot id like 2026-11-22T041500Z');

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

/** The manifest of finished snapshot `id`, for reading it: a missing one means the snapshot is not finished. */
export async function readManifest(contentDir: string, id: string): Promise<Manifest> {
  const path = join(snapshotsDir(contentDir), id, manifestFile);
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    throw new Error(`snapshot ${id} has no manifest (${path}): it is not a finished snapshot`, { cause: error });
  });
  const parsed = manifest.safeParse(parseStoredJson(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${path}: field ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'} (is it from a newer tmsnap?)`);
  }
  return parsed.data;
}

/** The manifest in a snapshot directory, for checking it (verify, prune, pack): one that does not parse is damaged. */
export async function readManifestIn(dir: string): Promise<Manifest> {
  const file = join(dir, manifestFile);
  const parsed = manifest.safeParse(parseJson(await readFile(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: field "${issue?.path.join('.')}" ${issue?.message}; the manifest is damaged`);
  }
  return parsed.data;
}
