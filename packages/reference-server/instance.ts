import type { ChangeRow, ComponentRow, LanguageRow, Model, ProjectRow, TranslationRow, UnitRow, UserRow } from './model.ts';
import { type Counts, type LastChange, type Statistics514, addCounts, countUnits, noCounts, statisticsRecord } from './statistics.ts';

/** Weblate 5.14's ACTIONS_CONTENT (weblate/trans/actions.py): the changes `recent_changes` counts. */
const contentActions = new Set([2, 5, 6, 7, 8, 9, 27, 30, 31, 32, 36, 37, 66, 76, 77, 79]);

/** How many rows to read from a windowed model at once when scanning. */
const SCAN_WINDOW = 5000;
/** Smaller windows when reading the change log backwards, which usually stops early. */
const BACKWARD_WINDOW = 500;

/**
 * The instance as the HTTP layer sees a model: lookups over its small collections, per-object change offsets and cached unit
 * counts. Built once per model revision: a read-only (synthetic) model builds it once.
 */
export class Instance {
  /** By code, each with its `id`: its place in the model's list, from 1. */
  readonly languages = new Map<string, LanguageRow & { id: number }>();
  readonly projects = new Map<number, ProjectRow>();
  readonly projectsBySlug = new Map<string, ProjectRow>();
  readonly components = new Map<number, ComponentRow>();
  readonly translations = new Map<number, TranslationRow>();
  readonly users = new Map<string, UserRow>();
  readonly #componentsByPath = new Map<string, ComponentRow>();
  readonly #translationsByPath = new Map<string, TranslationRow>();
  readonly #componentsOfProject = new Map<number, ComponentRow[]>();
  readonly #translationsOfComponent = new Map<number, TranslationRow[]>();
  readonly #counts = new Map<number, Counts>();
  #changeIndex: ChangeIndex | undefined;
  readonly #newest = new Map<number, ChangeRow>();
  #backwardCursor: number | undefined;
  #recent: { now: number; rows: ChangeRow[] } | undefined;
  #translators: Map<string, Translator> | undefined;

  readonly model: Model;

  constructor(model: Model) {
    this.model = model;
    for (const row of model.languages()) this.languages.set(row.code, { ...row, id: row.id ?? this.languages.size + 1 });
    for (const row of model.users()) this.users.set(row.username, row);
    for (const row of [...model.projects()].sort((a, b) => a.id - b.id)) {
      this.projects.set(row.id, row);
      this.projectsBySlug.set(row.slug, row);
      this.#componentsOfProject.set(row.id, []);
    }
    for (const row of [...model.components()].sort((a, b) => a.id - b.id)) {
      const project = this.projects.get(row.projectId);
      if (!project) continue;
      this.components.set(row.id, row);
      this.#componentsByPath.set(`${project.slug}/${row.slug}`, row);
      this.#componentsOfProject.get(project.id)!.push(row);
      this.#translationsOfComponent.set(row.id, []);
    }
    for (const row of [...model.translations()].sort((a, b) => a.id - b.id)) {
      const component = this.components.get(row.componentId);
      if (!component) continue;
      this.translations.set(row.id, row);
      this.#translationsByPath.set(`${this.projectOf(component).slug}/${component.slug}/${row.languageCode}`, row);
      this.#translationsOfComponent.get(component.id)!.push(row);
    }
  }

  component(projectSlug: string, componentSlug: string): ComponentRow | undefined {
    return this.#componentsByPath.get(`${projectSlug}/${componentSlug}`);
  }

  translation(projectSlug: string, componentSlug: string, code: string): TranslationRow | undefined {
    return this.#translationsByPath.get(`${projectSlug}/${componentSlug}/${code}`);
  }

  componentsOf(projectId: number): readonly ComponentRow[] {
    return this.#componentsOfProject.get(projectId) ?? [];
  }

  translationsOf(componentId: number): readonly TranslationRow[] {
    return this.#translationsOfComponent.get(componentId) ?? [];
  }

  projectOf(component: ComponentRow): ProjectRow {
    return this.projects.get(component.projectId)!;
  }

  componentOf(translation: TranslationRow): ComponentRow {
    return this.components.get(translation.componentId)!;
  }

