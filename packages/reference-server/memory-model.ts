import { createHash } from 'node:crypto';
import { action } from '../../api/change.ts';
import { PLURAL_SEPARATOR, unitHash } from './hash.ts';
import { unitDefaults } from './unit-defaults.ts';
import type {
  AnnouncementRow,
  CategoryRow,
  ChangeRow,
  CommitRow,
  ComponentRow,
  LanguageRow,
  Model,
  NotificationRow,
  ProjectRow,
  TranslationRow,
  SuggestionRow,
  UnitRow,
  UserRow,
} from './model.ts';

/** Every row of a dataset: what `loadBundledRows()` and the test fixtures return. */
export interface ModelRows {
  languages: LanguageRow[];
  users: UserRow[];
  projects: ProjectRow[];
  components: ComponentRow[];
  translations: TranslationRow[];
  notifications: NotificationRow[];
  changes: ChangeRow[];
  units: UnitRow[];
  /** 5.5+ categories of components (`ComponentRow.categoryId`); absent: none. */
  categories?: CategoryRow[];
  /** 2026 announcements of projects and components; absent: none. */
  announcements?: AnnouncementRow[];
  /** 2026 suggestions as recorded (a mirror of a real server); absent: made from units' `has_suggestion`. */
  suggestions?: SuggestionRow[];
}

/** A string to add to a component (`addString`); the rest of the unit gets Weblate's defaults. */
export interface NewString {
  source: string[];
  context?: string;
  note?: string;
  location?: string;
  flags?: string;
}

/** Translator activity a model can simulate; each call records its change(s) like Weblate does. */
export interface ActivityModel extends Model {
  translate(unitId: number, target: string[], user: string): ChangeRow[];
  markForEdit(unitId: number, user: string): ChangeRow[];
  approve(unitId: number, user: string): ChangeRow[];
  addLanguage(componentId: number, code: string, user: string): ChangeRow[];
  addString(componentId: number, string: NewString, user: string): ChangeRow[];
  removeString(sourceUnitId: number, user: string): ChangeRow[];
  removeComponent(componentId: number, user: string): ChangeRow[];
  /**
   * Commits the component's pending edits (units with `pending: true`), as Weblate does before
   * a download: one "Changes committed" (17) per translation that had any; none when nothing is pending.
   */
  commitPending(componentId: number): ChangeRow[];
}

/** A mutation the data cannot take (unknown id, wrong state…): the message says which and why. */
export class ActivityError extends Error {
  override name = 'ActivityError';
}

/** Weblate's timestamp form: ISO 8601 UTC with microseconds and Z. */
export function isoMicroseconds(date: Date): string {
  return date.toISOString().replace(/Z$/, '000Z');
}

export function isActivityModel(model: Model): model is ActivityModel {
  return typeof (model as Partial<ActivityModel>).translate === 'function';
}

function nextId(rows: readonly { id: number }[]): number {
  let max = 0;
  for (const row of rows) if (row.id > max) max = row.id;
  return max + 1;
}

function wordCount(source: readonly string[]): number {
  return (source[0] ?? '').split(/\s+/).filter(Boolean).length;
}

/**
 * An in-memory instance over dataset rows, with the mutation hook. Every mutation bumps
 * `revision()` so the HTTP layer knows its cached indexes are stale.
 */
export class MemoryModel implements ActivityModel {
  readonly #languages: LanguageRow[];
  readonly #users: UserRow[];
  readonly #projects: ProjectRow[];
  #components: ComponentRow[];
  readonly #categories: CategoryRow[];
  #announcements: AnnouncementRow[];
  readonly #suggestions: SuggestionRow[] | undefined;
  #translations: TranslationRow[];
  #notifications: NotificationRow[];
  #changes: ChangeRow[];
  /** Units per translation, each list ordered by id. */
  readonly #unitsByTranslation = new Map<number, UnitRow[]>();
  readonly #unitsById = new Map<number, UnitRow>();
  readonly #now: () => Date;
  #revision = 0;
  readonly #commits = new Map<number, CommitRow>();
  /** Who made each translation's newest pending edit: the author of its next commit. */
  readonly #pendingAuthors = new Map<number, string>();
  // Ids come from sequences, as in Weblate's database: never reused, even after a removal
  // deletes the rows that held the highest ones.
  #nextUnitId: number;
  #nextTranslationId: number;
  #nextChangeId: number;

