/**
 * One query over open shards: source matches reach every translation of that source, target
 * matches are per unit, and hits are ranked whole text, then exact phrase, then score.
 */
import { compareRanked, joinForms, phraseForm, phraseTier, tiers, type Ranked, type Tier } from './matching.ts';
import type { HasFilter } from './format.ts';
import { hasBits, unitsOfSource, type OpenSourceShard, type OpenTargetShard } from './shards.ts';
import { tokenize, unspacedScript } from './text.ts';
import { searchText, type TextHit, type TextIndex } from './text-index.ts';

export const searchScopes = ['both', 'source', 'target'] as const;
export type SearchScope = (typeof searchScopes)[number];

export interface SearchRequest {
  text: string;
  scope: SearchScope;
  /** Only units of these components (manifest positions); all when absent. */
  components?: ReadonlySet<number> | undefined;
  states?: ReadonlySet<number> | undefined;
  /** Only units having each of these (a failing check, a suggestion). */
  has?: ReadonlySet<HasFilter> | undefined;
  /**
   * A text without terms lists every unit the filters let through, in table order (strings by
   * state, check or component), rather than finding nothing.
   */
  list?: boolean | undefined;
  /** Whether the query can match in a bucket's sources or a shard's targets (`search/routing.ts`): indexes where it cannot are not searched. */
  routing?: { source(bucket: number): boolean; target(shard: OpenTargetShard): boolean } | undefined;
}

export interface SearchHit extends Ranked {
  shard: OpenTargetShard;
  unit: number;
}

/**
 * Every hit of `request` in `targets`, best first. `sources` must hold the source shard of
 * every target shard's bucket when the scope includes sources.
 */
export function searchShards(request: SearchRequest, sources: ReadonlyMap<number, OpenSourceShard>, targets: readonly OpenTargetShard[]): SearchHit[] {
  const search = new ShardSearch(request, sources);
  // Each list is sorted already: the sort merges runs.
  return targets.flatMap((shard, order) => search.shard(shard, order)).sort(compareRanked);
}

/**
 * One query over shards that arrive one by one (the page): each target shard and each bucket's
 * sources are searched once, however often the results are asked for. `sources` is read when
 * a target shard is first searched, and must hold its bucket's source shard by then.
 */
export class ShardSearch {
  readonly #request: SearchRequest;
  readonly #sources: ReadonlyMap<number, OpenSourceShard>;
  readonly #terms: string[];
  readonly #phrase: string;
  readonly #words: string[];
  readonly #hasBits: number;
  readonly #sourceMatches = new Map<number, Map<number, Match>>();
  readonly #hits = new Map<OpenTargetShard, SearchHit[]>();
  readonly #sourceTiers = new Map<OpenSourceShard, Map<number, Tier>>();
  /** Target matches found elsewhere (the page's workers), taken by `shard` instead of searching the index here. */
  readonly #targetMatches = new Map<OpenTargetShard, Map<number, Match>>();

  constructor(request: SearchRequest, sources: ReadonlyMap<number, OpenSourceShard>) {
    this.#request = request;
    this.#sources = sources;
    this.#terms = tokenize(request.text);
    this.#phrase = phraseForm(request.text);
    // A text can hold the query as a phrase only if every word of it matched exactly, not as a
    // prefix or fuzzily: the (costly) phrase test runs only on those. Character pairs are left
    // out of the check, since a pair at a run's end is indexed as a single character.
    this.#words = this.#terms.filter((term) => !unspacedScript.test(term));
    this.#hasBits = hasBits(request.has ?? []);
  }

  /** Whether a unit passes the request's component, state and flag filters. */
  #wanted(shard: OpenTargetShard, unit: number): boolean {
    const { components, states } = this.#request;
    const { component, state } = shard.data.units;
    return (!components || components.has(component[unit]!)) && (!states || states.has(state[unit]!)) && (shard.has[unit]! & this.#hasBits) === this.#hasBits;
  }