  /** The language row, or a bare one for a code the model's language list lacks. */
  language(code: string): LanguageRow & { id?: number } {
    return (
      this.languages.get(code) ?? {
        code,
        name: code,
        plural: { id: 0, source: 0, number: 2, formula: 'n != 1', type: 1 },
        aliases: [],
        direction: '',
        population: 0,
      }
    );
  }

  /** Units of a translation, streamed in windows so a lazy model never materializes them all. */
  *unitsOf(translationId: number): Generator<UnitRow> {
    const total = this.model.unitCount(translationId);
    for (let offset = 0; offset < total; offset += SCAN_WINDOW) yield* this.model.units(translationId, offset, SCAN_WINDOW);
  }

  counts(translationId: number): Counts {
    let counts = this.#counts.get(translationId);
    if (!counts) {
      counts = this.model.unitCounts?.(translationId) ?? countUnits(this.unitsOf(translationId));
      this.#counts.set(translationId, counts);
    }
    return counts;
  }

  sumCounts(translations: Iterable<TranslationRow>): Counts {
    let sum = noCounts;
    for (const translation of translations) sum = addCounts(sum, this.counts(translation.id));
    return sum;
  }

  /** Every change, streamed in ascending id order. */
  *allChanges(): Generator<ChangeRow> {
    const total = this.model.changeCount();
    for (let offset = 0; offset < total; offset += SCAN_WINDOW) yield* this.model.changes(offset, SCAN_WINDOW);
  }

  /**
   * What a user translated (changes 2 and 5 they authored), for every user in one pass over
   * the log: each user's `statistics/` scanning it alone read a 1M-change log once per user.
   */
  translator(username: string): Translator {
    this.#translators ??= this.model.translators?.() ?? tallyTranslators(this);
    return this.#translators.get(username) ?? { translated: 0, languages: new Set() };
  }

  /**
   * A user's `suggested` (statistics, 2026's `profile`): the suggestions of theirs the model
   * records. Weblate counts every suggestion made, accepted ones too; a mirror records the pending.
   */
  suggested(username: string): number {
    return (this.model.suggestions?.() ?? []).filter((row) => row.user === username).length;
  }

  hasChangeIndex(): boolean {
    return this.#changeIndex !== undefined;
  }

  changeIndex(): ChangeIndex {
    this.#changeIndex ??= buildChangeIndex(this);
    return this.#changeIndex;
  }

  /** How many changes the given translations had in the 24 hours before `now`. */
  recentChanges(translationIds: Iterable<number>, now: number = Date.now()): number {
    const ids = new Set(translationIds);
    return this.#recentWindow(now).filter((change) => change.translationId !== null && ids.has(change.translationId)).length;
  }

  /**
   * Statistics of a set of translations: counts, last change, recent changes. `v514`: as 5.14
   * writes them, `recent_changes` its content changes in the 6 hours before its last change.
   */
  statistics(translations: readonly TranslationRow[], weblateFields = false, v514?: Statistics514): Record<string, unknown> {
    const ids = translations.map((translation) => translation.id);
    const last = this.lastChange(ids);
    const recent = v514 ? this.recentContentChanges(ids, last) : this.recentChanges(ids);
    return statisticsRecord(this.sumCounts(translations), last, recent, weblateFields, v514);
  }

  /**
   * Weblate 5.14's `recent_changes` (weblate/utils/stats.py, `count_changes`): the content
   * changes (ACTIONS_CONTENT) of the object in the 6 hours before its last change.
   */
  recentContentChanges(translationIds: Iterable<number>, last: LastChange | null): number {
    if (last === null) return 0;
    const ids = new Set(translationIds);
    const since = Date.parse(last.timestamp) - 6 * 3600 * 1000;
    let count = 0;
    for (let cursor = this.model.changeCount(); cursor > 0;) {
      const start = Math.max(0, cursor - BACKWARD_WINDOW);
      const window = this.model.changes(start, cursor - start);
      for (let i = window.length - 1; i >= 0; i--) {
        const change = window[i]!;
        if (Date.parse(change.timestamp) <= since) return count;
        if (change.translationId !== null && ids.has(change.translationId) && contentActions.has(change.action)) count++;
      }
      cursor = start;
    }
    return count;
  }