  constructor(rows: ModelRows, options: { now?: () => Date } = {}) {
    this.#now = options.now ?? (() => new Date());
    this.#languages = [...rows.languages];
    this.#users = [...rows.users];
    this.#projects = [...rows.projects];
    this.#components = [...rows.components];
    this.#categories = [...(rows.categories ?? [])];
    this.#announcements = [...(rows.announcements ?? [])].sort((a, b) => a.id - b.id);
    this.#suggestions = rows.suggestions === undefined ? undefined : [...rows.suggestions];
    this.#translations = [...rows.translations].sort((a, b) => a.id - b.id);
    this.#notifications = [...rows.notifications];
    this.#changes = [...rows.changes].sort((a, b) => a.id - b.id);
    for (const translation of this.#translations) this.#unitsByTranslation.set(translation.id, []);
    for (const unit of [...rows.units].sort((a, b) => a.id - b.id)) {
      const list = this.#unitsByTranslation.get(unit.translationId);
      if (!list) throw new Error(`unit ${unit.id} belongs to translation ${unit.translationId}, which the dataset lacks`);
      list.push({ ...unit });
      this.#unitsById.set(unit.id, list[list.length - 1]!);
    }
    this.#nextUnitId = nextId(rows.units);
    this.#nextTranslationId = nextId(rows.translations);
    this.#nextChangeId = nextId(rows.changes);
  }

  revision(): number {
    return this.#revision;
  }

  languages(): readonly LanguageRow[] {
    return this.#languages;
  }
  projects(): readonly ProjectRow[] {
    return this.#projects;
  }
  components(): readonly ComponentRow[] {
    return this.#components;
  }
  categories(): readonly CategoryRow[] {
    return this.#categories;
  }
  announcements(): readonly AnnouncementRow[] {
    return this.#announcements;
  }
  /** The recorded suggestions of units that still exist (Weblate deletes a unit's with it). */
  suggestions(): readonly SuggestionRow[] | undefined {
    return this.#suggestions?.filter((row) => this.#unitsById.has(row.unitId));
  }
  translations(): readonly TranslationRow[] {
    return this.#translations;
  }
  users(): readonly UserRow[] {
    return this.#users;
  }
  notifications(): readonly NotificationRow[] {
    return this.#notifications;
  }
  unitCount(translationId: number): number {
    return this.#unitsByTranslation.get(translationId)?.length ?? 0;
  }
  units(translationId: number, offset: number, limit: number): UnitRow[] {
    return (this.#unitsByTranslation.get(translationId) ?? []).slice(offset, offset + limit);
  }
  unit(id: number): UnitRow | undefined {
    return this.#unitsById.get(id);
  }
  changeCount(): number {
    return this.#changes.length;
  }
  changes(offset: number, limit: number): ChangeRow[] {
    return this.#changes.slice(offset, offset + limit);
  }
  lastCommit(componentId: number): CommitRow | undefined {
    return this.#commits.get(componentId);
  }

  commitPending(componentId: number): ChangeRow[] {
    const component = this.#component(componentId);
    const pending = this.#translations.filter(
      (translation) => translation.componentId === componentId && this.#unitsOf(translation.id).some((unit) => unit.pending),
    );
    if (pending.length === 0) return [];
    const stamp = this.#stamp();
    const previous = this.#commits.get(componentId)?.revision ?? this.#sourceTranslation(component).revision;
    const changes = pending.map((translation) => {
      // Weblate saves each unit it writes to the file, which moves its `last_updated` (5.14.3,
      // test/weblate/changed-since.test.ts).
      for (const unit of this.#unitsOf(translation.id)) {
        if (!unit.pending) continue;
        unit.pending = false;
        unit.last_updated = stamp;
      }
      return this.#record({ action: action.changesCommitted, user: null, unitId: null, translationId: translation.id, componentId, target: '' }, stamp);
    });
    // Deterministic: the same edits committed at the same time give the same revision.
    const revision = createHash('sha1')
      .update(`${previous}:${changes.map((change) => change.id).join(',')}:${stamp}`)
      .digest('hex');
    for (const translation of pending) translation.revision = revision;
    const authorName = this.#pendingAuthors.get(pending.at(-1)!.id);
    const author = this.#users.find((row) => row.username === authorName);
    const languages = pending.map((translation) => this.#languages.find((row) => row.code === translation.languageCode)?.name ?? translation.languageCode);
    const date = stamp.replace(/\.\d+Z$/, 'Z');
    this.#commits.set(componentId, {
      revision,
      author_name: author?.full_name ?? 'Weblate',
      author_email: author ? `${author.username}@example.org` : 'noreply@weblate.org',
      authordate: date,
      commit_name: 'Weblate',
      commit_email: 'noreply@weblate.org',
      commitdate: date,
      message: `Translated using Weblate (${languages.join(', ')})\n\nTranslation: ${component.slug}\n`,
    });
    for (const translation of pending) this.#pendingAuthors.delete(translation.id);
    return changes;
  }

