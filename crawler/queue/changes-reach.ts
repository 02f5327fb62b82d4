/**
 * How far back the change log is held, for a run that finishes before its history phase is done
 * (plan.ts `isHistory`): the oldest change of each page of the log read so far, journalled, so
 * that a resumed run knows it too. The log is newest first (docs/weblate-api.md, Ordering): when
 * pages 1…p-1 of a list are in and page p is not, every change from page p-1's oldest on is held.
 */
import type { CrawlJournal } from './journal.ts';
import type { Task } from './task.ts';

/** A page's list (its URL without `page` and `page_size`, parameters sorted) and its number (1 without `page`). */
export function changesPage(url: string): { list: string; page: number } {
  const parsed = new URL(url);
  const page = Number(parsed.searchParams.get('page') ?? '1');
  parsed.searchParams.delete('page');
  parsed.searchParams.delete('page_size');
  parsed.searchParams.sort();
  return { list: parsed.href, page: Number.isInteger(page) && page > 0 ? page : 1 };
}

/** The oldest `timestamp` of a page of changes (undefined when it holds none). */
export function oldestChange(changes: readonly unknown[]): string | undefined {
  let oldest: { at: number; text: string } | undefined;
  for (const change of changes) {
    const text = (change as { timestamp?: unknown } | null)?.timestamp;
    const at = typeof text === 'string' ? Date.parse(text) : Number.NaN;
    if (!Number.isNaN(at) && (oldest === undefined || at < oldest.at)) oldest = { at, text: text as string };
  }
  return oldest?.text;
}

export class ChangesReach {
  readonly #journal: CrawlJournal;
  /** `list page` → the oldest change on that page. */
  readonly #oldest = new Map<string, string>();

  constructor(journal: CrawlJournal) {
    this.#journal = journal;
    journal.read((event) => {
      if ('changesPage' in event) this.#oldest.set(event.changesPage, event.oldest);
    });
  }

  /** Notes the oldest change of the page at `url`. */
  page(url: string, changes: readonly unknown[]): void {
    const oldest = oldestChange(changes);
    if (oldest === undefined) return;
    const { list, page } = changesPage(url);
    this.#journal.record({ changesPage: `${list} ${page}`, oldest });
  }

  /**
   * The time from which every change of the crawl's window is held, given the changes pages still
   * pending; undefined when none is (the whole window is held). With several lists (a scoped
   * crawl's, one per project) the latest of their times: a later run reads each from there.
   */
  heldFrom(pending: Iterable<Task>): string | undefined {
    const lowest = new Map<string, number>();
    for (const task of pending) {
      if (task.type !== 'changes') continue;
      const { list, page } = changesPage(task.url);
      lowest.set(list, Math.min(page, lowest.get(list) ?? page));
    }
    let from: string | undefined;
    for (const [list, page] of lowest) {
      const reached = (page > 1 ? this.#oldest.get(`${list} ${page - 1}`) : undefined) ?? new URL(list).searchParams.get('timestamp_before') ?? undefined;
      if (reached === undefined) continue;
      if (from === undefined || Date.parse(reached) > Date.parse(from)) from = reached;
    }
    return from;
  }
}