  /** The latest change among the given translations (by change id). */
  lastChange(translationIds: Iterable<number>): LastChange | null {
    let latest: ChangeRow | undefined;
    for (const id of translationIds) {
      const change = this.#newestChange(id);
      if (change && (!latest || change.id > latest.id)) latest = change;
    }
    if (!latest) return null;
    return { timestamp: latest.timestamp, author: latest.author === null ? null : (this.users.get(latest.author)?.full_name ?? latest.author) };
  }

  /**
   * The newest change of a translation, reading the log backwards only as far as needed:
   * on a busy instance every translation shows up near the end, so a lazily generated
   * million-change log is rarely read far.
   */
  #newestChange(translationId: number): ChangeRow | undefined {
    if (this.model.newestChange) return this.model.newestChange(translationId);
    let cursor = this.#backwardCursor ?? this.model.changeCount();
    while (cursor > 0 && !this.#newest.has(translationId)) {
      const start = Math.max(0, cursor - BACKWARD_WINDOW);
      const rows = this.model.changes(start, cursor - start);
      for (let i = rows.length - 1; i >= 0; i--) {
        const id = rows[i]!.translationId;
        if (id !== null && !this.#newest.has(id)) this.#newest.set(id, rows[i]!);
      }
      cursor = start;
    }
    this.#backwardCursor = cursor;
    return this.#newest.get(translationId);
  }

  /** The changes of the last 24 hours, read backwards from the end (timestamps ascend with ids). */
  #recentWindow(now: number): ChangeRow[] {
    // Reused for a minute: statistics of a whole list page ask for it once per row.
    if (this.#recent && Math.abs(this.#recent.now - now) < 60_000) return this.#recent.rows;
    const since = now - 24 * 3600 * 1000;
    const rows: ChangeRow[] = [];
    for (let cursor = this.model.changeCount(); cursor > 0;) {
      const start = Math.max(0, cursor - BACKWARD_WINDOW);
      const window = this.model.changes(start, cursor - start);
      let older = false;
      for (let i = window.length - 1; i >= 0; i--) {
        if (Date.parse(window[i]!.timestamp) < since) {
          older = true;
          break;
        }
        rows.push(window[i]!);
      }
      if (older) break;
      cursor = start;
    }
    this.#recent = { now, rows };
    return rows;
  }
}

/** A user's translations: how many, and in how many languages. */
export interface Translator {
  translated: number;
  languages: Set<string>;
}

function tallyTranslators(instance: Instance): Map<string, Translator> {
  const tally = new Map<string, Translator>();
  for (const change of instance.allChanges()) {
    if (change.author === null || (change.action !== 2 && change.action !== 5)) continue;
    let entry = tally.get(change.author);
    if (!entry) tally.set(change.author, (entry = { translated: 0, languages: new Set() }));
    entry.translated++;
    const translation = change.translationId === null ? undefined : instance.translations.get(change.translationId);
    if (translation) entry.languages.add(translation.languageCode);
  }
  return tally;
}

/** Offsets (positions in the model's change list) of the changes of each object. */
export interface ChangeIndex {
  byProject: Map<number, number[]>;
  byComponent: Map<number, number[]>;
  byTranslation: Map<number, number[]>;
}

function push(map: Map<number, number[]>, key: number, offset: number): void {
  const list = map.get(key);
  if (list) list.push(offset);
  else map.set(key, [offset]);
}

function buildChangeIndex(instance: Instance): ChangeIndex {
  const index: ChangeIndex = { byProject: new Map(), byComponent: new Map(), byTranslation: new Map() };
  let offset = 0;
  for (const change of instance.allChanges()) {
    const component = change.componentId === null ? undefined : instance.components.get(change.componentId);
    if (component) {
      push(index.byComponent, component.id, offset);
      push(index.byProject, component.projectId, offset);
    } else if (change.projectId != null) push(index.byProject, change.projectId, offset);
    if (change.translationId !== null) push(index.byTranslation, change.translationId, offset);
    offset++;
  }
  return index;
}

const instances = new WeakMap<Model, { revision: number | undefined; instance: Instance }>();

/** The instance of a model at its current revision. */
export function instanceOf(model: Model): Instance {
  const revision = model.revision?.();
  const cached = instances.get(model);
  if (cached && cached.revision === revision) return cached.instance;
  const instance = new Instance(model);
  instances.set(model, { revision, instance });
  return instance;
}
