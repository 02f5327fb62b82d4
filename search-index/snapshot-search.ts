/**
 * Searching a snapshot directly, without a built site: the shards the filters need are built
 * in memory from the snapshot and queried with the same rules as the site.
 */
import { stateLabel, stateWords } from '../api/states.ts';
import { searchRecords, siteUnitHref } from '../site-model/search-input.ts';
import { decodeLink, type Snapshot } from '../snapshot/index.ts';
import type { RecordSource } from '../site-model/records.ts';
import { resolveFilters, type FilterInput } from '../search/filters.ts';
import type { SearchManifest, TargetShardData } from '../search/format.ts';
import { canMatch, type ShardRouting } from '../search/plan.ts';
import { searchShards, type SearchScope } from '../search/query.ts';
import { openSourceShard, openTargetShard, sourceTerms, targetTerms, unitHref, type OpenSourceShard, type OpenTargetShard } from '../search/shards.ts';
import { RouteTest, shardRoute } from '../search/routing.ts';
import { planSearch, streamShards, type SearchableSnapshot } from './shard-stream.ts';
import { tokenize } from '../search/text.ts';

export interface SnapshotQuery {
  text: string;
  scope: SearchScope;
  filters: FilterInput;
  onProgress?: (message: string) => void;
}

export interface SnapshotResult {
  language: string;
  project: string;
  component: string;
  state: number;
  state_name: string;
  source: string[];
  target: string[];
  /** The unit's page on the live server. */
  web_url: string;
  /** The unit's id on the server, its `id_hash` (a signed 64-bit integer) and its position in the translation. */
  id: number;
  id_hash: bigint;
  position: number;
  /** The unit's permalink on the built site, relative to the site root: its unit page plus anchor. */
  site_path: string;
}

/** Whether a query without text lists strings: a state, a flag, a project or a component is asked for (a language alone is not enough). */
export function listsStrings(filters: FilterInput): boolean {
  return [filters.states, filters.has, filters.projects, filters.components].some((values) => (values?.length ?? 0) > 0);
}

/** Thrown when a filter names nothing in the snapshot: bad input, reported as such. */
export class FilterError extends Error {
  override name = 'FilterError';
}

const knownStates = stateWords.map((words): [number, string] => [words.state, words.label]);

export async function searchSnapshot(
  snapshot: SearchableSnapshot & RecordSource & Pick<Snapshot, 'linkBase'>,
  query: SnapshotQuery,
): Promise<SnapshotResult[]> {
  // The site's records and links: a hit names the unit page the built site would show it on.
  const plan = planSearch(await searchRecords(snapshot));
  const { numbering } = plan;
  const manifest: Pick<SearchManifest, 'projects' | 'components' | 'languages' | 'states'> = { ...numbering, states: knownStates };
  const filters = resolveFilters(manifest, query.filters);
  if (filters.problems.length > 0) throw new FilterError(filters.problems.join('; '));

  const reported: Pick<SnapshotResult, 'id' | 'id_hash' | 'position' | 'site_path' | 'web_url'>[] = [];
  const sources = new Map<number, OpenSourceShard>();
  const targets: OpenTargetShard[] = [];
  const shards = streamShards(snapshot, plan, {
    // The CLI's shards stay in memory: each unit's "href" is its row in this table, which
    // holds what a result reports (the site's shards keep only the site link).
    unitHref: (place) => {
      const { unit } = place;
      reported.push({
        id: unit.id,
        id_hash: unit.id_hash,
        position: unit.position,
        site_path: siteUnitHref(place),
        web_url: decodeLink(unit.web_url, snapshot.linkBase),
      });
      return String(reported.length - 1);
    },
    selection: { languages: filters.languages, components: filters.components },
    ...(query.onProgress ? { onProgress: query.onProgress } : {}),
  });
  // The site's routing rules (search/routing.ts), applied as each bucket's shards are built:
  // only shards where the query can match are opened and searched. A bucket's source shard
  // comes after its target shards, so those wait for it.
  const terms = tokenize(query.text);
  // No text, with a filter beyond languages: every unit the filters let through (strings by
  // state, flag or component, as the site's search page lists them; docs/search.md).
  const list = terms.length === 0 && listsStrings(query.filters);
  const holds = (shardTerms: Set<string>) => terms.length > 0 && new RouteTest(shardRoute(shardTerms)).holdsAll(terms);
  let waiting: TargetShardData[] = [];
  for await (const shard of shards) {
    if (shard.kind === 'target') {
      waiting.push(shard.data);
      continue;
    }
    const fromSources = holds(sourceTerms(shard.data));
    const routing: ShardRouting = { scope: query.scope, source: () => fromSources, target: (position) => holds(targetTerms(waiting[position]!)) };
    const wanted = list ? waiting : waiting.filter((_, position) => canMatch(routing, shard.data.bucket, position));
    if (wanted.length > 0) {
      sources.set(shard.data.bucket, openSourceShard(shard.data));
      targets.push(...wanted.map((data) => openTargetShard(data)));
    }
    waiting = [];
  }

  const hits = searchShards(
    { text: query.text, scope: query.scope, components: filters.components, states: filters.states, has: filters.has, list },
    sources,
    targets,
  );
  return hits.map(({ shard, unit }) => {
    const { units } = shard.data;
    const component = numbering.components[units.component[unit]!]!;
    const state = units.state[unit]!;
    return {
      language: numbering.languages[shard.data.language]!.code,
      project: numbering.projects[component.project]!.slug,
      component: component.slug,
      state,
      state_name: stateLabel(state),
      source: sources.get(shard.data.bucket)?.data.texts[units.source[unit]!] ?? [],
      target: units.target[unit] ?? [],
      ...reported[Number(unitHref(shard.data, unit))]!,
    };
  });
}
