/**
 * One query over open shards: source matches reach every translation of that source, target
 * matches are per unit, and hits are ranked whole text, then exact phrase, then score.
 */
import { compareRanked, joinForms, phraseForm, phraseTier, searchOptions, tiers, type Ranked } from './matching.ts';
import type { OpenSourceShard, OpenTargetShard } from './shards.ts';
import { tokenize } from './text.ts';

export const searchScopes = ['both', 'source', 'target'] as const;
export type SearchScope = (typeof searchScopes)[number];

export interface SearchRequest {
  text: string;
  scope: SearchScope;
  /** Only units of these components (manifest positions); all when absent. */
  components?: ReadonlySet<number> | undefined;
  states?: ReadonlySet<number> | undefined;
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
  if (tokenize(request.text).length === 0) return [];
  const phrase = phraseForm(request.text);
  const sourceScores = new Map<number, Map<number, number>>();
  const hits: SearchHit[] = [];
  targets.forEach((shard, shardOrder) => {
    const scores = new Map<number, number>();
    const sourceShard = sources.get(shard.data.bucket);
    if (request.scope !== 'target') {
      if (!sourceShard) throw new Error(`search: the source shard of bucket ${shard.data.bucket} is not loaded`);
      let matched = sourceScores.get(shard.data.bucket);
      if (!matched) {
        matched = new Map(sourceShard.index.search(request.text, searchOptions).map((result) => [result.id as number, result.score]));
        sourceScores.set(shard.data.bucket, matched);
      }
      for (const [source, score] of matched) for (const unit of shard.unitsBySource.get(source) ?? []) scores.set(unit, score);
    }
    if (request.scope !== 'source') {
      for (const result of shard.index.search(request.text, searchOptions)) {
        const unit = result.id as number;
        scores.set(unit, (scores.get(unit) ?? 0) + result.score);
      }
    }
    const { component, state, source } = shard.data.units;
    for (const [unit, score] of scores) {
      if (request.components && !request.components.has(component[unit]!)) continue;
      if (request.states && !request.states.has(state[unit]!)) continue;
      const sourceTier = request.scope !== 'target' && sourceShard ? phraseTier(sourcePhrase(sourceShard, source[unit]!), phrase) : tiers.terms;
      const targetTier = request.scope !== 'source' ? phraseTier(targetPhrase(shard, unit), phrase) : tiers.terms;
      const tier = sourceTier < targetTier ? sourceTier : targetTier;
      hits.push({ shard, unit, score, tier, order: shardOrder * 2 ** 26 + unit });
    }
  });
  return hits.sort(compareRanked);
}

function sourcePhrase(shard: OpenSourceShard, id: number): string {
  return (shard.phrases[id] ??= phraseForm(joinForms(shard.data.texts[id] ?? [])));
}

function targetPhrase(shard: OpenTargetShard, unit: number): string {
  return (shard.phrases[unit] ??= phraseForm(joinForms(shard.data.units.target[unit] ?? [])));
}
