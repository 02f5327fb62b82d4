/**
 * The search index as the site ships it (`dist/search/`). Version 7 (1 had no routes, 2 held
 * each target index inside its unit table, 3 shipped MiniSearch's serialized indexes without
 * routes or flags, 4 gave each term its rank in MiniSearch's radix tree, 5 held the source
 * language's own translation and no check or suggestion flags, 6 shipped tmsnap's own term
 * tables in files of their own).
 * One manifest names every file; shards are of
 * two kinds:
 * - a source shard per bucket of components: each distinct source string once, shared by
 *   every language;
 * - a target shard per language × bucket: the table of that language's units, each pointing at
 *   its source string in the bucket's source shard.
 * No index is shipped: the page builds MiniSearch's index of a shard's texts when a query first
 * needs it (`search/text-index.ts`). A routes file tells, per shard, which query terms can match
 * there (`search/routing.ts`), so a query loads only the shards that can hold a result.
 * Tables are columns (one array per field) because a million units as objects repeat every
 * key a million times.
 */
export const searchFormat = 7;

/**
 * What a unit can have that a search filters by, in Weblate's words (its `has:check` and
 * `has:suggestion` lookups): the units' `has_failing_check` and `has_suggestion` flags.
 */
export const hasFilters = ['check', 'suggestion'] as const;
export type HasFilter = (typeof hasFilters)[number];

export interface ShardFile {
  /** Relative to the search folder, e.g. `shards/t-pl-0.js`. */
  file: string;
  bytes: number;
}

export interface SearchManifest {
  format: typeof searchFormat;
  snapshot: { id: string; finished: string };
  projects: { slug: string; name: string }[];
  components: { project: number; slug: string; name: string }[];
  languages: { code: string; name: string; direction: string }[];
  /** Unit state → its name, for the states present. */
  states: [number, string][];
  /** `sources` is null for a bucket whose components have no units. */
  buckets: { components: number[]; sources: ShardFile | null }[];
  /**
   * `file` is the unit table; `translated` how many of its units have a target (none: a query
   * can match there only through the sources); `states` the states its units are in and `has`
   * what some of them have, so a listing by state or flag loads only the shards holding such units.
   */
  targets: (ShardFile & { bucket: number; language: number; units: number; translated: number; states: number[]; has: HasFilter[] })[];
}

/** The routes file, beside the manifest. */
export const routesFile = 'routes.js';

/**
 * A shard's route (`search/routing.ts`): the heads of its terms (first three characters)
 * separated by spaces, and the code-unit pairs of its longer terms, concatenated.
 */
export type ShardRoute = [heads: string, pairs: string];

export interface SearchRoutes {
  format: typeof searchFormat;
  /** Per bucket, the route of its source shard (null where the manifest has none). */
  sources: (ShardRoute | null)[];
  /** Per target shard, in the manifest's order. */
  targets: ShardRoute[];
}

export interface SourceShardData {
  format: typeof searchFormat;
  bucket: number;
  /** Plural forms of each distinct source string; the index's document ids are positions here. */
  texts: string[][];
}

export interface TargetShardData {
  format: typeof searchFormat;
  bucket: number;
  language: number;
  units: {
    component: number[];
    /** Position in the bucket's source `texts`. */
    source: number[];
    target: string[][];
    state: number[];
    /** Position in `pages`; a unit's link is its page plus its `anchor`. */
    page: number[];
    anchor: string[];
  };
  /** Site paths of the pages holding units (relative to the site root), each stored once. */
  pages: string[];
  /** Per flag, the positions of the units that have it, ascending (few units have one). */
  has: Record<HasFilter, number[]>;
}

/** The global function shard scripts call: `tmsnapSearch("shards/t-pl-0.js", {...})`. */
export const registerFunction = 'tmsnapSearch';

/**
 * The search page's workers' script (`site/search-app.ts`), beside `app.js`: it registers their
 * bundled text through `registerFunction` as the index's files register their data, and is
 * loaded only when a query first has a shard for the workers (docs/search.md, "Workers"). Not
 * part of the index: the same for every site, whatever the format.
 */
export const workerFile = 'worker.js';
