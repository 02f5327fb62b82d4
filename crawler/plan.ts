/**
 * What the crawler does with each link it finds: the rule that makes the crawl both complete
 * (every link field is followed or provably covered) and minimal (no record is fetched twice).
 * Pure: decided from the link's path relative to the API root and the crawl's scope.
 */

/**
 * - `root`: the API root.
 * - `records`: a paginated list of records that each have their own `url`: stored one by one,
 *   never fetched again.
 * - `units`: a paginated list of units, collected per translation.
 * - `changes`: a paginated list of changes, fetched in the crawl's time window.
 * - `resource`: anything else (statistics, repository, lock, unknown sub-resources): stored
 *   as it comes, all pages together.
 * - `file`: a raw translation file.
 * - `record`: a single record no list covers (users in a scoped crawl).
 */
export type TaskKind = 'root' | 'records' | 'units' | 'changes' | 'resource' | 'file' | 'record';

/** Tasks run in phases: the structure first, so that units and changes know every translation. */
export const phases = { root: 0, structure: 1, bulk: 2, stragglers: 3 } as const;

export interface Planned {
  kind: TaskKind;
  phase: number;
}

export interface CrawlScope {
  /** Project slugs as they appear in API paths; undefined: the whole instance. */
  projects?: ReadonlySet<string> | undefined;
}

const structure = (kind: TaskKind): Planned => ({ kind, phase: phases.structure });

/**
 * The plan for the path of a link under the API root (`projects/foo/statistics/`, no query),
 * or `undefined` when the link needs no request: its content arrives through a list that is
 * crawled anyway (a project's `components/` holds what `/api/components/` holds), or it lies
 * outside the scope.
 */
export function planLink(path: string, scope: CrawlScope): Planned | undefined {
  const whole = scope.projects === undefined;
  const inScope = (project: string | undefined) => whole || (project !== undefined && (scope.projects?.has(project) ?? false));
  const segments = path.split('/').slice(0, -1);
  if (!path.endsWith('/') && path !== '') return whole ? structure('resource') : undefined;
  const [collection, a, b, c, d, e] = segments;
  if (collection === undefined) return { kind: 'root', phase: phases.root };

  switch (collection) {
    case 'languages':
      if (a === undefined) return structure('records');
      if (b === undefined) return undefined;
      return whole && c === undefined ? structure('resource') : undefined;
    case 'projects':
      if (a === undefined) return structure('records');
      if (!inScope(a) || b === undefined) return undefined;
      if (b === 'components') return whole ? undefined : structure('records');
      if (b === 'changes') return whole ? undefined : { kind: 'changes', phase: phases.bulk };
      return c === undefined ? structure('resource') : undefined;
    case 'components':
      if (a === undefined) return whole ? structure('records') : undefined;
      if (!inScope(a) || b === undefined || c === undefined) return undefined;
      if (c === 'translations') return whole ? undefined : structure('records');
      if (c === 'changes') return undefined;
      return d === undefined ? structure('resource') : undefined;
    case 'translations':
      if (a === undefined) return whole ? structure('records') : undefined;
      if (!inScope(a) || b === undefined || c === undefined || d === undefined) return undefined;
      if (d === 'units' || d === 'changes') return undefined;
      if (d === 'file') return e === undefined ? structure('file') : undefined;
      return e === undefined ? structure('resource') : undefined;
    case 'units':
      return a === undefined && whole ? { kind: 'units', phase: phases.bulk } : undefined;
    case 'changes':
      return a === undefined && whole ? { kind: 'changes', phase: phases.bulk } : undefined;
    case 'users':
      if (a === undefined) return whole ? structure('records') : undefined;
      if (b === undefined) return whole ? undefined : { kind: 'record', phase: phases.stragglers };
      return c === undefined ? structure('resource') : undefined;
    default:
      // Collections the description does not detail (groups, roles, memory, screenshots,
      // add-ons, component lists, and whatever newer servers add) are instance-wide; their
      // list holds each item, so only an item's own sub-resources need a request.
      if (!whole || (a !== undefined && b === undefined)) return undefined;
      return structure('resource');
  }
}
