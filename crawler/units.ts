/**
 * Where units come from (docs/crawl.md): the whole instance's `/api/units/`, one project's
 * `/api/units/?q=project:<slug>` in a scoped crawl, or, on a server that ignores or rejects
 * that query, each translation's own `units/`. Units wait in the spool per translation until
 * every page is in.
 */
import { phases } from './plan.ts';
import { resolveLink, withParameters } from './links.ts';
import type { Problem } from '../snapshot/schemas.ts';
import type { RequestQueue, Task } from './queue/request-queue.ts';
import type { UnitSpool } from './queue/unit-spool.ts';

export class UnitsStrategy {
  constructor(
    readonly apiRoot: URL,
    readonly queue: RequestQueue,
    readonly spool: UnitSpool,
    /** Whether `takePage` may answer whole translations to be written from the page; otherwise every unit is spooled. */
    readonly writesWhole = true,
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

  /** Spools a page of units under their translations; answers the problems of units that name none. */
  spoolPage(task: Task, items: readonly unknown[]): Problem[] {
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
  takePage(task: Task, items: readonly unknown[], written: (translation: string) => boolean): { problems: Problem[]; whole: Map<string, unknown[]> } {
    const { problems, byTranslation } = this.#group(task, items);
    const whole = new Map<string, unknown[]>();
    for (const [translation, units] of byTranslation) {
      if (written(translation) || this.#writing.has(translation)) {
        byTranslation.delete(translation);
      } else if (this.writesWhole && units.length === this.queue.totals.get(translation) && !this.spool.holds(translation) && distinctIds(units)) {
        this.#writing.add(translation);
        whole.set(translation, units);
        byTranslation.delete(translation);
      }
    }
    this.spool.append(byTranslation);
    return { problems, whole };
  }

  /** Translations answered whole by `takePage`, so a page fetched twice does not write one twice. */
  readonly #writing = new Set<string>();

  #group(task: Task, items: readonly unknown[]): { problems: Problem[]; byTranslation: Map<string, unknown[]> } {
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
