/**
 * What the crawler does with each link it finds: the rule that makes the crawl both complete
 * (every link field is followed or provably covered) and minimal (no record is fetched twice).
 * Pure: decided from the link's path relative to the API root and the crawl's scope.
 */

import { parseApiPath } from '../api/paths.ts';

/**
 * The types of task, one handler each in tasks/ (a task's `type`; "kind" is what an API path
 * names, api/paths.ts):
 * - `root`: the API root.
 * - `list`: a paginated list of records that each have their own `url`: stored one by one,
 *   never fetched again.
 * - `units`: a paginated list of units, collected per translation.
 * - `changes`: a paginated list of changes, fetched in the crawl's time window.
 * - `resource`: anything else (statistics, repository, lock, unknown sub-resources): stored
 *   as it comes, all pages together.
 * - `file`: a raw translation file.
 * - `record`: a single record no list covers (users in a scoped crawl), or a list item short
 *   of its schema, fetched on its own.
 */
export const taskTypes = ['root', 'list', 'units', 'changes', 'resource', 'file', 'record'] as const;
export type TaskType = (typeof taskTypes)[number];

/**
 * Tasks run in phases: the structure first, so that units and changes know every translation.
 * Files come last: a real server commits a component's pending edits when one of its files is
 * downloaded (docs/weblate-api.md, Incremental updates), which changes the component's
 * `repository/`, its translations' revisions and units, and statistics. Read after any
 * download, those would show a state half before and half after the crawl's own commits.
 */
export const phases = { root: 0, structure: 1, bulk: 2, stragglers: 3, history: 4, downloads: 5 } as const;

/**
 * Tonight first, history after (issue 27): the phases before `history` fetch what the site needs
 * to be complete and current; `history` (the change log older than the site shows, translations'
 * sub-resources that repeat their component's) and `downloads` only the archive. A run stopped
 * (budget, `--max-requests`, `--max-duration`) once every earlier phase is done finishes its
 * snapshot holding the current state, and the next run goes on with the rest (docs/crawl.md,
 * "Tonight first").
 */
export function isHistory(phase: number): boolean {
  return phase >= phases.history;
}

/**
 * The change log the site shows: its newest 10,000 changes as pages (docs/site.md, "Changes
 * pages"). Pages of the log past these are fetched in the history phase.
 */
export const siteChanges = 10_000;

export interface Planned {
  type: TaskType;
  phase: number;
}

export interface LinkScope {
  /** Project slugs as they appear in API paths; undefined: the whole instance. */
  projects?: ReadonlySet<string> | undefined;
}

const structure = (type: TaskType): Planned => ({ type, phase: phases.structure });

/**
 * Sub-resources of projects and components that are not data of the translation's state
 * (docs/weblate-api.md, "Not crawled", seen on Weblate 5.14.3): `credits/` is a report that
 * answers 400 without `start` and `end`; `machinery_settings/` holds machine-translation
 * service keys; `file/` of a project or component is an archive of every file (translations'
 * own `file/` are fetched one by one).
 */
const notCrawled = new Set(['credits', 'machinery_settings', 'file']);

/**
 * The plan for the path of a link under the API root (`projects/foo/statistics/`, no query),
 * or `undefined` when the link needs no request: its content arrives through a list that is
 * crawled anyway (a project's `components/` holds what `/api/components/` holds), or it lies
 * outside the scope.
 */
export function planLink(path: string, scope: LinkScope): Planned | undefined {
  const whole = scope.projects === undefined;
  if (!path.endsWith('/') && path !== '') return whole ? structure('resource') : undefined;
  const parsed = parseApiPath(path);
  if (parsed === undefined) return undefined;
  const inScope = (project: string | undefined) => whole || (project !== undefined && (scope.projects?.has(project) ?? false));
  const { sub } = parsed;
  const below = sub !== undefined && parsed.rest === undefined;

  switch (parsed.kind) {
    case 'root':
      return { type: 'root', phase: phases.root };
    case 'collection':
      switch (parsed.collection) {
        case 'languages':
        case 'projects':
          return structure('list');
        case 'components':
        case 'translations':
        case 'users':
          return whole ? structure('list') : undefined;
        case 'units':
          return whole ? { type: 'units', phase: phases.bulk } : undefined;
        case 'changes':
          return whole ? { type: 'changes', phase: phases.bulk } : undefined;
        default:
          // Collections the description does not detail (groups, roles, memory, screenshots,
          // add-ons, component lists, and whatever newer servers add) are instance-wide.
          return whole ? structure('resource') : undefined;
      }
    case 'language':
      // After the structure phase, when every translation is known: a real server lists every
      // language it knows (652), and only those a translation uses have statistics worth a
      // request (the crawl skips the others, docs/crawl.md).
      return whole && below ? { type: 'resource', phase: phases.bulk } : undefined;
    case 'project':
      if (!inScope(parsed.project) || !below) return undefined;
      if (sub === 'components') return whole ? undefined : structure('list');
      if (sub === 'changes') return whole ? undefined : { type: 'changes', phase: phases.bulk };
      if (notCrawled.has(sub)) return undefined;
      return structure('resource');
    case 'component':
      if (!inScope(parsed.project) || !below) return undefined;
      if (sub === 'translations') return whole ? undefined : structure('list');
      if (sub === 'changes') return undefined;
      // Its items are its translations' statistics/ records (crawl.ts stores each at its own
      // URL), so it waits until the structure phase has stored every translation.
      if (sub === 'statistics') return { type: 'resource', phase: phases.bulk };
      if (notCrawled.has(sub)) return undefined;
      return structure('resource');
    case 'translation':
      if (!inScope(parsed.project) || !below) return undefined;
      // A translation's statistics/ is an item of its component's statistics/ list, which Weblate
      // writes with the same serializer (docs/weblate-api.md, Values): one request per component.
      if (sub === 'units' || sub === 'changes' || sub === 'statistics') return undefined;
      // Its other sub-resources (`repository/`) repeat its component's: history, not the site's.
      return sub === 'file' ? { type: 'file', phase: phases.downloads } : { type: 'resource', phase: phases.history };
    case 'user':
      if (sub === undefined) return whole ? undefined : { type: 'record', phase: phases.stragglers };
      return below ? structure('resource') : undefined;
    case 'unit':
    case 'change':
      return undefined;
    case 'item':
      // An item of an undetailed collection comes in its list; only its sub-resources need a
      // request, except a screenshot's `file/`, an image.
      return whole && sub !== undefined && sub !== 'file' ? structure('resource') : undefined;
  }
}

/**
 * `record` without the link to a file the server does not have: a translation whose `filename`
 * is empty (the source of a bilingual component with no template, such as the glossary every
 * project gets) answers 404 on `file/` (Weblate 5.14.3).
 */
export function withoutAbsentFile(record: unknown): unknown {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return record;
  const { filename, file_url: _fileUrl, ...rest } = record as Record<string, unknown>;
  return filename === '' ? { filename, ...rest } : record;
}
