/**
 * The rows of the dataset's tables, from one snapshot's records as the site reads them
 * (site-model/records.ts `siteRecords` of the published view): figures summed the way the site
 * sums them for `status.json` (src/data/tree.ts), so a row and the site's figure agree. Pure.
 */
import { actionName, weblatePercent } from '../api/index.ts';
import { creditedActions, creditedUser, publicName, type Redact } from '../archive/credits.ts';
import type { Manifest, StoredChange, StoredUnit, StoredUser } from '../snapshot/index.ts';
import type { SiteRecords } from '../site-model/records.ts';
import { componentPathOf } from '../site-model/records.ts';
import { addTotals, emptyTotals, type Totals } from '../site-model/totals.ts';
import { pluralSeparator, type Row } from './schema.ts';

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The slugs a stored path names: `api/translations/<project>/<component>/<language>/` and its shorter kin. */
export function pathSlugs(path: string): string[] {
  return path.replace(/\/$/, '').split('/').slice(2).map(decoded);
}

/** A translation's key in the dataset: project, component and language as its path names them. */
export interface TranslationKey {
  project: string;
  component: string;
  language: string;
}

export function translationKey(path: string): TranslationKey {
  const [project = '', component = '', language = ''] = pathSlugs(path);
  return { project, component, language };
}

export const keyText = (key: TranslationKey): string => `${key.project}\u0000${key.component}\u0000${key.language}`;

/** The figure columns (schema.ts `figures`); a sum's share as the site rounds it, a record's as the server wrote it. */
function figureColumns(totals: Totals, review: boolean): Row {
  return {
    total: totals.total,
    translated: totals.translated,
    fuzzy: totals.fuzzy,
    untranslated: Math.max(totals.total - totals.translated - totals.fuzzy, 0),
    total_words: totals.total_words,
    translated_words: totals.translated_words,
    fuzzy_words: totals.fuzzy_words,
    translated_percent: totals.translated_percent ?? weblatePercent(totals.translated, totals.total, !review),
  };
}

