/**
 * Turns parsed catalogs into the reference server's rows. Pure: everything invented
 * (review states, the change history, subscriptions, flags such as `has_comment`) comes
 * from a seeded PRNG and a fixed base time, so the same catalogs give the same bytes.
 */
import { createHash } from 'node:crypto';
import type { ChangeRow, ComponentRow, LanguageRow, NotificationRow, ProjectRow, TranslationRow, UnitRow } from '../model.ts';
import { action } from '../../../api/change.ts';
import { notificationKinds } from '../../../api/notification.ts';
import { componentDefaults } from '../component-defaults.ts';
import { PLURAL_SEPARATOR, unitHash } from '../hash.ts';
import { unitDefaults } from '../unit-defaults.ts';
import type { ModelRows } from '../memory-model.ts';
import type { PoCatalog, PoEntry } from './po.ts';
import { seededRandom, type Random } from './random.ts';
import { ADMIN, LANGUAGES, PROJECTS, REVIEWER, SOURCE_LANGUAGE, TRANSLATORS, USERS, type ComponentSpec } from './spec.ts';

export interface ParsedComponent {
  spec: ComponentSpec;
  /** Entries giving source strings, notes, locations and flags, in file order. */
  sourceEntries: PoEntry[];
  /** Weblate language code → that language's catalog; languages without a file are absent. */
  catalogs: ReadonlyMap<string, PoCatalog>;
}

/** A dataset's rows (`ModelRows`), but units grouped by component. */
export interface BundledInstance extends Omit<ModelRows, 'units'> {
  /** Component id → its units, all translations, ascending id. */
  units: Map<number, UnitRow[]>;
}

export type Plurals = ReadonlyMap<string, { number: number; formula: string }>;

const SEED = 20250106;
/** 2025-01-06T09:00:00Z in microseconds: the instance's first change. */
const BASE_TIME = Date.UTC(2025, 0, 6, 9, 0, 0) * 1000;
const MINUTE = 60_000_000;
const DAY = 24 * 60 * MINUTE;
const ACTIVITY_DAYS = 300;

/** The slug of a component that existed once; only its removal (action 38) remains. */
export const REMOVED_COMPONENT_SLUG = 'admin-legacy';

/**
 * Hostile-but-real-looking values the catalogs lack, so every consumer has to escape what
 * it shows: keyed by component slug and source string, applied to that string's units.
 */
export const INVENTED_VALUES: readonly { component: string; source: string; field: 'note' | 'explanation'; value: string }[] = [
  { component: 'glossary', source: 'Arabic', field: 'note', value: 'Language name in the <b>language switcher</b>; keep it short.' },
  {
    component: 'admin-javascript',
    source: 'Now',
    field: 'explanation',
    value: 'Button of the time picker. Never paste markup such as <script>alert("now")</script> here.',
  },
];

