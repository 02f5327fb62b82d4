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

/**
 * One query's hits grouped as its shards are searched: each shard's list of hits is added
 * once (the page passes every searched shard's list on every slice), and the groups are
 * ranked again only when a list was added, the hits of the groups it added to alone.
 */
export class HitGroups {
  readonly #added = new Set<readonly SearchHit[]>();
  readonly #groups = new Map<string, HitGroup>();
  /** Groups given hits since they were last ranked: only their hits are sorted again. */
  readonly #changed = new Set<HitGroup>();
  #ranked: HitGroup[] = [];

  add(lists: readonly (readonly SearchHit[])[]): void {
    for (const list of lists) {
      if (this.#added.has(list)) continue;
      this.#added.add(list);
      for (const hit of list) {
        const key = groupKey(hit);
        let group = this.#groups.get(key);
        if (group) group.hits.push(hit);
        else this.#groups.set(key, (group = { key, hits: [hit] }));
        this.#changed.add(group);
      }
    }
  }

  /** How many groups there are. */
  get size(): number {
    return this.#groups.size;
  }

  /** The groups, best first. */
  ranked(): readonly HitGroup[] {
    if (this.#changed.size > 0) {
      for (const group of this.#changed) group.hits.sort(compareRanked);
      this.#changed.clear();
      this.#ranked = [...this.#groups.values()];
      this.#ranked.sort((a, b) => compareRanked(a.hits[0]!, b.hits[0]!));
    }
    return this.#ranked;
  }
}
