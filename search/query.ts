/**
 * One query over open shards: source matches reach every translation of that source, target
 * matches are per unit, and hits are ranked whole text, then exact phrase, then score.
 */
import { compareRanked, joinForms, phraseForm, phraseTier, searchOptions, tiers, type Ranked } from './matching.ts';
import type { OpenSourceShard, OpenTargetShard } from './shards.ts';
import { tokenize, unspacedScript } from './text.ts';

export const searchScopes = ['both', 'source', 'target'] as const;
export type SearchScope = (typeof searchScopes)[number];

export interface SearchRequest {
  text: string;
  scope: SearchScope;
  /** Only units of these components (manifest positions); all when absent. */
  components?: ReadonlySet<number> | undefined;
  states?: ReadonlySet<number> | undefined;
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
  const terms = tokenize(request.text);
  if (terms.length === 0) return [];
  const phrase = phraseForm(request.text);
  // A text can hold the query as a phrase only if every word of it matched exactly, not as a
  // prefix or fuzzily: the (costly) phrase test runs only on those. Character pairs are left
  // out of the check, since a pair at a run's end is indexed as a single character.
  const words = terms.filter((term) => !unspacedScript.test(term));
  const search = (index: OpenSourceShard['index']) => {
    const found = new Map<number, Match>();
    for (const result of index.search(request.text, searchOptions)) {
      const matched = new Set(result.terms);
      found.set(result.id as number, { score: result.score, exact: words.every((word) => matched.has(word)) });
    }
    return found;
  };
  const sourceMatches = new Map<number, Map<number, Match>>();
  const hits: SearchHit[] = [];
  targets.forEach((shard, shardOrder) => {
    const sourceShard = sources.get(shard.data.bucket);
    let fromSources: Map<number, Match> | undefined;
    if (request.scope !== 'target') {
      if (!sourceShard) throw new Error(`search: the source shard of bucket ${shard.data.bucket} is not loaded`);
      fromSources = sourceMatches.get(shard.data.bucket);
      if (!fromSources) {
        fromSources = request.routing && !request.routing.source(shard.data.bucket) ? new Map() : search(sourceShard.index);
        sourceMatches.set(shard.data.bucket, fromSources);
      }
    }
    const fromTargets =
      request.scope === 'source' ? undefined : request.routing && !request.routing.target(shard) ? new Map<number, Match>() : search(shard.index);
    const units = new Set<number>(fromTargets?.keys());
    if (fromSources) for (const sourceId of fromSources.keys()) for (const unit of shard.unitsBySource.get(sourceId) ?? []) units.add(unit);

    const { component, state, source } = shard.data.units;
    for (const unit of units) {
      if (request.components && !request.components.has(component[unit]!)) continue;
      if (request.states && !request.states.has(state[unit]!)) continue;
      const bySource = fromSources?.get(source[unit]!);
      const byTarget = fromTargets?.get(unit);
      const sourceTier = bySource?.exact && sourceShard ? phraseTier(sourcePhrase(sourceShard, source[unit]!), phrase) : tiers.terms;
      const targetTier = byTarget?.exact ? phraseTier(targetPhrase(shard, unit), phrase) : tiers.terms;
      const tier = sourceTier < targetTier ? sourceTier : targetTier;
      hits.push({ shard, unit, score: (bySource?.score ?? 0) + (byTarget?.score ?? 0), tier, order: shardOrder * 2 ** 26 + unit });
    }
  });
  return hits.sort(compareRanked);
}

interface Match {
  score: number;
  /** Every word of the query is one of the text's words (not only a prefix or a near miss). */
  exact: boolean;
}

function sourcePhrase(shard: OpenSourceShard, id: number): string {
  return (shard.phrases[id] ??= phraseForm(joinForms(shard.data.texts[id] ?? [])));
}

function targetPhrase(shard: OpenTargetShard, unit: number): string {
  return (shard.phrases[unit] ??= phraseForm(joinForms(shard.data.units.target[unit] ?? [])));
}