/** ISO 8601 UTC with microseconds and Z, as Weblate writes timestamps. */
export function formatTimestamp(micros: number): string {
  const iso = new Date(Math.floor(micros / 1000)).toISOString();
  return `${iso.slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
}

/** Weblate's plural type for a rule (weblate/lang/data.py), for the rules these catalogs use. */
export function pluralType(code: string, number: number): number {
  if (number === 1) return 0; // none
  if (number === 2) return 1; // one/other
  if (number === 3) return 2; // one/few/other
  if (number === 6) return 3; // arabic
  if (number === 4) return code === 'he' ? 6 : 8; // one/two/few/other, one/few/many/other
  return 666;
}

export function entryKey(context: string, source: string): string {
  return `${context}\u0004${source}`;
}

/** Weblate counts the words of a unit's (first) source form. */
export function countWords(source: readonly string[]): number {
  return (source[0] ?? '').split(/\s+/).filter(Boolean).length;
}

/** A catalog's forms fitted to the language's plural count (catalogs can disagree with it). */
export function fitForms(forms: readonly string[], plural: boolean, number: number): string[] {
  if (!plural) return [forms[0] ?? ''];
  return Array.from({ length: number }, (_, i) => forms[Math.min(i, forms.length - 1)] ?? '');
}

export function unitState(entry: PoEntry | undefined): 0 | 10 | 20 {
  if (entry === undefined || entry.target.every((form) => form === '')) return 0;
  if (entry.fuzzy) return 10;
  return entry.target.every((form) => form !== '') ? 20 : 0;
}

function revisionOf(...parts: string[]): string {
  return createHash('sha1').update(parts.join('/')).digest('hex');
}

function buildLanguages(plurals: Plurals): LanguageRow[] {
  return LANGUAGES.map((language, index) => {
    const rule = plurals.get(language.code);
    if (rule === undefined) throw new Error(`no Plural-Forms found for language ${language.code}`);
    return {
      ...language,
      plural: { id: index + 1, source: 0, number: rule.number, formula: rule.formula, type: pluralType(language.code, rule.number) },
    };
  });
}

interface PendingChange {
  time: number;
  action: number;
  user: string | null;
  unitId: number | null;
  translationId: number | null;
  componentId: number | null;
  target: string;
}

export function buildInstance(parsed: readonly ParsedComponent[], plurals: Plurals): BundledInstance {
  const random = seededRandom(SEED);
  const languages = buildLanguages(plurals);
  const languageByCode = new Map(languages.map((l) => [l.code, l]));
  const projects: ProjectRow[] = PROJECTS.map((project, index) => ({ id: index + 1, ...project }));

  const components: ComponentRow[] = [];
  const translations: TranslationRow[] = [];
  const units = new Map<number, UnitRow[]>();
  const pending: PendingChange[] = [];
  const componentCreated = new Map<number, number>();

  let clock = BASE_TIME;
  const tick = (minMinutes: number, maxMinutes: number): number => {
    clock += random.int(minMinutes * MINUTE, maxMinutes * MINUTE);
    return clock;
  };

  let nextTranslationId = 1;
  let nextUnitId = 1;
  for (const project of projects) {
    pending.push({ time: tick(5, 30), action: action.projectCreated, user: ADMIN, unitId: null, translationId: null, componentId: null, target: '' });
    for (const item of parsed.filter((p) => p.spec.project === project.slug)) {
      const component = buildComponent(item.spec, components.length + 1, project.id);
      components.push(component);
      componentCreated.set(component.id, tick(2, 15));
      pending.push({ time: clock, action: action.componentCreated, user: ADMIN, unitId: null, translationId: null, componentId: component.id, target: '' });

      const rows: UnitRow[] = [];
      const sourceTranslation: TranslationRow = {
        id: nextTranslationId++,
        componentId: component.id,
        languageCode: SOURCE_LANGUAGE,
        filename: sourceFilename(item.spec),
        revision: revisionOf(project.slug, component.slug, SOURCE_LANGUAGE),
      };
      translations.push(sourceTranslation);
      const sourceLanguage = languageByCode.get(SOURCE_LANGUAGE);
      if (sourceLanguage === undefined) throw new Error(`source language ${SOURCE_LANGUAGE} is not in LANGUAGES`);
      const sourceUnits = item.sourceEntries.map((entry, index): UnitRow =>
        makeUnit(nextUnitId++, sourceTranslation.id, index + 1, entry, {
          target: fitForms(entry.source, entry.source.length > 1, sourceLanguage.plural.number),
          state: 100,
          previousSource: '',
        }),
      );
      for (const unit of sourceUnits) unit.sourceUnitId = unit.id;
      rows.push(...sourceUnits);

      const codes = [...item.catalogs.keys()].sort();
      for (const code of codes) {
        const catalog = item.catalogs.get(code);
        const language = languageByCode.get(code);
        const locale = item.spec.locales[code];
        if (catalog === undefined || language === undefined || locale === undefined) {
          throw new Error(`component ${item.spec.slug}: language ${code} has no catalog, language row or locale`);
        }
        const translation: TranslationRow = {
          id: nextTranslationId++,
          componentId: component.id,
          languageCode: code,
          filename: item.spec.fields.filemask.replace('*', locale),
          revision: revisionOf(project.slug, component.slug, code),
        };
        translations.push(translation);
        const byKey = new Map(catalog.entries.map((e) => [entryKey(e.context, e.source[0] ?? ''), e]));
        item.sourceEntries.forEach((sourceEntry, index) => {
          const entry = byKey.get(entryKey(sourceEntry.context, sourceEntry.source[0] ?? ''));
          const plural = sourceEntry.source.length > 1;
          let state: number = unitState(entry);
          if (state === 20 && project.translation_review && random.chance(0.4)) state = 30;
          const target = state === 0 ? fitForms([''], plural, language.plural.number) : fitForms(entry?.target ?? [''], plural, language.plural.number);
          const previousSource = state === 10 && entry !== undefined && entry.previousSource.length > 0 ? entry.previousSource.join(PLURAL_SEPARATOR) : '';
          const unit = makeUnit(nextUnitId++, translation.id, index + 1, sourceEntry, { target, state, previousSource });
          unit.sourceUnitId = sourceUnits[index]?.id ?? unit.id;
          unit.has_suggestion = state < 20 && random.chance(0.03);
          unit.has_comment = random.chance(0.005);
          unit.has_failing_check = state >= 20 && random.chance(0.02);
          rows.push(unit);
        });
      }
      applyInventedValues(component.slug, rows);
      units.set(component.id, rows);
    }
  }

  const setupEnd = clock;
  planActivity(random, setupEnd, components, translations, units, pending);
  pending.push({
    time: setupEnd + random.int(20, 40) * DAY,
    action: action.componentRemoved,
    user: ADMIN,
    unitId: null,
    translationId: null,
    componentId: null,
    target: REMOVED_COMPONENT_SLUG,
  });

  const changes = finishChanges(pending);
  stampUnits(units, changes, componentCreated);

  return {
    languages,
    users: [...USERS],
    projects,
    components,
    translations,
    notifications: buildNotifications(components),
    changes,
    units,
  };
}

function sourceFilename(spec: ComponentSpec): string {
  if (spec.source !== 'union' && 'locale' in spec.source && spec.source.locale === SOURCE_LANGUAGE) {
    return spec.fields.filemask.replace('*', SOURCE_LANGUAGE);
  }
  return spec.fields.new_base ?? '';
}

function buildComponent(spec: ComponentSpec, id: number, projectId: number): ComponentRow {
  return {
    ...componentDefaults,
    ...spec.fields,
    id,
    projectId,
    slug: spec.slug,
    name: spec.name,
    sourceLanguage: SOURCE_LANGUAGE,
  };
}

function makeUnit(
  id: number,
  translationId: number,
  position: number,
  entry: PoEntry,
  values: { target: string[]; state: number; previousSource: string },
): UnitRow {
  const hash = unitHash(entry.source, entry.context);
  return {
    id,
    translationId,
    sourceUnitId: id,
    position,
    source: [...entry.source],
    previous_source: values.previousSource,
    target: values.target,
    context: entry.context,
    note: entry.note,
    location: entry.locations.join(', '),
    flags: entry.flags.join(', '),
    ...unitDefaults(),
    state: values.state,
    idHash: hash,
    contentHash: hash,
    num_words: countWords(entry.source),
    timestamp: '',
  };
}

function applyInventedValues(componentSlug: string, rows: UnitRow[]): void {
  for (const invented of INVENTED_VALUES.filter((v) => v.component === componentSlug)) {
    const matching = rows.filter((unit) => unit.source[0] === invented.source);
    if (matching.length === 0) throw new Error(`component ${componentSlug} has no source string ${JSON.stringify(invented.source)}`);
    for (const unit of matching) unit[invented.field] = invented.value;
  }
}

function translatorOf(random: Random, languageCode: string): string {
  return random.pick(TRANSLATORS[languageCode] ?? [ADMIN]);
}

/** Invents translator and repository activity after setup, consistent with the units' states. */
function planActivity(
  random: Random,
  start: number,
  components: readonly ComponentRow[],
  translations: readonly TranslationRow[],
  units: ReadonlyMap<number, UnitRow[]>,
  pending: PendingChange[],
): void {
  const span = ACTIVITY_DAYS * DAY;
  const at = (): number => start + random.int(0, span);
  const translationById = new Map(translations.map((t) => [t.id, t]));

  for (const component of components) {
    for (const unit of units.get(component.id) ?? []) {
      const translation = translationById.get(unit.translationId);
      if (translation === undefined) continue;
      const base = { unitId: unit.id, translationId: translation.id, componentId: component.id, target: '' };
      if (unit.state === 100) {
        if (random.chance(0.004)) {
          pending.push({ ...base, time: at(), action: action.stringUpdatedInTheRepository, user: null, target: unit.source.join(PLURAL_SEPARATOR) });
        }
        continue;
      }
      if (unit.state === 0 || !random.chance(unit.state === 20 ? 0.05 : 0.35)) continue;
      const times = [at(), at(), at()].sort((a, b) => a - b) as [number, number, number];
      const translator = translatorOf(random, translation.languageCode);
      pending.push({ ...base, time: times[0], action: action.translationAdded, user: translator, target: unit.target.join(PLURAL_SEPARATOR) });
      if (random.chance(0.3)) {
        pending.push({ ...base, time: times[1], action: action.translationChanged, user: translator, target: unit.target.join(PLURAL_SEPARATOR) });
      }
      if (unit.state === 30) pending.push({ ...base, time: times[2], action: action.translationApproved, user: REVIEWER, target: '' });
      if (unit.state === 10) {
        pending.push({ ...base, time: times[2], action: action.markedForEdit, user: random.chance(0.5) ? translator : null, target: '' });
      }
    }
    const componentTranslations = translations.filter((t) => t.componentId === component.id);
    for (let i = random.int(1, 3); i > 0; i--) {
      pending.push({ time: at(), action: action.repositoryRebased, user: null, unitId: null, translationId: null, componentId: component.id, target: '' });
    }
    for (let i = random.int(1, 2); i > 0; i--) {
      const translation = random.pick(componentTranslations);
      pending.push({
        time: at(),
        action: action.resourceUpdated,
        user: null,
        unitId: null,
        translationId: translation.id,
        componentId: component.id,
        target: '',
      });
    }
    const committed = random.pick(componentTranslations);
    const commitTime = at();
    pending.push({
      time: commitTime,
      action: action.changesCommitted,
      user: translatorOf(random, committed.languageCode),
      unitId: null,
      translationId: committed.id,
      componentId: component.id,
      target: '',
    });
    pending.push({
      time: commitTime + random.int(1, 5) * MINUTE,
      action: action.changesPushed,
      user: null,
      unitId: null,
      translationId: committed.id,
      componentId: component.id,
      target: '',
    });
  }
}

/** Orders changes by time (ids ascend with timestamps, as on a real server) and gives them ids. */
function finishChanges(pending: PendingChange[]): ChangeRow[] {
  const ordered = pending.map((change, index) => ({ change, index })).sort((a, b) => a.change.time - b.change.time || a.index - b.index);
  let previous = -1;
  return ordered.map(({ change }, index) => {
    // Strictly increasing timestamps: a tie moves one microsecond later.
    const time = Math.max(change.time, previous + 1);
    previous = time;
    return {
      id: index + 1,
      action: change.action,
      timestamp: formatTimestamp(time),
      user: change.user,
      author: change.user,
      unitId: change.unitId,
      translationId: change.translationId,
      componentId: change.componentId,
      target: change.target,
    };
  });
}

/** A unit's timestamp is its last change, or its component's creation. */
function stampUnits(units: ReadonlyMap<number, UnitRow[]>, changes: readonly ChangeRow[], componentCreated: ReadonlyMap<number, number>): void {
  const lastChange = new Map<number, string>();
  for (const change of changes) if (change.unitId !== null) lastChange.set(change.unitId, change.timestamp);
  for (const [componentId, rows] of units) {
    const created = formatTimestamp(componentCreated.get(componentId) ?? BASE_TIME);
    for (const unit of rows) unit.timestamp = lastChange.get(unit.id) ?? created;
  }
}

function buildNotifications(components: readonly ComponentRow[]): NotificationRow[] {
  const scopes = [0, 10, 20, 40] as const;
  const subscribers = USERS.filter((u) => u.username !== ADMIN);
  const rows: NotificationRow[] = [];
  const add = (username: string, notification: string, scope: number, frequency: number, componentIndex: number): void => {
    const component = components[componentIndex % components.length];
    if (component === undefined) throw new Error('notifications need at least one component');
    rows.push({
      id: rows.length + 1,
      username,
      notification,
      scope,
      frequency,
      projectId: scope === 40 ? component.projectId : null,
      componentId: scope === 40 ? component.id : null,
    });
  };
  notificationKinds.forEach((kind, index) => {
    const user = subscribers[index % subscribers.length];
    if (user === undefined) throw new Error('notifications need subscribers');
    add(user.username, kind, scopes[index % scopes.length] ?? 0, 1 + (Math.floor(index / scopes.length) % 2), index);
  });
  // Weblate's defaults for a new user, plus the same kind at several scopes.
  for (const [scope, frequency] of [
    [0, 1],
    [10, 1],
    [20, 2],
    [40, 2],
  ] as const) {
    add(ADMIN, 'ChangedStringNotificaton', scope, frequency, 0);
  }
  add(ADMIN, 'MergeFailureNotification', 20, 1, 0);
  add(ADMIN, 'ParseErrorNotification', 20, 1, 0);
  add(REVIEWER, 'PendingSuggestionsNotification', 40, 2, 1);
  add(REVIEWER, 'TranslatedStringNotificaton', 10, 2, 0);
  return rows;
}
