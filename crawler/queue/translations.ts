import { parseApiPath } from '../../api/paths.ts';
import { rootPath } from '../links.ts';
import type { CrawlJournal } from './journal.ts';

/**
 * The translations stored so far, which the phases after the structure need: each one's
 * project (units are asked for by project), its record's unit `total` (how many units its list
 * must hold), and the projects whose server ignored `q=project:…`. Kept in the crawl's journal.
 * Each translation's URL is parsed once, when it is first recorded: the statistics of a
 * component and of a language ask which translations it has.
 */
export class StoredTranslations {
  readonly #journal: CrawlJournal;
  /** Translation URL → project path segment, for every translation record stored. */
  readonly projects = new Map<string, string>();
  /** Translation URL → its record's `total`. */
  readonly totals = new Map<string, number>();
  /** Projects whose server ignored `q=project:…`: their units are fetched per translation. */
  readonly unitsPerTranslation = new Set<string>();
  /** `project/component` (path segments) → its translations' URLs → their language segment, in the order recorded. */
  readonly #byComponent = new Map<string, Map<string, string>>();
  /** Language path segments of the translations recorded. */
  readonly #languages = new Set<string>();

  readonly apiRoot: URL;

  constructor(journal: CrawlJournal, apiRoot: URL) {
    this.apiRoot = apiRoot;
    this.#journal = journal;
    journal.read((event) => {
      if ('translation' in event) {
        if (!this.projects.has(event.translation)) this.#index(event.translation);
        this.projects.set(event.translation, event.project);
      } else if ('total' in event) this.totals.set(event.total, event.units);
      else if ('unitsPerTranslation' in event) this.unitsPerTranslation.add(event.unitsPerTranslation);
    });
  }

  #index(url: string): void {
    const path = parseApiPath(rootPath(url, this.apiRoot));
    if (path?.language === undefined) return;
    this.#languages.add(path.language);
    const key = `${path.project ?? ''}/${path.component ?? ''}`;
    let translations = this.#byComponent.get(key);
    if (translations === undefined) this.#byComponent.set(key, (translations = new Map()));
    translations.set(url, path.language);
  }

  /** The translations of a component (its project's and its own path segment): URL → language path segment. */
  ofComponent(project: string, component: string): ReadonlyMap<string, string> {
    return this.#byComponent.get(`${project}/${component}`) ?? new Map();
  }

  /** Whether a translation recorded so far is in the language of this path segment. */
  usesLanguage(language: string): boolean {
    return this.#languages.has(language);
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
