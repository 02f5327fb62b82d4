/** A crawl task: what the queue hands out and the journal records (docs/crawl.md, "Resume"). */
import { type ApiPath, parseApiPath } from '../../api/paths.ts';
import { rootPath } from '../links.ts';
import type { TaskType } from '../plan.ts';

/** A task as it is queued (and journalled): what it fetches. */
export interface NewTask {
  /** The canonical URL it fetches: the de-duplication key. */
  url: string;
  type: TaskType;
  phase: number;
  /** A page the first page already counted and fanned out: its `next` is not followed. */
  page?: boolean | undefined;
  /** Units of one project through `/api/units/?q=project:…`: checked to be what was asked for. */
  project?: string | undefined;
  /**
   * A link of a change log followed one page at a time (cursor pagination): how many changes
   * the pages before it delivered, which decides its phase (plan.ts `siteChanges`) and names
   * its place in the chain (`ChangesReach`).
   */
  delivered?: number | undefined;
}

/**
 * One request (or, for a `resource`, one chain of pages) the crawl still has to make, with its
 * URL's path parsed once, when it is queued: every part of the crawl that asks what a task
 * names (the plan of access, the incremental crawl, the handlers) reads it here.
 */
export interface Task extends NewTask {
  /** The URL's path relative to the API root, without the query (`projects/foo/statistics/`). */
  readonly path: string;
  /** What that path names (api/paths.ts); undefined when it is none of Weblate's. */
  readonly parsed: ApiPath | undefined;
}

/** `task` with its path parsed: what the queue hands out. */
export function parsedTask(task: NewTask, apiRoot: URL): Task {
  const path = rootPath(task.url, apiRoot);
  return { ...withoutUndefined<NewTask>(task), path, parsed: parseApiPath(path) };
}

/** `value` without its undefined fields, the others in their order: a task as queued, journalled or parsed. */
export function withoutUndefined<T extends object>(value: { [K in keyof T]?: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}
