/**
 * Hits grouped by source string: one group per source text of a component (its unit in
 * every language shares it), ranked by its best hit, its translations in rank order
 * (docs/search.md, "The page").
 */
import { compareRanked } from '../../../search/matching.ts';
import type { SearchHit } from '../../../search/query.ts';

export interface HitGroup {
  /** Bucket, component and source string number: a source string of one component. */
  key: string;
  /** Best first. */
  hits: SearchHit[];
}

function groupKey(hit: SearchHit): string {
  const { bucket, units } = hit.shard.data;
  return `${bucket} ${units.component[hit.unit]} ${units.source[hit.unit]}`;
}

/** The hits of `lists` grouped by source string, best group first. */
export function groupHits(lists: readonly (readonly SearchHit[])[]): HitGroup[] {
  const groups = new Map<string, HitGroup>();
  for (const list of lists)
    for (const hit of list) {
      const key = groupKey(hit);
      const group = groups.get(key);
      if (group) group.hits.push(hit);
      else groups.set(key, { key, hits: [hit] });
    }
  const ranked = [...groups.values()];
  for (const group of ranked) group.hits.sort(compareRanked);
  return ranked.sort((a, b) => compareRanked(a.hits[0]!, b.hits[0]!));
}
