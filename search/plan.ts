/**
 * Which units go in which shard, and which shards a query needs. Pure functions over counts:
 * the build plans once, the browser and the CLI pick shards from the plan.
 */
import type { SearchManifest } from './format.ts';

export interface ComponentSize {
  component: number;
  /** Units in the component's largest translation: about how many distinct sources it has. */
  units: number;
}

/**
 * Groups components, in the order given (the numbering's: by project), into buckets of at most
 * `limit` units per language, so a shard stays small enough to fetch and parse at once. A
 * component larger than the limit gets a bucket of its own rather than being split: its units
 * share one page sequence and one source table.
 */
export function planBuckets(components: readonly ComponentSize[], limit: number): number[][] {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Expected the units per shard to be an integer from 1 and up, got ${limit}`);
  const buckets: number[][] = [];
  let current: number[] = [];
  let size = 0;
  for (const { component, units } of components) {
    if (current.length > 0 && size + units > limit) {
      buckets.push(current);
      current = [];
      size = 0;
    }
    current.push(component);
    size += units;
  }
  if (current.length > 0) buckets.push(current);
  return buckets;
}

export interface ShardSelection {
  /** Language positions in the manifest; every language when absent. */
  languages?: ReadonlySet<number> | undefined;
  /** Component positions in the manifest; every component when absent. */
  components?: ReadonlySet<number> | undefined;
}

/**
 * The shards a query with these filters reads: target shards of the wanted languages in
 * buckets holding a wanted component, and the source shards of those buckets.
 */
export function selectShards(manifest: SearchManifest, selection: ShardSelection): { buckets: number[]; targets: SearchManifest['targets'] } {
  const { components, languages } = selection;
  const targets = manifest.targets.filter(
    (target) =>
      (!languages || languages.has(target.language)) &&
      (!components || (manifest.buckets[target.bucket]?.components ?? []).some((component) => components.has(component))),
  );
  return { buckets: [...new Set(targets.map((target) => target.bucket))], targets };
}