/** An ISO timestamp to the millisecond (`…T04:15:00.000Z`), the dataset's one spelling; null when absent or unreadable. */
export function timestampValue(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

export function snapshotRow(manifest: Manifest): Row {
  return {
    snapshot: manifest.id,
    started: timestampValue(manifest.started),
    finished: timestampValue(manifest.finished),
    server: manifest.server.base_url,
    weblate_version: manifest.server.version ?? null,
    scope: manifest.scope.projects?.length ? [...manifest.scope.projects].sort().join(',') : null,
    complete: manifest.complete,
    tmsnap_version: manifest.tmsnap_version,
  };
}

export interface SnapshotRows {
  projects: Row[];
  components: Row[];
  translations: Row[];
  languages: Row[];
}

const reviewOn = (record: { translation_review?: boolean | undefined; source_review?: boolean | undefined }) =>
  record.translation_review === true || record.source_review === true;

/** One snapshot's rows of the per-snapshot tables, from the records the site reads (the published view's). */
export function snapshotRows(snapshotId: string, records: Pick<SiteRecords, 'projects' | 'components' | 'translations' | 'languages'>): SnapshotRows {
  const projects = new Map(records.projects.map(({ path, record }) => [path, { record, totals: emptyTotals(false), count: 0, review: reviewOn(record) }]));
  const components = new Map<string, { path: string; record: (typeof records.components)[number]['record']; totals: Totals; count: number; review: boolean }>();
  for (const { path, record } of records.components) {
    const project = projects.get(record.project);
    if (project) components.set(path, { path, record, totals: emptyTotals(false), count: 0, review: project.review });
  }
  const languages = new Map<string, { totals: Totals; count: number }>();
  const translations: Row[] = [];
  for (const { path, record } of records.translations) {
    const componentPath = record.component ?? componentPathOf(path);
    const component = components.get(componentPath);
    if (!component) continue;
    const project = projects.get(component.record.project)!;
    for (const into of [component, project]) {
      addTotals(into.totals, record);
      into.count += 1;
    }
    let language = languages.get(record.language_code);
    if (!language) languages.set(record.language_code, (language = { totals: emptyTotals(false), count: 0 }));
    addTotals(language.totals, record);
    language.count += 1;
    const [projectSlug = '', componentSlug = ''] = pathSlugs(componentPath);
    translations.push({
      snapshot: snapshotId,
      project: projectSlug,
      component: componentSlug,
      language: record.language_code,
      is_source: record.is_source,
      ...figureColumns(record, false),
      failing_checks: record.failing_checks,
      have_suggestion: record.have_suggestion,
      last_change: timestampValue(record.last_change),
      last_author: record.last_author,
    });
  }
  const languageRecords = new Map(records.languages.map(({ record }) => [record.code, record]));
  return {
    projects: [...projects.values()].map(({ record, totals, count, review }) => ({
      snapshot: snapshotId,
      project: record.slug,
      name: record.name,
      web: record.web,
      translations: count,
      ...figureColumns(totals, review),
    })),
    components: [...components.values()].map(({ path, record, totals, count, review }) => {
      const [project = '', component = ''] = pathSlugs(path);
      return {
        snapshot: snapshotId,
        project,
        component,
        name: record.name,
        source_language: pathSlugs(record.source_language).at(-1) ?? null,
        file_format: record.file_format,
        license: record.license,
        is_glossary: record.is_glossary,
        translations: count,
        ...figureColumns(totals, review),
      };
    }),
    translations,
    // Languages nothing translates into are left out, as on the site: a server lists about 650.
    languages: [...languages.entries()].map(([code, { totals, count }]) => {
      const record = languageRecords.get(code);
      return {
        snapshot: snapshotId,
        language: code,
        name: record?.name ?? code,
        direction: record?.direction === 'rtl' ? 'rtl' : 'ltr',
        translations: count,
        // Languages always count as reviewed where summed (site-model/totals.ts).
        ...figureColumns(totals, true),
      };
    }),
  };
}

/** What a unit version holds: a new version starts when any of these differs. */
export interface UnitContent {
  position: number;
  context: string;
  source: string;
  target: string;
  state: number;
  flags: string;
}

export function unitContent(unit: StoredUnit): UnitContent {
  return {
    position: unit.position,
    context: unit.context,
    source: unit.source.join(pluralSeparator),
    target: unit.target.join(pluralSeparator),
    state: unit.state,
    flags: [unit.flags, unit.extra_flags].filter((flags) => typeof flags === 'string' && flags !== '').join(','),
  };
}

/**
 * Whether two sightings of a unit are one version: same text (source and target, every plural
 * form), state and flags. A new position or context alone is not a new version (they follow
 * the file, not the translation); the version keeps those of its first sighting.
 */
export function sameVersion(a: UnitContent, b: UnitContent): boolean {
  return a.source === b.source && a.target === b.target && a.state === b.state && a.flags === b.flags;
}

/** A unit's id from its stored link, `api/units/123/`. */
function unitId(link: string | null): number | null {
  const match = link === null ? null : /^api\/units\/(\d+)\/$/.exec(link);
  return match ? Number(match[1]) : null;
}

/** One change record as a row; `users` and `redact` name people as the site names them (archive/credits.ts `publicName`). */
export function changeRow(change: StoredChange, firstSnapshot: string, users: ReadonlyMap<string, StoredUser>, redact: Redact): Row {
  const [project = null, component = null, language = null] =
    change.translation !== null ? pathSlugs(change.translation) : change.component !== null ? pathSlugs(change.component) : [];
  const credited = creditedUser(change);
  return {
    id: change.id,
    timestamp: timestampValue(change.timestamp),
    action: change.action,
    action_name: actionName(change.action),
    project,
    component,
    language,
    unit: unitId(change.unit),
    user: change.user === null ? null : publicName(change.user, users, redact),
    author: change.author === null ? null : publicName(change.author, users, redact),
    credited: creditedActions.has(change.action) && change.translation !== null && credited !== undefined,
    target: change.target,
    first_snapshot: firstSnapshot,
  };
}

/** The columns naming people. */
const nameColumns = ['user', 'author', 'last_author'] as const;

/** `row` naming nobody, as a site built with `--hide-authors` shows it: its name columns null. */
export function withoutNames(row: Row): Row {
  const copy = { ...row };
  for (const column of nameColumns) if (column in copy) copy[column] = null;
  return copy;
}
