/**
 * Which units go in which shard, and which shards a query needs. Pure functions over counts:
 * the build plans once, the browser and the CLI pick shards from the plan.
 */
import type { HasFilter, SearchManifest } from './format.ts';
import type { SearchScope } from './query.ts';

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
  /** Unit states; a shard holding none of them is not read. */
  states?: ReadonlySet<number> | undefined;
  /** Flags every unit found has; a shard where no unit has them all is not read. */
  has?: ReadonlySet<HasFilter> | undefined;
}

/** What a query can match, shard by shard (`search/routing.ts`), and where it looks. */
export interface ShardRouting {
  scope: SearchScope;
  /** Whether the query can match a source string of `bucket`. */
  source(bucket: number): boolean;
  /** Whether it can match a target of `manifest.targets[position]`. */
  target(position: number): boolean;
}

/**
 * The shards a query with these filters reads: target shards of the wanted languages in
 * buckets holding a wanted component, and the source shards of those buckets. `routeShards`
 * with a routing keeps only target shards where the query can match, through their targets or through
 * their bucket's sources (a source match is a match in every language of the bucket), and
 * the source shards of their buckets (results show the source text).
 */
export function selectShards(manifest: SearchManifest, selection: ShardSelection): { buckets: number[]; targets: SearchManifest['targets'] } {
  const { buckets, targets } = routeShards(manifest, selection);
  return { buckets, targets };
}

/** `selectShards` with routing, and the targets' positions in the manifest. */
export function routeShards(
  manifest: SearchManifest,
  selection: ShardSelection,
  routing?: ShardRouting,
): { buckets: number[]; targets: SearchManifest['targets']; positions: number[] } {
  const { components, languages, states, has } = selection;
  const positions: number[] = [];
  manifest.targets.forEach((target, position) => {
    if (languages && !languages.has(target.language)) return;
    if (states && !target.states.some((state) => states.has(state))) return;
    if (has && [...has].some((flag) => !target.has.includes(flag))) return;
    if (components && !(manifest.buckets[target.bucket]?.components ?? []).some((component) => components.has(component))) return;
    if (routing && !canMatch(routing, target.bucket, position)) return;
    positions.push(position);
  });
  const targets = positions.map((position) => manifest.targets[position]!);
  return { buckets: [...new Set(targets.map((target) => target.bucket))], targets, positions };
}

/** Whether a query can find a unit of a target shard: by its target, or by its source. */
export function canMatch(routing: ShardRouting, bucket: number, position: number): boolean {
  return (routing.scope !== 'source' && routing.target(position)) || (routing.scope !== 'target' && routing.source(bucket));
}
