/**
 * Building shards from units and opening them for queries. Pure data in, data out: the build
 * and the CLI feed it units read from a snapshot, the browser feeds it loaded shard files.
 */
import { hasFilters, searchFormat, type HasFilter, type SourceShardData, type TargetShardData } from './format.ts';
import { documentsOf, textIndexOf, termsOf, type TextIndex } from './text-index.ts';

/** One unit as search needs it. */
export interface SearchUnit {
  component: number;
  source: readonly string[];
  target: readonly string[];
  state: number;
  /** The unit's `has_failing_check` and `has_suggestion`. */
  has: Readonly<Record<HasFilter, boolean>>;
  /** Site path of the unit's page plus its fragment, e.g. `projects/a/b/pl/units/1/index.html#u12`. */
  href: string;
}

/** The distinct source strings of one bucket, each stored once whatever language refers to it. */
export class SourceTable {
  readonly texts: string[][] = [];
  readonly #ids = new Map<string, number>();

  intern(forms: readonly string[]): number {
    const key = forms.join('\u0000');
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.texts.length;
      this.texts.push([...forms]);
      this.#ids.set(key, id);
    }
    return id;
  }
}

export function buildSourceShard(bucket: number, table: SourceTable): SourceShardData {
  return { format: searchFormat, bucket, texts: table.texts };
}

export function buildTargetShard(bucket: number, language: number, units: Iterable<SearchUnit>, sources: SourceTable): TargetShardData {
  const columns: TargetShardData['units'] = { component: [], source: [], target: [], state: [], page: [], anchor: [] };
  const pages: string[] = [];
  const pageIds = new Map<string, number>();
  const has: TargetShardData['has'] = { check: [], suggestion: [] };
  for (const unit of units) {
    const id = columns.component.length;
    const hash = unit.href.indexOf('#');
    const page = hash === -1 ? unit.href : unit.href.slice(0, hash);
    let pageId = pageIds.get(page);
    if (pageId === undefined) {
      pageId = pages.length;
      pages.push(page);
      pageIds.set(page, pageId);
    }
    columns.component.push(unit.component);
    columns.source.push(sources.intern(unit.source));
    columns.target.push([...unit.target]);
    columns.state.push(unit.state);
    columns.page.push(pageId);
    columns.anchor.push(hash === -1 ? '' : unit.href.slice(hash));
    for (const flag of hasFilters) if (unit.has[flag]) has[flag].push(id);
  }
  return { format: searchFormat, bucket, language, units: columns, pages, has };
}

/** The terms a source shard's index holds, for its route. */
export function sourceTerms(data: SourceShardData): Set<string> {
  return termsOf(documentsOf(data.texts));
}

/** The terms a target shard's index holds (its translated targets), for its route. */
export function targetTerms(data: TargetShardData): Set<string> {
  return termsOf(documentsOf(data.units.target));
}

export interface OpenSourceShard {
  data: SourceShardData;
  /** Built when first read: a listing, or a query routed away from these sources, never needs it. */
  readonly index: TextIndex;
  /** Phrase forms of the texts, filled as queries need them. */
  phrases: string[];
}

export interface OpenTargetShard {
  data: TargetShardData;
  /** Built when first read: a query that can match this shard only through its sources never needs it. */
  readonly index: TextIndex;
  /**
   * Units of this shard by source id, how a source match reaches its translations: the units
   * of source `s` are `sourceUnits[sourceStarts[s]]` up to `sourceStarts[s + 1]`. Two typed
   * arrays rather than a map of lists, which took 20 ms to build for a shard of 20,000 units
   * on the page's first search.
   */
  sourceStarts: Int32Array;
  sourceUnits: Int32Array;
  /** Phrase forms of the targets, filled as queries need them. */
  phrases: string[];
  /** Per unit, a bit per flag it has (bit `i` for `hasFilters[i]`). */
  has: Uint8Array;
}

export function openSourceShard(data: SourceShardData): OpenSourceShard {
  let index: TextIndex | undefined;
  return {
    data,
    get index() {
      return (index ??= textIndexOf(documentsOf(data.texts)));
    },
    phrases: [],
  };
}

export function openTargetShard(data: TargetShardData): OpenTargetShard {
  const sources = data.units.source;
  let count = 0;
  for (const source of sources) if (source >= count) count = source + 1;
  const sourceStarts = new Int32Array(count + 1);
  for (const source of sources) sourceStarts[source + 1]!++;
  for (let source = 0; source < count; source++) sourceStarts[source + 1]! += sourceStarts[source]!;
  const sourceUnits = new Int32Array(sources.length);
  const filled = sourceStarts.slice(0, count);
  sources.forEach((source, unit) => (sourceUnits[filled[source]!++] = unit));
  const has = new Uint8Array(sources.length);
  hasFilters.forEach((flag, bit) => {
    for (const unit of data.has[flag]) has[unit]! |= 1 << bit;
  });
  let index: TextIndex | undefined;
  return {
    data,
    get index() {
      return (index ??= textIndexOf(documentsOf(data.units.target)));
    },
    sourceStarts,
    sourceUnits,
    phrases: [],
    has,
  };
}

/** The units of `shard` translating source string `source`, in table order. */
export function unitsOfSource(shard: OpenTargetShard, source: number): Int32Array {
  return source + 1 < shard.sourceStarts.length ? shard.sourceUnits.subarray(shard.sourceStarts[source], shard.sourceStarts[source + 1]) : new Int32Array(0);
}

/** The bits of `hasFilters` a unit must have, as `OpenTargetShard.has` holds them. */
export function hasBits(flags: Iterable<HasFilter>): number {
  let bits = 0;
  for (const flag of flags) bits |= 1 << hasFilters.indexOf(flag);
  return bits;
}

/** The flags a unit of an open shard has, in `hasFilters` order. */
export function flagsOf(shard: OpenTargetShard, unit: number): HasFilter[] {
  return hasFilters.filter((_, bit) => ((shard.has[unit] ?? 0) & (1 << bit)) !== 0);
}

export function unitHref(shard: TargetShardData, unit: number): string {
  return (shard.pages[shard.units.page[unit]!] ?? '') + (shard.units.anchor[unit] ?? '');
}
