/**
 * Where units come from (docs/crawl.md): the whole instance's `/api/units/`, one project's
 * `/api/units/?q=project:<slug>` in a scoped crawl, or, on a server that ignores or rejects
 * that query, each translation's own `units/`. Units wait in the spool per translation until
 * every page is in, unless one page holds them all.
 */
import { phases } from './plan.ts';
import { resolveLink, withParameters } from './links.ts';
import type { Problem } from '../snapshot/schemas.ts';
import type { SnapshotWriter } from '../snapshot/writer.ts';
import type { RequestQueue, Task } from './queue/request-queue.ts';
import type { UnitSpool } from './queue/unit-spool.ts';

export class UnitsStrategy {
  constructor(
    readonly apiRoot: URL,
    readonly queue: RequestQueue,
    readonly spool: UnitSpool,
    /** Where a translation whose units one page holds all of is written at once; none: every unit is spooled. */
    readonly writer?: SnapshotWriter,
  ) {}

  /** Queues one project's units through the instance's unit list (the project's path segment and slug). */
  queueProject(segment: string, slug: string): void {
    this.queue.add({
      url: withParameters(new URL('units/', this.apiRoot).href, { q: `project:${slug}` }),
      kind: 'units',
      phase: phases.bulk,
      project: segment,
    });
  }

  /**
   * Whether the first page of a project's units holds only that project's (servers that
   * ignore `q` give everyone's); when not, the project falls back to per-translation lists.
   */
  accepts(task: Task, items: readonly unknown[]): boolean {
    if (task.project === undefined || task.page) return true;
    const project = task.project;
    const matches = items.every((unit) => {
      const translation = this.#translationOf(unit);
      return translation !== undefined && this.queue.translations.get(translation) === project;
    });
    if (!matches) this.perTranslation(project);
    return matches;
  }

  /** Fetches a project's units one translation at a time. */
  perTranslation(project: string): void {
    this.queue.markUnitsPerTranslation(project);
    for (const [translation, owner] of this.queue.translations) {
      if (owner === project) this.queue.add({ url: `${translation}units/`, kind: 'units', phase: phases.bulk });
    }
  }

  /**
   * Takes a page of units, grouped by translation; answers the problems of units that name none.
   * A translation whose units the page holds all of (as many as its record's `total`, none
   * spooled before) is written at once: at 1M units most translations fit in one page of
   * 10,000, and the spool's round trip (written, parsed again after the last page) was a tenth
   * of the crawler's CPU, all of it after the last request. The others wait in the spool, as
   * all do while another page is being written, with `direct` false (units fetched again, which
   * the recount reads back from it) or without a writer (an incremental crawl, which reads them
   * back to find removed units).
   */
  async takePage(task: Task, items: readonly unknown[], direct = true): Promise<Problem[]> {
    const problems: Problem[] = [];
    const byTranslation = new Map<string, unknown[]>();
    for (const [index, unit] of items.entries()) {
      const translation = this.#translationOf(unit);
      if (translation === undefined) {
        problems.push({ url: task.url, field: `results.${index}.translation`, reason: 'a unit without a translation URL under the API root; not stored' });
        continue;
      }
      let list = byTranslation.get(translation);
      if (list === undefined) byTranslation.set(translation, (list = []));
      list.push(unit);
    }
    // One page writes at a time; a page arriving meanwhile is spooled at once rather than held
    // until the writer is free (four parsed pages of 10,000 units waiting raised the crawler's
    // peak RSS at 1M from 560 to 778 MiB).
    const writer = direct && !this.#writing ? this.writer : undefined;
    const spooled = new Map<string, unknown[]>();
    const written: [string, unknown[]][] = [];
    for (const [translation, units] of byTranslation) {
      // Stored already: a page fetched again after a resume, or a unit added after the page that held them all.
      if (direct && this.writer?.has(`${translation}units/`)) continue;
      if (writer && units.length === this.queue.totals.get(translation) && !this.spool.has(translation)) written.push([translation, units]);
      else spooled.set(translation, units);
    }
    this.spool.append(spooled);
    if (writer === undefined || written.length === 0) return problems;
    this.#writing = true;
    try {
      for (const [translation, units] of written) await writer.putUnits(translation, units);
    } finally {
      this.#writing = false;
    }
    return problems;
  }

  /** Whether a page's units are being written (takePage). */
  #writing = false;

  #translationOf(unit: unknown): string | undefined {
    const link = (unit as { translation?: unknown } | null)?.translation;
    return typeof link === 'string' ? resolveLink(link, this.apiRoot) : undefined;
  }
}
