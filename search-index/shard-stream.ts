/**
 * Reads a snapshot bucket by bucket and yields its shards, so that at most one language of one
 * bucket is in memory besides the bucket's source table. The site build writes what it yields;
 * the CLI opens it directly.
 */
import type { Snapshot, StoredEntry, StoredComponent, StoredProject, StoredTranslation, StoredUnit } from '../snapshot/index.ts';
import { numberRecords, type Numbering, type SearchRecords } from './numbering.ts';
import type { SourceShardData, TargetShardData } from '../search/format.ts';
import { planBuckets, type ShardSelection } from '../search/plan.ts';
import { buildSourceShard, buildTargetShard, SourceTable, type SearchUnit } from '../search/shards.ts';

/** What search reads from a snapshot besides the records it is given. */
export type SearchableSnapshot = Pick<Snapshot, 'manifest' | 'units'>;

/** Where a unit sits, for building its link. `index` is its place in position order. */
export interface UnitPlace {
  project: StoredEntry<StoredProject>;
  component: StoredEntry<StoredComponent>;
  translation: StoredEntry<StoredTranslation>;
  unit: StoredUnit;
  index: number;
}

export interface SearchPlan {
  numbering: Numbering;
  /** Component positions per bucket. */
  buckets: number[][];
}

/**
 * Most units per language in one shard. The page builds a shard's MiniSearch index before its
 * first search, so a smaller shard shows first results sooner; at 1M, 10,000 against 20,000
 * gave 419 against 616 ms to a cold Polish query (docs/decisions/2026-11-27-minisearch-index.md).
 */
export const defaultUnitsPerShard = 10_000;

export function planSearch(records: SearchRecords, unitsPerShard = defaultUnitsPerShard): SearchPlan {
  const numbering = numberRecords(records);
  const sizes = numbering.components.map((_, component) => ({ component, units: 0 }));
  for (const { component, entry } of numbering.translations) sizes[component]!.units = Math.max(sizes[component]!.units, entry.record.total);
  return { numbering, buckets: planBuckets(sizes, unitsPerShard) };
}

export type ShardOutput = { kind: 'source'; data: SourceShardData } | { kind: 'target'; data: TargetShardData; units: number };

export interface ShardStreamOptions {
  unitHref(place: UnitPlace): string;
  selection?: ShardSelection;
  onProgress?(message: string): void;
}

/**
 * Every shard of the plan that `selection` wants: per bucket, one target shard per language
 * with units, then the bucket's source shard (it holds the sources those units use).
 */
export async function* streamShards(snapshot: SearchableSnapshot, plan: SearchPlan, options: ShardStreamOptions): AsyncGenerator<ShardOutput> {
  const { numbering } = plan;
  const { languages, components } = options.selection ?? {};
  for (const [bucket, bucketComponents] of plan.buckets.entries()) {
    const inBucket = new Set(bucketComponents.filter((component) => !components || components.has(component)));
    if (inBucket.size === 0) continue;
    const byLanguage = new Map<number, typeof numbering.translations>();
    for (const translation of numbering.translations) {
      if (!inBucket.has(translation.component) || (languages && !languages.has(translation.language))) continue;
      const list = byLanguage.get(translation.language) ?? [];
      list.push(translation);
      byLanguage.set(translation.language, list);
    }
    const sources = new SourceTable();
    for (const [language, translations] of [...byLanguage].sort(([a], [b]) => a - b)) {
      options.onProgress?.(`search index: bucket ${bucket + 1}/${plan.buckets.length}, language ${numbering.languages[language]!.code}`);
      const units: SearchUnit[] = [];
      for (const translation of translations) {
        const component = numbering.componentEntries[translation.component]!;
        const project = numbering.projectEntries[numbering.components[translation.component]!.project]!;
        const stored = await snapshot.units(translation.entry.path);
        stored.forEach((unit, index) => {
          units.push({
            component: translation.component,
            source: unit.source,
            target: unit.target,
            state: unit.state,
            has: { check: unit.has_failing_check === true, suggestion: unit.has_suggestion === true },
            href: options.unitHref({ project, component, translation: translation.entry, unit, index }),
          });
        });
      }
      if (units.length > 0) yield { kind: 'target', data: buildTargetShard(bucket, language, units, sources), units: units.length };
    }
    if (sources.texts.length > 0) yield { kind: 'source', data: buildSourceShard(bucket, sources) };
  }
}
