/**
 * How far back the change log is held, for a run that finishes before its history phase is done
 * (plan.ts `isHistory`): the oldest change of each page of the log read so far, journalled, so
 * that a resumed run knows it too. The log is newest first (docs/weblate-api.md, Ordering): when
 * pages 1…p-1 of a list are in and page p is not, every change from page p-1's oldest on is held.
 * A log paged by cursor is read one link at a time: its pending link's pages before it are in,
 * and the last of them is the one that ends where the link starts (`NewTask.delivered`).
 */
import type { CrawlJournal } from './journal.ts';
import type { Task } from './task.ts';

/** A page's list (its URL without `page`, `page_size` and `cursor`, parameters sorted) and its number (1 without `page`). */
export function changesPage(url: string): { list: string; page: number } {
  const parsed = new URL(url);
  const page = Number(parsed.searchParams.get('page') ?? '1');
  for (const name of ['page', 'page_size', 'cursor']) parsed.searchParams.delete(name);
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

/** The journal's name of a page: by number, or in a chain by the changes delivered through its end. */
function pageKey(list: string, position: { page: number } | { through: number }): string {
  return 'page' in position ? `${list} ${position.page}` : `${list} @${position.through}`;
}

export class ChangesReach {
  readonly #journal: CrawlJournal;
  /** `pageKey` → the oldest change on that page. */
  readonly #oldest = new Map<string, string>();

  constructor(journal: CrawlJournal) {
    this.#journal = journal;
    journal.read((event) => {
      if ('changesPage' in event) this.#oldest.set(event.changesPage, event.oldest);
    });
  }

  /**
   * Notes the oldest change of the page at `url`; `through` (the changes its chain delivered up to
   * and with it) when its `next` is followed one link at a time, so its successor can find it.
   */
  page(url: string, changes: readonly unknown[], through?: number): void {
    const oldest = oldestChange(changes);
    if (oldest === undefined) return;
    const { list, page } = changesPage(url);
    this.#journal.record({ changesPage: pageKey(list, through === undefined ? { page } : { through }), oldest });
  }

  /**
   * The time from which every change of the crawl's window is held, given the changes pages still
   * pending; undefined when none is (the whole window is held). With several lists (a scoped
   * crawl's, one per project) the latest of their times: a later run reads each from there.
   */
  heldFrom(pending: Iterable<Task>): string | undefined {
    // Per list, the page held just before its first pending one: the lowest number less one, or
    // in a chain the page that ends where the pending link starts (one link pends at a time).
    const first = new Map<string, { page: number } | { through: number }>();
    for (const task of pending) {
      if (task.type !== 'changes') continue;
      const { list, page } = changesPage(task.url);
      const known = first.get(list);
      const position = task.delivered === undefined ? { page: page - 1 } : { through: task.delivered };
      if (known === undefined || order(position) < order(known)) first.set(list, position);
    }
    let from: string | undefined;
    for (const [list, position] of first) {
      const held = order(position) > 0 ? this.#oldest.get(pageKey(list, position)) : undefined;
      const reached = held ?? new URL(list).searchParams.get('timestamp_before') ?? undefined;
      if (reached === undefined) continue;
      if (from === undefined || Date.parse(reached) > Date.parse(from)) from = reached;
    }
    return from;
  }
}

function order(position: { page: number } | { through: number }): number {
  return 'page' in position ? position.page : position.through;
}
