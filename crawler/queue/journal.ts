/**
 * The crawl's journal: one append-only NDJSON file in the unfinished snapshot's `.partial`
 * folder, from which every part of the crawl's state is rebuilt after a kill (docs/crawl.md,
 * "Resume"). Each part (the queue, the statistics, the problem log, the stored translations)
 * records its own events here and reads them back through `read`; none reads another's.
 * Appends are synchronous, so the file's order is the order things happened.
 */
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { accessProblem, problem, recoverJournalSync, requestKinds } from '../../snapshot/index.ts';
import type { TaskType } from '../plan.ts';
import { type NewTask, withoutUndefined } from './task.ts';

/**
 * The journal's word for each type of task: its lines keep the words of the first format
 * (`kind`, `records`), so a `.partial` an earlier tmsnap left resumes.
 */
const journalKinds = {
  root: 'root',
  list: 'records',
  units: 'units',
  changes: 'changes',
  resource: 'resource',
  file: 'file',
  record: 'record',
} as const satisfies Record<TaskType, string>;
type JournalKind = (typeof journalKinds)[TaskType];
const taskTypeOf = Object.fromEntries(Object.entries(journalKinds).map(([type, kind]) => [kind, type])) as Record<JournalKind, TaskType>;

/** A task as the journal stores it: what it fetches, never what is derived from that. */
const storedTask = z.object({
  url: z.string(),
  kind: z.enum(Object.values(journalKinds) as [JournalKind, ...JournalKind[]]),
  phase: z.number().int(),
  page: z.boolean().optional(),
  project: z.string().optional(),
  /** Absent from journals before cursor chains of the log were counted: read as a chain's start. */
  delivered: z.number().int().optional(),
});
type StoredTask = z.infer<typeof storedTask>;

/** A task's journal line, its fields in the order the first format wrote them and none undefined. */
export function journalTask(task: NewTask): StoredTask {
  const { url, type, phase, page, project, delivered } = task;
  return withoutUndefined<StoredTask>({ url, kind: journalKinds[type], phase, page, project, delivered });
}

/** The task a journal line stores. */
export function queuedTask(stored: StoredTask): NewTask {
  const { url, kind, phase, page, project, delivered } = stored;
  return withoutUndefined<NewTask>({ url, type: taskTypeOf[kind], phase, page, project, delivered });
}

/** Every line of the journal, one shape each; the owner of each is named beside it. */
const journalEvent = z.union([
  /** The crawl's start time: the first line (the journal itself). */
  z.object({ started: z.string() }),
  /** A task queued (`RequestQueue`). */
  z.object({ add: storedTask }),
  /** A task finished (`RequestQueue`), with the requests it made and needed (`CrawlStatistics`): one line, so a kill never parts them. */
  z.object({ done: z.string(), made: z.number().int(), minimum: z.number().int(), requests: z.enum(requestKinds).optional() }),
  /** A translation record stored, under its project's path segment (`StoredTranslations`). */
  z.object({ translation: z.string(), project: z.string() }),
  /** A project whose server ignored `q=project:…` (`StoredTranslations`). */
  z.object({ unitsPerTranslation: z.string() }),
  /** A problem of the data (`ProblemLog`). */
  z.object({ problem }),
  /** A kind of resource the credentials may not read (`ProblemLog`). */
  z.object({ denied: accessProblem }),
  /** A resource not fetched on purpose (`ProblemLog`). */
  z.object({ skipped: z.string(), kind: z.string().optional(), reason: z.string().optional() }),
  /** A translation record's unit count (`StoredTranslations`). */
  z.object({ total: z.string(), units: z.number().int() }),
  /** The oldest change on a page of the change log, `<list> <page>`, or `<list> @<changes through it>` in a chain (`ChangesReach`). */
  z.object({ changesPage: z.string(), oldest: z.string() }),
]);
export type JournalEvent = z.infer<typeof journalEvent>;

export class CrawlJournal {
  readonly #path: string;
  /** The events read back when it was opened, handed to each reader as it subscribes. */
  readonly #replayed: readonly JournalEvent[];
  readonly #readers: ((event: JournalEvent) => void)[] = [];

  /** When the crawl began: kept from the first run of a resumed crawl. */
  readonly started: string;

  private constructor(path: string, started: string, replayed: readonly JournalEvent[]) {
    this.started = started;
    this.#path = path;
    this.#replayed = replayed;
  }

  /** Opens (reading back) the journal at `path`, or starts one with `started` as the crawl's start time. */
  static open(path: string, started: string): CrawlJournal {
    // A kill mid-append leaves half a line: recoverJournalSync cuts it so the next append starts on a fresh line.
    const events = recoverJournalSync(path).map((line, index) => {
      const parsed = journalEvent.safeParse(JSON.parse(line));
      if (!parsed.success)
        throw new Error(
          `${path}, line ${index + 1}: not a crawl journal entry (${parsed.error.issues[0]?.message}); delete the .partial snapshot to start over`,
        );
      return parsed.data;
    });
    const first = events[0];
    const journal = new CrawlJournal(path, first !== undefined && 'started' in first ? first.started : started, events);
    if (events.length === 0) journal.#append({ started });
    return journal;
  }

  /** Hands `reader` every event read back from the file, then every event recorded from now on. */
  read(reader: (event: JournalEvent) => void): void {
    for (const event of this.#replayed) reader(event);
    this.#readers.push(reader);
  }

  /** Appends an event and hands it to every reader. */
  record(event: JournalEvent): void {
    this.#append(event);
    for (const reader of this.#readers) reader(event);
  }

  #append(event: JournalEvent): void {
    appendFileSync(this.#path, `${JSON.stringify(event)}\n`);
  }
}
