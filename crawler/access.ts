/**
 * Access limits (docs/crawl.md, "Access limits"). A 401/403 on one object's sub-resource means
 * the same for every sibling under the same credentials: an anonymous client gets 403 on every
 * `repository/` of a real server. So the first request of each resource pattern goes alone;
 * once it answers, its siblings either run (readable) or are never sent (denied, recorded once
 * in the manifest's `access`). An anonymous crawl spends one 403 per pattern, not one per object.
 */
import { type ApiPath, formatApiPath, parseApiPath } from '../api/paths.ts';
import type { AccessProblem } from '../snapshot/index.ts';
import type { AccessDeniedError } from './errors.ts';
import type { ProblemLog } from './queue/problem-log.ts';
import type { Task } from './queue/task.ts';

/**
 * The resource pattern of a path (relative to the API root): each key of its object written `*`,
 * e.g. `components/*` + `/*` + `/lock/`. The manifest records it as an access limit's `kind`.
 */
export function resourcePattern(path: string, parsed: ApiPath | undefined = parseApiPath(path)): string {
  if (parsed === undefined) return path;
  const pattern: ApiPath = { ...parsed };
  for (const key of ['project', 'component', 'language', 'id'] as const) if (pattern[key] !== undefined) pattern[key] = '*';
  return formatApiPath(pattern);
}

export class AccessRules {
  /** Pattern → URL of the one request finding out whether that pattern is readable. */
  readonly #probing = new Map<string, string>();
  readonly #readable = new Set<string>();

  readonly problems: ProblemLog;

  constructor(problems: ProblemLog) {
    this.problems = problems;
  }

  patternOf(task: Task): string {
    return resourcePattern(task.path, task.parsed);
  }

  /** Whether `task` must wait: a sibling of its pattern is the one finding out. */
  waits(task: Task): boolean {
    const probe = this.#probing.get(this.patternOf(task));
    return probe !== undefined && probe !== task.url;
  }

  /** The recorded denial of `task`'s pattern, if the credentials may not read it. */
  denied(task: Task): AccessProblem | undefined {
    return this.problems.denied.get(this.patternOf(task));
  }

  /** `task` is about to be sent: the first of a pattern not yet known readable goes alone. */
  start(task: Task): void {
    const pattern = this.patternOf(task);
    if (!this.#readable.has(pattern) && !this.#probing.has(pattern)) this.#probing.set(pattern, task.url);
  }

  /** `task` finished; `readable` when it got its answer. */
  finish(task: Task, readable: boolean): void {
    const pattern = this.patternOf(task);
    if (readable) this.#readable.add(pattern);
    if (this.#probing.get(pattern) === task.url) this.#probing.delete(pattern);
  }

  /** `task` answered 401/403: record its pattern once; its siblings are never sent. */
  deny(task: Task, error: AccessDeniedError): void {
    this.problems.deny({ kind: this.patternOf(task), url: task.url, status: error.status, reason: error.message });
    this.finish(task, false);
  }
}
