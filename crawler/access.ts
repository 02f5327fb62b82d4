/**
 * Access limits (docs/crawl.md, "Access limits"). A 401/403 on one object's sub-resource means
 * the same for every sibling under the same credentials: an anonymous client gets 403 on every
 * `repository/` of a real server. So the first request of each kind of resource goes alone;
 * once it answers, its siblings either run (readable) or are never sent (denied, recorded once
 * in the manifest's `access`). An anonymous crawl spends one 403 per kind, not one per object.
 */
import { type ApiPath, formatApiPath, parseApiPath } from '../api/paths.ts';
import type { AccessProblem } from '../snapshot/index.ts';
import type { AccessDeniedError } from './errors.ts';
import type { ProblemLog } from './queue/problem-log.ts';
import type { Task } from './queue/request-queue.ts';

/** The kind of resource a path (relative to the API root) names: each key of its object written `*`, e.g. `components/*` + `/*` + `/lock/`. */
export function accessKind(path: string, parsed: ApiPath | undefined = parseApiPath(path)): string {
  if (parsed === undefined) return path;
  const kind: ApiPath = { ...parsed };
  for (const key of ['project', 'component', 'language', 'id'] as const) if (kind[key] !== undefined) kind[key] = '*';
  return formatApiPath(kind);
}

export class AccessRules {
  /** Kind → URL of the one request finding out whether that kind is readable. */
  readonly #probing = new Map<string, string>();
  readonly #readable = new Set<string>();

  constructor(readonly problems: ProblemLog) {}

  kindOf(task: Task): string {
    return accessKind(task.path, task.parsed);
  }

  /** Whether `task` must wait: a sibling of its kind is the one finding out. */
  waits(task: Task): boolean {
    const probe = this.#probing.get(this.kindOf(task));
    return probe !== undefined && probe !== task.url;
  }

  /** The recorded denial of `task`'s kind, if the credentials may not read it. */
  denied(task: Task): AccessProblem | undefined {
    return this.problems.denied.get(this.kindOf(task));
  }

  /** `task` is about to be sent: the first of a kind not yet known readable goes alone. */
  start(task: Task): void {
    const kind = this.kindOf(task);
    if (!this.#readable.has(kind) && !this.#probing.has(kind)) this.#probing.set(kind, task.url);
  }

  /** `task` finished; `readable` when it got its answer. */
  finish(task: Task, readable: boolean): void {
    const kind = this.kindOf(task);
    if (readable) this.#readable.add(kind);
    if (this.#probing.get(kind) === task.url) this.#probing.delete(kind);
  }

  /** `task` answered 401/403: record its kind once; its siblings are never sent. */
  deny(task: Task, error: AccessDeniedError): void {
    this.problems.deny({ kind: this.kindOf(task), url: task.url, status: error.status, reason: error.message });
    this.finish(task, false);
  }
}
