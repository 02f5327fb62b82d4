import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { type AccessProblem, accessProblem, type Problem, problem, type RequestCount, type RequestKind, requestKinds } from '../../snapshot/schemas.ts';
import { type TaskKind, taskKinds } from '../plan.ts';

/** One request (or, for a `resource`, one chain of pages) the crawl still has to make. */
export interface Task {
  /** The canonical URL it fetches: the de-duplication key. */
  url: string;
  kind: TaskKind;
  phase: number;
  /** A page the first page already counted and fanned out: its `next` is not followed. */
  page?: boolean | undefined;
  /** Units of one project through `/api/units/?q=project:…`: checked to be what was asked for. */
  project?: string | undefined;
}

const task = z.object({
  url: z.string(),
  kind: z.enum(taskKinds),
  phase: z.number().int(),
  page: z.boolean().optional(),
  project: z.string().optional(),
});

/** The journal is a log of events; the crawl's state is their fold. */
const event = z.union([
  z.object({ started: z.string() }),
  z.object({ add: task }),
  z.object({ done: z.string(), made: z.number().int(), minimum: z.number().int(), requests: z.enum(requestKinds).optional() }),
  z.object({ translation: z.string(), project: z.string() }),
  z.object({ unitsPerTranslation: z.string() }),
  z.object({ problem }),
  z.object({ denied: accessProblem }),
  z.object({ skipped: z.string(), kind: z.string().optional(), reason: z.string().optional() }),
  z.object({ total: z.string(), units: z.number().int() }),
]);
type Event = z.infer<typeof event>;

/**
 * The crawl's request queue, persisted as an append-only journal so a crawl killed at any
 * point (SIGKILL included) resumes where it stopped: requests keyed by canonical URL and
 * de-duplicated, what each finished one cost, and the few facts later phases need.
 * Appends are synchronous so that the journal's order is the order things happened.
 */
export class RequestQueue {
  readonly started: string;
  readonly #path: string;
  readonly #tasks = new Map<string, Task>();
  /** Unfinished tasks by phase, each in the order queued. */
  readonly #pending = new Map<number, Map<string, Task>>();
  #pendingCount = 0;
  /** Translation URL → project path segment, for every translation record stored. */
  readonly translations = new Map<string, string>();
  /** Projects whose server ignored `q=project:…`: their units are fetched per translation. */
  readonly unitsPerTranslation = new Set<string>();
  readonly problems: Problem[] = [];
  /** Kinds of resource the credentials may not read, by kind (`access.ts`). */
  readonly denied = new Map<string, AccessProblem>();
  /**
   * URLs not fetched on purpose, in the order skipped, each with its kind and why: statistics of
   * languages no translation uses (no reason given), resources too long to hold (`tasks/resource.ts`).
   */
  readonly skipped = new Map<string, { kind?: string | undefined; reason?: string | undefined }>();
  /** Translation URL → its record's `total`: how many units its list must hold. */
  readonly totals = new Map<string, number>();
  made = 0;
  minimum = 0;
  /** Requests made and needed, by kind of request. */
  readonly byKind = new Map<RequestKind, RequestCount>();

  private constructor(path: string, started: string) {
    this.#path = path;
    this.started = started;
  }

  /** Opens (replaying) the journal at `path`, or starts one with `started` as the crawl's start time. */
  static open(path: string, started: string): RequestQueue {
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      // No journal yet: a fresh crawl.
    }
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    // A kill mid-append leaves half a line; cut it so the next append starts on a fresh line.
    if (complete !== text) writeFileSync(path, complete);
    const events = complete
      .split('\n')
      .filter((line) => line !== '')
      .map((line, index) => {
        const parsed = event.safeParse(JSON.parse(line));
        if (!parsed.success)
          throw new Error(
            `${path}, line ${index + 1}: not a crawl journal entry (${parsed.error.issues[0]?.message}); delete the .partial snapshot to start over`,
          );
        return parsed.data;
      });
    const first = events[0];
    const queue = new RequestQueue(path, first !== undefined && 'started' in first ? first.started : started);
    if (events.length === 0) queue.#append({ started });
    for (const entry of events) queue.#apply(entry);
    return queue;
  }

  #apply(entry: Event): void {
    if ('add' in entry) {
      const added = stripUndefined(entry.add);
      this.#tasks.set(added.url, added);
      let phase = this.#pending.get(added.phase);
      if (phase === undefined) this.#pending.set(added.phase, (phase = new Map()));
      if (!phase.has(added.url)) this.#pendingCount++;
      phase.set(added.url, added);
    } else if ('done' in entry) {
      const finished = this.#tasks.get(entry.done);
      if (finished !== undefined && this.#pending.get(finished.phase)?.delete(entry.done)) this.#pendingCount--;
      this.made += entry.made;
      this.minimum += entry.minimum;
      const kind = entry.requests ?? 'other';
      const sum = this.byKind.get(kind) ?? { made: 0, minimum: 0 };
      this.byKind.set(kind, { made: sum.made + entry.made, minimum: sum.minimum + entry.minimum });
    } else if ('translation' in entry) {
      this.translations.set(entry.translation, entry.project);
    } else if ('unitsPerTranslation' in entry) {
      this.unitsPerTranslation.add(entry.unitsPerTranslation);
    } else if ('problem' in entry) {
      this.problems.push(entry.problem);
    } else if ('denied' in entry) {
      if (!this.denied.has(entry.denied.kind)) this.denied.set(entry.denied.kind, entry.denied);
    } else if ('skipped' in entry) {
      this.skipped.set(entry.skipped, { kind: entry.kind, reason: entry.reason });
    } else if ('total' in entry) {
      this.totals.set(entry.total, entry.units);
    }
  }

  #append(entry: Event): void {
    appendFileSync(this.#path, `${JSON.stringify(entry)}\n`);
  }

  #record(entry: Event): void {
    this.#append(entry);
    this.#apply(entry);
  }

  /** Queues a task unless its URL was ever queued; says whether it was new. */
  add(added: Task): boolean {
    if (this.#tasks.has(added.url)) return false;
    this.#record({ add: stripUndefined(added) });
    return true;
  }

  done(url: string, cost: { made: number; minimum: number; requests?: RequestKind | undefined }): void {
    this.#record(cost.requests === undefined ? { done: url, made: cost.made, minimum: cost.minimum } : { done: url, ...cost, requests: cost.requests });
  }

  addTranslation(url: string, project: string): void {
    if (this.translations.get(url) !== project) this.#record({ translation: url, project });
  }

  markUnitsPerTranslation(project: string): void {
    if (!this.unitsPerTranslation.has(project)) this.#record({ unitsPerTranslation: project });
  }

  problem(found: Problem): void {
    this.#record({ problem: found });
  }

  /** Records that `url` is not fetched on purpose; a statistics of an unused language unless `why` says otherwise. */
  skip(url: string, why?: { kind: string; reason: string }): void {
    if (!this.skipped.has(url)) this.#record({ skipped: url, ...why });
  }

  /** Records how many units a translation's record says it has. */
  setTotal(translation: string, units: number): void {
    if (this.totals.get(translation) !== units) this.#record({ total: translation, units });
  }

  /** Records that a kind of resource is not readable with these credentials (once per kind). */
  deny(found: AccessProblem): void {
    if (!this.denied.has(found.kind)) this.#record({ denied: found });
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

function stripUndefined(value: Task): Task {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as unknown as Task;
}
