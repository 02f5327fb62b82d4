import type { CrawlJournal } from './journal.ts';

/**
 * The translations stored so far, which the phases after the structure need: each one's
 * project (units are asked for by project), its record's unit `total` (how many units its list
 * must hold), and the projects whose server ignored `q=project:…`. Kept in the crawl's journal.
 */
export class StoredTranslations {
  readonly #journal: CrawlJournal;
  /** Translation URL → project path segment, for every translation record stored. */
  readonly projects = new Map<string, string>();
  /** Translation URL → its record's `total`. */
  readonly totals = new Map<string, number>();
  /** Projects whose server ignored `q=project:…`: their units are fetched per translation. */
  readonly unitsPerTranslation = new Set<string>();

  constructor(journal: CrawlJournal) {
    this.#journal = journal;
    journal.read((event) => {
      if ('translation' in event) this.projects.set(event.translation, event.project);
      else if ('total' in event) this.totals.set(event.total, event.units);
      else if ('unitsPerTranslation' in event) this.unitsPerTranslation.add(event.unitsPerTranslation);
    });
  }

  /** Records a translation stored, with its project's path segment. */
  add(url: string, project: string): void {
    if (this.projects.get(url) !== project) this.#journal.record({ translation: url, project });
  }

  /** Records how many units a translation's record says it has. */
  setTotal(url: string, units: number): void {
    if (this.totals.get(url) !== units) this.#journal.record({ total: url, units });
  }

  markUnitsPerTranslation(project: string): void {
    if (!this.unitsPerTranslation.has(project)) this.#journal.record({ unitsPerTranslation: project });
  }
}
