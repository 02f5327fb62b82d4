import type { RequestKind } from '../../snapshot/index.ts';
import { type CrawlJournal, journalTask, queuedTask } from './journal.ts';
import { parsedTask, type NewTask, type Task } from './task.ts';

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

  readonly apiRoot: URL;

  constructor(journal: CrawlJournal, apiRoot: URL) {
    this.apiRoot = apiRoot;
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
