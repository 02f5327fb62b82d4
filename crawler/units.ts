/**
 * Where units come from (docs/crawl.md): the whole instance's `/api/units/`, one project's
 * `/api/units/?q=project:<slug>` in a scoped crawl, or, on a server that ignores or rejects
 * that query, each translation's own `units/`. Units wait in the spool per translation until
 * every page is in.
 */
import { phases } from './plan.ts';
import { resolveLink, withParameters } from './links.ts';
import type { Problem } from '../snapshot/index.ts';
import type { RequestQueue } from './queue/request-queue.ts';
import type { NewTask } from './queue/task.ts';
import type { StoredTranslations } from './queue/translations.ts';
import type { UnitSpool } from './queue/unit-spool.ts';

export class UnitsStrategy {
  readonly apiRoot: URL;
  readonly queue: RequestQueue;
  readonly translations: StoredTranslations;
  readonly spool: UnitSpool;
  /** Whether `takePage` may answer whole translations to be written from the page; otherwise every unit is spooled. */
  readonly writesWhole: boolean;

  constructor(apiRoot: URL, queue: RequestQueue, translations: StoredTranslations, spool: UnitSpool, writesWhole = true) {
    this.apiRoot = apiRoot;
    this.queue = queue;
    this.translations = translations;
    this.spool = spool;
    this.writesWhole = writesWhole;
  }

  /** Queues one project's units through the instance's unit list (the project's path segment and slug). */
  queueProject(segment: string, slug: string): void {
    this.queue.add({
      url: withParameters(new URL('units/', this.apiRoot).href, { q: `project:${slug}` }),
      type: 'units',
      phase: phases.bulk,
      project: segment,
    });
  }

  /**
   * Whether the first page of a project's units holds only that project's (servers that
   * ignore `q` give everyone's); when not, the project falls back to per-translation lists.
   */
  accepts(task: NewTask, items: readonly unknown[]): boolean {
    if (task.project === undefined || task.page) return true;
    const project = task.project;
    const matches = items.every((unit) => {
      const translation = this.#translationOf(unit);
      return translation !== undefined && this.translations.projects.get(translation) === project;
    });
    if (!matches) this.perTranslation(project);
    return matches;
  }

  /** Fetches a project's units one translation at a time. */
  perTranslation(project: string): void {
    this.translations.markUnitsPerTranslation(project);
    for (const [translation, owner] of this.translations.projects) {
      if (owner === project) this.queue.add({ url: `${translation}units/`, type: 'units', phase: phases.bulk });
    }
  }

  /** Spools a page of units under their translations; answers the problems of units that name none. */
  spoolPage(task: NewTask, items: readonly unknown[]): Problem[] {
    const { problems, byTranslation } = this.#group(task, items);
    this.spool.append(byTranslation);
    return problems;
  }

  /**
   * A page of `/api/units/`: the translations whose units all came in it (as many as the
   * record's `total`, none spooled before, each id once) are answered to be written from the
   * page; the rest (a translation cut by a page boundary) is spooled. Most translations of a
   * 10,000-unit page are whole in it, so the spool's round trip and the write after the last
   * request (docs/crawl.md, "Measured") shrink to the few cut ones. `written` says which
   * translations are already in the snapshot (a page fetched again after a resume): their
   * units are dropped.
   */
  takePage(task: NewTask, items: readonly unknown[], written: (translation: string) => boolean): { problems: Problem[]; whole: Map<string, unknown[]> } {
    const { problems, byTranslation } = this.#group(task, items);
    const whole = new Map<string, unknown[]>();
    for (const [translation, units] of byTranslation) {
      const total = this.translations.totals.get(translation);
      if (written(translation) || this.#writing.has(translation)) {
        byTranslation.delete(translation);
      } else if (!this.writesWhole || total === undefined) {
        continue;
      } else if (!this.spool.holds(translation)) {
        if (units.length === total && distinctIds(units)) this.#answer(whole, translation, units, byTranslation);
      } else if (this.#spooledCount(translation) + units.length === total) {
        // The last piece of a translation a page boundary cut: written now from the spool and
        // this page, so the end phase is left with nothing to write (docs/crawl.md).
        const joined = joinById(this.spool.read(translation), units);
        if (joined.length === total) this.#answer(whole, translation, joined, byTranslation);
      }
    }
    // Counted before the append, which a first count would otherwise read back; an incremental
    // crawl (no translation written from its pages) needs no count.
    const counts = this.writesWhole
      ? [...byTranslation].map(([translation, units]) => [translation, this.#spooledCount(translation) + units.length] as const)
      : [];
    this.spool.append(byTranslation);
    for (const [translation, count] of counts) this.#spooled.set(translation, count);
    return { problems, whole };
  }

  #answer(whole: Map<string, unknown[]>, translation: string, units: unknown[], byTranslation: Map<string, unknown[]>): void {
    this.#writing.add(translation);
    this.#spooled.delete(translation);
    whole.set(translation, units);
    byTranslation.delete(translation);
  }

  /**
   * How many units the spool holds for a translation, counted in memory as they are appended;
   * a spool file left by the run this one resumes is read once to count its distinct units.
   * An overcount (a page fetched twice) only means the translation waits for the end phase.
   */
  #spooledCount(translation: string): number {
    let count = this.#spooled.get(translation);
    if (count === undefined) {
      count = this.spool.holds(translation) ? this.spool.read(translation).length : 0;
      this.#spooled.set(translation, count);
    }
    return count;
  }

  /** Translations answered whole by `takePage`, so a page fetched twice does not write one twice. */
  readonly #writing = new Set<string>();

  /** Units spooled so far per translation not yet answered whole (`#spooledCount`). */
  readonly #spooled = new Map<string, number>();

  #group(task: NewTask, items: readonly unknown[]): { problems: Problem[]; byTranslation: Map<string, unknown[]> } {
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
    return { problems, byTranslation };
  }

  #translationOf(unit: unknown): string | undefined {
    const link = (unit as { translation?: unknown } | null)?.translation;
    return typeof link === 'string' ? resolveLink(link, this.apiRoot) : undefined;
  }
}

/**
 * The spooled units and a page's, each id once, or none when a unit has no id or an id comes
 * twice (the spool's own de-duplication cannot then tell which to keep; the end phase decides).
 */
function joinById(spooled: readonly unknown[], page: readonly unknown[]): unknown[] {
  const joined = [...spooled, ...page];
  return distinctIds(joined) ? joined : [];
}

/** Whether every unit has an id and no two share one (the spool keeps one unit per id). */
function distinctIds(units: readonly unknown[]): boolean {
  const ids = new Set<unknown>();
  for (const unit of units) {
    const id = (unit as { id?: unknown } | null)?.id;
    if (id === undefined || ids.has(id)) return false;
    ids.add(id);
  }
  return true;
}