  translate(unitId: number, target: string[], user: string): ChangeRow[] {
    const { unit, translation, component } = this.#editableUnit(unitId, user);
    if (target.length !== unit.target.length) {
      throw new ActivityError(`unit ${unitId} has ${unit.target.length} plural form(s); the target given has ${target.length}`);
    }
    if (target.every((form) => form === '')) throw new ActivityError(`unit ${unitId}: the target is empty`);
    const wasEmpty = unit.state === 0;
    unit.target = [...target];
    unit.state = 20;
    return [this.#touch(unit, wasEmpty ? action.translationAdded : action.translationChanged, user, translation, component, target.join(PLURAL_SEPARATOR))];
  }

  markForEdit(unitId: number, user: string): ChangeRow[] {
    const { unit, translation, component } = this.#editableUnit(unitId, user);
    if (unit.state === 0) throw new ActivityError(`unit ${unitId} is untranslated: there is nothing to mark for edit`);
    unit.state = 10;
    return [this.#touch(unit, action.markedForEdit, user, translation, component, unit.target.join(PLURAL_SEPARATOR))];
  }

  approve(unitId: number, user: string): ChangeRow[] {
    const { unit, translation, component } = this.#editableUnit(unitId, user);
    const project = this.#projects.find((row) => row.id === component.projectId);
    if (!project?.translation_review) {
      throw new ActivityError(`unit ${unitId}: project "${project?.slug}" has translation review off, so nothing can be approved`);
    }
    if (unit.state !== 20) throw new ActivityError(`unit ${unitId} has state ${unit.state}; only translated units (20) can be approved`);
    unit.state = 30;
    return [this.#touch(unit, action.translationApproved, user, translation, component, unit.target.join(PLURAL_SEPARATOR))];
  }

  addLanguage(componentId: number, code: string, user: string): ChangeRow[] {
    this.#requireUser(user);
    const component = this.#component(componentId);
    const language = this.#languages.find((row) => row.code === code);
    if (!language) throw new ActivityError(`language "${code}" is not known to this server`);
    if (this.#translations.some((row) => row.componentId === componentId && row.languageCode === code)) {
      throw new ActivityError(`component "${component.slug}" already has a "${code}" translation`);
    }
    if (component.language_regex && !new RegExp(component.language_regex).test(code)) {
      throw new ActivityError(`component "${component.slug}" does not accept language "${code}" (language_regex ${component.language_regex})`);
    }
    const source = this.#sourceTranslation(component);
    const translation: TranslationRow = {
      id: this.#nextTranslationId++,
      componentId,
      languageCode: code,
      filename: component.filemask.replace('*', code),
      revision: source.revision,
    };
    this.#translations.push(translation);
    const stamp = this.#stamp();
    const units = this.#unitsOf(source.id).map((sourceUnit) => this.#newUnit(translation, sourceUnit, language.plural.number, stamp));
    this.#unitsByTranslation.set(translation.id, units);
    for (const unit of units) this.#unitsById.set(unit.id, unit);
    return [this.#record({ action: action.languageAdded, user, unitId: null, translationId: translation.id, componentId, target: '' }, stamp)];
  }

  addString(componentId: number, string: NewString, user: string): ChangeRow[] {
    this.#requireUser(user);
    const component = this.#component(componentId);
    if (string.source.length === 0 || string.source.every((form) => form === '')) {
      throw new ActivityError('a new string needs a non-empty source');
    }
    const context = string.context ?? '';
    const idHash = unitHash(string.source, context);
    const source = this.#sourceTranslation(component);
    if (this.#unitsOf(source.id).some((unit) => unit.idHash === idHash)) {
      throw new ActivityError(`component "${component.slug}" already has this string (same source and context)`);
    }
    const stamp = this.#stamp();
    const position = Math.max(0, ...this.#unitsOf(source.id).map((unit) => unit.position)) + 1;
    const sourceUnit: UnitRow = {
      ...this.#blankUnit(source.id, position, string, idHash, stamp),
      target: [...string.source],
      state: 100,
    };
    sourceUnit.sourceUnitId = sourceUnit.id;
    const added = [sourceUnit];
    for (const translation of this.#translations) {
      if (translation.componentId !== componentId || translation.id === source.id) continue;
      const forms = string.source.length > 1 ? this.#pluralCount(translation.languageCode) : 1;
      added.push(this.#newUnit(translation, sourceUnit, forms, stamp));
    }
    for (const unit of added) {
      this.#unitsByTranslation.get(unit.translationId)!.push(unit);
      this.#unitsById.set(unit.id, unit);
    }
    const text = string.source.join(PLURAL_SEPARATOR);
    return added.map((unit) =>
      this.#record({ action: action.sourceStringAdded, user, unitId: unit.id, translationId: unit.translationId, componentId, target: text }, stamp),
    );
  }

  removeString(sourceUnitId: number, user: string): ChangeRow[] {
    this.#requireUser(user);
    const sourceUnit = this.#unitsById.get(sourceUnitId);
    if (!sourceUnit) throw new ActivityError(`unit ${sourceUnitId} does not exist`);
    if (sourceUnit.sourceUnitId !== sourceUnit.id) {
      throw new ActivityError(`unit ${sourceUnitId} is a translation; remove a string through its source unit ${sourceUnit.sourceUnitId}`);
    }
    const component = this.#component(this.#translation(sourceUnit.translationId).componentId);
    const stamp = this.#stamp();
    const text = sourceUnit.source.join(PLURAL_SEPARATOR);
    const changes: ChangeRow[] = [];
    for (const translation of this.#translations) {
      if (translation.componentId !== component.id) continue;
      const list = this.#unitsOf(translation.id);
      const index = list.findIndex((unit) => unit.sourceUnitId === sourceUnitId);
      if (index < 0) continue;
      this.#unitsById.delete(list[index]!.id);
      list.splice(index, 1);
      // Weblate's change for a removed string keeps the translation but not the unit (it is gone).
      changes.push(
        this.#record({ action: action.stringRemoved, user, unitId: null, translationId: translation.id, componentId: component.id, target: text }, stamp),
      );
    }
    return changes;
  }

  removeComponent(componentId: number, user: string): ChangeRow[] {
    this.#requireUser(user);
    const component = this.#component(componentId);
    const translationIds = new Set(this.#translations.filter((row) => row.componentId === componentId).map((row) => row.id));
    for (const id of translationIds) {
      for (const unit of this.#unitsOf(id)) this.#unitsById.delete(unit.id);
      this.#unitsByTranslation.delete(id);
    }
    this.#translations = this.#translations.filter((row) => !translationIds.has(row.id));
    this.#components = this.#components.filter((row) => row.id !== componentId);
    this.#notifications = this.#notifications.filter((row) => row.componentId !== componentId);
    this.#announcements = this.#announcements.filter((row) => row.componentId !== componentId);
    // Weblate deletes a component's history with it (a cascade); only the removal itself remains.
    this.#changes = this.#changes.filter((row) => row.componentId !== componentId);
    const stamp = this.#stamp();
    return [this.#record({ action: action.componentRemoved, user, unitId: null, translationId: null, componentId: null, target: component.slug }, stamp)];
  }

  #editableUnit(unitId: number, user: string) {
    this.#requireUser(user);
    const unit = this.#unitsById.get(unitId);
    if (!unit) throw new ActivityError(`unit ${unitId} does not exist`);
    if (unit.sourceUnitId === unit.id) throw new ActivityError(`unit ${unitId} is a source string; translate the units of other languages`);
    if (unit.state === 100) throw new ActivityError(`unit ${unitId} is read-only (state 100)`);
    const translation = this.#translation(unit.translationId);
    return { unit, translation, component: this.#component(translation.componentId) };
  }

  #touch(unit: UnitRow, code: number, user: string, translation: TranslationRow, component: ComponentRow, target: string): ChangeRow {
    const stamp = this.#stamp();
    // `timestamp` is when the unit was added and stays (Weblate's `auto_now_add`); an edit saves
    // the row (`last_updated`) and is the unit's newest change (`changed`, what `q=changed:` reads).
    unit.last_updated = stamp;
    unit.changed = stamp;
    // An edit stays pending until the component commits (on a download, or after commit_pending_age).
    unit.pending = true;
    this.#pendingAuthors.set(translation.id, user);
    return this.#record({ action: code, user, unitId: unit.id, translationId: translation.id, componentId: component.id, target }, stamp);
  }

  /** Now, but never before the newest change: the log stays in time order, as on a real server. */
  #stamp(): string {
    const now = isoMicroseconds(this.#now());
    const newest = this.#changes.at(-1)?.timestamp;
    return newest !== undefined && newest > now ? newest : now;
  }

  #record(change: Omit<ChangeRow, 'id' | 'timestamp' | 'author'>, timestamp: string): ChangeRow {
    const row: ChangeRow = { id: this.#nextChangeId++, timestamp, author: change.user, ...change };
    this.#changes.push(row);
    this.#revision++;
    return row;
  }

  #newUnit(translation: TranslationRow, sourceUnit: UnitRow, forms: number, timestamp: string): UnitRow {
    return {
      ...this.#blankUnit(translation.id, sourceUnit.position, sourceUnit, sourceUnit.idHash, timestamp),
      sourceUnitId: sourceUnit.id,
      target: Array.from({ length: sourceUnit.source.length > 1 ? forms : 1 }, () => ''),
    };
  }

  #blankUnit(translationId: number, position: number, string: NewString, idHash: bigint, timestamp: string): UnitRow {
    const id = this.#nextUnitId++;
    return {
      id,
      translationId,
      sourceUnitId: id,
      position,
      source: [...string.source],
      previous_source: '',
      target: [''],
      context: string.context ?? '',
      note: string.note ?? '',
      location: string.location ?? '',
      flags: string.flags ?? '',
      ...unitDefaults(),
      state: 0,
      idHash,
      contentHash: idHash,
      num_words: wordCount(string.source),
      timestamp,
    };
  }

  #pluralCount(code: string): number {
    return this.#languages.find((row) => row.code === code)?.plural.number ?? 2;
  }

  #unitsOf(translationId: number): UnitRow[] {
    return this.#unitsByTranslation.get(translationId) ?? [];
  }

  #requireUser(username: string): void {
    if (!this.#users.some((row) => row.username === username)) throw new ActivityError(`user "${username}" does not exist`);
  }

  #component(id: number): ComponentRow {
    const row = this.#components.find((component) => component.id === id);
    if (!row) throw new ActivityError(`component ${id} does not exist`);
    return row;
  }

  #translation(id: number): TranslationRow {
    const row = this.#translations.find((translation) => translation.id === id);
    if (!row) throw new ActivityError(`translation ${id} does not exist`);
    return row;
  }

  #sourceTranslation(component: ComponentRow): TranslationRow {
    const row = this.#translations.find((translation) => translation.componentId === component.id && translation.languageCode === component.sourceLanguage);
    if (!row) throw new ActivityError(`component "${component.slug}" has no source-language translation`);
    return row;
  }
}
