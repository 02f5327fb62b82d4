import { type ApiPath, parseApiPath } from '../../api/paths.ts';
import type { RequestKind } from '../../snapshot/index.ts';
import { rootPath } from '../links.ts';
import type { TaskType } from '../plan.ts';
import { type CrawlJournal, journalTask, queuedTask } from './journal.ts';

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
  return { ...stripUndefined(task), path, parsed: parseApiPath(path) };
}

/** What a finished task cost: requests made, the minimum it implied, and the kind they are counted under (`CrawlStatistics`). */
export interface TaskCost {
  made: number;
  minimum: number;
  requests?: RequestKind | undefined;
}

/**
 * The crawl's request queue: tasks keyed by canonical URL and de-duplicated, run lowest phase
 * first in the order queued, persisted in the crawl's journal so a crawl killed at any point
 * (SIGKILL included) resumes where it stopped. It holds tasks only: what a finished task cost
 * is `CrawlStatistics`'s, what went wrong `ProblemLog`'s.
 */
export class RequestQueue {
  readonly #journal: CrawlJournal;
  readonly #tasks = new Map<string, Task>();
  /** Unfinished tasks by phase, each in the order queued. */
  readonly #pending = new Map<number, Map<string, Task>>();
  #pendingCount = 0;

  constructor(
    journal: CrawlJournal,
    readonly apiRoot: URL,
  ) {
    this.#journal = journal;
    journal.read((event) => {
      if ('add' in event) this.#add(parsedTask(queuedTask(event.add), apiRoot));
      else if ('done' in event) this.#done(event.done);
    });
  }

  #add(added: Task): void {
    this.#tasks.set(added.url, added);
    let phase = this.#pending.get(added.phase);
    if (phase === undefined) this.#pending.set(added.phase, (phase = new Map()));
    if (!phase.has(added.url)) this.#pendingCount++;
    phase.set(added.url, added);
  }

  #done(url: string): void {
    const finished = this.#tasks.get(url);
    if (finished !== undefined && this.#pending.get(finished.phase)?.delete(url)) this.#pendingCount--;
  }

  /** Queues a task unless its URL was ever queued; says whether it was new. */
  add(added: NewTask): boolean {
    if (this.#tasks.has(added.url)) return false;
    this.#journal.record({ add: journalTask(added) });
    return true;
  }

  /** Marks a task finished; its cost is journalled on the same line (`CrawlStatistics` counts it). */
  done(url: string, cost: TaskCost): void {
    this.#journal.record(
      cost.requests === undefined
        ? { done: url, made: cost.made, minimum: cost.minimum }
        : { done: url, made: cost.made, minimum: cost.minimum, requests: cost.requests },
    );
  }

  /** The first unfinished task, lowest phase first and in the order queued, that is at most `maxPhase` and not skipped. */
  next(maxPhase: number, skip: (task: Task) => boolean): Task | undefined {
    for (const phase of [...this.#pending.keys()].sort((a, b) => a - b)) {
      if (phase > maxPhase) return undefined;
      for (const task of this.#pending.get(phase)?.values() ?? []) if (!skip(task)) return task;
    }
    return undefined;
  }

  /** Every unfinished task, lowest phase first. */
  *pending(): Iterable<Task> {
    for (const phase of [...this.#pending.keys()].sort((a, b) => a - b)) yield* this.#pending.get(phase)?.values() ?? [];
  }

  get pendingCount(): number {
    return this.#pendingCount;
  }
}

function stripUndefined(value: NewTask): NewTask {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as unknown as NewTask;
}