  #search(index: TextIndex): Map<number, Match> {
    return matchesOf(searchText(index, this.#request.text), this.#words);
  }

  /** The query's words that must all match exactly for a phrase tier: what a worker needs to tell `Match.exact`. */
  get words(): readonly string[] {
    return this.#words;
  }

  /**
   * The text searches `shard` still needs before `shard()` can run without an index on this
   * thread: its bucket's sources (by bucket) and its own targets, as routing and scope allow.
   * The page has its workers run them and hands the matches back (docs/search.md, "Workers").
   */
  textSearches(shard: OpenTargetShard): { source?: number; target: boolean } {
    const request = this.#request;
    const needs: { source?: number; target: boolean } = { target: false };
    if (this.#terms.length === 0 || this.#hits.has(shard)) return needs;
    const bucket = shard.data.bucket;
    if (request.scope !== 'target' && !this.#sourceMatches.has(bucket) && (!request.routing || request.routing.source(bucket))) needs.source = bucket;
    needs.target = request.scope !== 'source' && !this.#targetMatches.has(shard) && (!request.routing || request.routing.target(shard));
    return needs;
  }

  /** Matches of a bucket's sources found elsewhere, by source id. */
  supplySource(bucket: number, matches: Map<number, Match>): void {
    if (!this.#sourceMatches.has(bucket)) this.#sourceMatches.set(bucket, matches);
  }

  /** Matches of a shard's targets found elsewhere, by unit. */
  supplyTarget(shard: OpenTargetShard, matches: Map<number, Match>): void {
    this.#targetMatches.set(shard, matches);
  }

  /**
   * How a source string holds the query as a phrase: the same in every language, so told once
   * per source string rather than once per unit.
   */
  #sourceTier(shard: OpenSourceShard, id: number): Tier {
    let known = this.#sourceTiers.get(shard);
    if (!known) this.#sourceTiers.set(shard, (known = new Map()));
    let tier = known.get(id);
    if (tier === undefined) known.set(id, (tier = phraseTier(sourcePhrase(shard, id), this.#phrase)));
    return tier;
  }

  /** Whether `shard` has been searched already (its hits are kept). */
  has(shard: OpenTargetShard): boolean {
    return this.#hits.has(shard);
  }

  /** The hits in `shard`, best first; `order` places the shard among the others for ties. */
  shard(shard: OpenTargetShard, order: number): SearchHit[] {
    let hits = this.#hits.get(shard);
    if (!hits) {
      hits = this.#searchShard(shard, order).sort(compareRanked);
      this.#hits.set(shard, hits);
    }
    return hits;
  }

  #searchShard(shard: OpenTargetShard, shardOrder: number): SearchHit[] {
    const request = this.#request;
    if (this.#terms.length === 0) return request.list ? this.#listShard(shard, shardOrder) : [];
    const sourceShard = this.#sources.get(shard.data.bucket);
    let fromSources: Map<number, Match> | undefined;
    if (request.scope !== 'target') {
      if (!sourceShard) throw new Error(`search: the source shard of bucket ${shard.data.bucket} is not loaded`);
      fromSources = this.#sourceMatches.get(shard.data.bucket);
      if (!fromSources) {
        fromSources = request.routing && !request.routing.source(shard.data.bucket) ? new Map() : this.#search(sourceShard.index);
        this.#sourceMatches.set(shard.data.bucket, fromSources);
      }
    }
    let fromTargets: Map<number, Match> | undefined;
    if (request.scope !== 'source') {
      fromTargets = this.#targetMatches.get(shard) ?? (request.routing && !request.routing.target(shard) ? new Map() : this.#search(shard.index));
    }
    const units = new Set<number>(fromTargets?.keys());
    if (fromSources) for (const sourceId of fromSources.keys()) for (const unit of unitsOfSource(shard, sourceId)) units.add(unit);

    const hits: SearchHit[] = [];
    const { source } = shard.data.units;
    for (const unit of units) {
      if (!this.#wanted(shard, unit)) continue;
      const bySource = fromSources?.get(source[unit]!);
      const byTarget = fromTargets?.get(unit);
      const sourceTier = bySource?.exact && sourceShard ? this.#sourceTier(sourceShard, source[unit]!) : tiers.terms;
      const targetTier = byTarget?.exact ? phraseTier(targetPhrase(shard, unit), this.#phrase) : tiers.terms;
      const tier = sourceTier < targetTier ? sourceTier : targetTier;
      hits.push({ shard, unit, score: (bySource?.score ?? 0) + (byTarget?.score ?? 0), tier, order: shardOrder * 2 ** 26 + unit });
    }
    return hits;
  }

  /** Every unit of `shard` the filters let through, equal in rank: in table order. */
  #listShard(shard: OpenTargetShard, shardOrder: number): SearchHit[] {
    const hits: SearchHit[] = [];
    const count = shard.data.units.state.length;
    for (let unit = 0; unit < count; unit++)
      if (this.#wanted(shard, unit)) hits.push({ shard, unit, score: 0, tier: tiers.terms, order: shardOrder * 2 ** 26 + unit });
    return hits;
  }
}

/** The first `count` hits of lists each sorted best first, in order. */
export function mergeRanked(lists: readonly (readonly SearchHit[])[], count: number): SearchHit[] {
  const at = lists.map(() => 0);
  const merged: SearchHit[] = [];
  while (merged.length < count) {
    let best = -1;
    for (let list = 0; list < lists.length; list++) {
      const candidate = lists[list]![at[list]!];
      if (candidate && (best === -1 || compareRanked(candidate, lists[best]![at[best]!]!) < 0)) best = list;
    }
    if (best === -1) break;
    merged.push(lists[best]![at[best]!++]!);
  }
  return merged;
}

export interface Match {
  score: number;
  /** Every word of the query is one of the text's words (not only a prefix or a near miss). */
  exact: boolean;
}

/** One index's hits as the query ranks them: each document's score, and whether every word in `words` matched exactly. */
export function matchesOf(hits: readonly TextHit[], words: readonly string[]): Map<number, Match> {
  const found = new Map<number, Match>();
  for (const hit of hits) {
    const matched = new Set(hit.terms);
    found.set(hit.id, { score: hit.score, exact: words.every((word) => matched.has(word)) });
  }
  return found;
}

/** Matches as typed arrays, which a worker transfers to the page rather than copying a graph of objects. */
export interface PackedMatches {
  ids: Int32Array;
  scores: Float64Array;
  exact: Uint8Array;
}

export function packMatches(matches: ReadonlyMap<number, Match>): PackedMatches {
  const packed = { ids: new Int32Array(matches.size), scores: new Float64Array(matches.size), exact: new Uint8Array(matches.size) };
  let at = 0;
  for (const [id, { score, exact }] of matches) {
    packed.ids[at] = id;
    packed.scores[at] = score;
    packed.exact[at++] = exact ? 1 : 0;
  }
  return packed;
}

export function unpackMatches(packed: PackedMatches): Map<number, Match> {
  const matches = new Map<number, Match>();
  for (let at = 0; at < packed.ids.length; at++) matches.set(packed.ids[at]!, { score: packed.scores[at]!, exact: packed.exact[at] === 1 });
  return matches;
}

function sourcePhrase(shard: OpenSourceShard, id: number): string {
  return (shard.phrases[id] ??= phraseForm(joinForms(shard.data.texts[id] ?? [])));
}

function targetPhrase(shard: OpenTargetShard, unit: number): string {
  return (shard.phrases[unit] ??= phraseForm(joinForms(shard.data.units.target[unit] ?? [])));
}
