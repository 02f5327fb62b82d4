import {
  type ApiRequest,
  type Route,
  DETAIL_EDIT,
  LIST_CREATE,
  READ_ONLY,
  findComponent,
  findProject,
  findTranslation,
  notFound,
  ok,
  paginateArray,
  paginateStream,
  requireToken,
  visibleTranslations,
} from '../api.ts';
import type { AnnouncementRow, CategoryRow, ProjectRow, UnitRow } from '../model.ts';
import { categorySettings2026, projectPath, segment } from '../render.ts';

/**
 * What 2026.10.1 adds that a read-only client can read (profile `recentEndpoints`; measured,
 * docs/decisions/2026-11-28-reference-vs-weblate-2026.md): a project's `metrics/`,
 * `/api/suggestions/`, the `announcements/` and `reports/` lists. On other profiles these paths
 * answer 404.
 */

function requireRecent(request: ApiRequest): void {
  if (!request.behaviours.recentEndpoints) throw notFound();
}

/**
 * The suggestions the client may see, newest first, as records: the model's own when it
 * recorded them (a mirror of a real server), otherwise one per unit with `has_suggestion`.
 */
function suggestionRecords(request: ApiRequest): Record<string, unknown>[] {
  const recorded = request.instance.model.suggestions?.();
  if (recorded === undefined) return [...suggestedUnits(request)].map((unit) => suggestionRecord(request, unit));
  const visible = new Set(visibleTranslations(request).map((translation) => translation.id));
  return recorded
    .filter((row) => visible.has(request.instance.model.unit(row.unitId)?.translationId ?? -1))
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp) || b.id - a.id)
    .map((row) => ({
      id: row.id,
      unit: request.links.api(`units/${row.unitId}/`),
      target: [...row.target],
      user: row.user === null ? null : request.links.api(`users/${segment(row.user)}/`),
      timestamp: row.timestamp,
      votes: row.votes,
    }));
}

/** Units with a suggestion, newest first, each one suggestion (the datasets record only `has_suggestion`). */
function* suggestedUnits(request: ApiRequest): Generator<UnitRow> {
  const { model } = request.instance;
  const found: UnitRow[] = [];
  for (const translation of visibleTranslations(request)) {
    const count = model.unitCount(translation.id);
    for (let offset = 0; offset < count; offset += 5000)
      for (const unit of model.units(translation.id, offset, 5000)) if (unit.has_suggestion) found.push(unit);
  }
  yield* found.sort((a, b) => b.timestamp.localeCompare(a.timestamp) || b.id - a.id);
}

/**
 * A suggestion: the unit it is for, who made it, its text (one string per plural form), when,
 * and its votes. Its text is the unit's own target, or its source while untranslated; its author
 * a user and its votes a number picked by the unit's id: the datasets hold none of them. The
 * fields are 2026.10.1's `SuggestionSerializer`'s (read from its source; unmeasured: the seeded
 * 2026.10.1 had no suggestion).
 */
function suggestionRecord(request: ApiRequest, unit: UnitRow): Record<string, unknown> {
  const users = [...request.instance.users.values()].sort((a, b) => a.id - b.id);
  const user = users.length === 0 ? null : users[unit.id % users.length]!;
  const translated = unit.target.some((form) => form !== '');
  return {
    id: unit.id,
    unit: request.links.api(`units/${unit.id}/`),
    target: [...(translated ? unit.target : unit.source)],
    user: user === null ? null : request.links.api(`users/${segment(user.username)}/`),
    timestamp: unit.timestamp,
    votes: unit.id % 3,
  };
}

/** Strings in the order PostgreSQL's C collation gives them (capitals first), as 2026.10.1 orders `metrics/`. */
const byBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The figures of one translation in a project's `metrics/` (measured on 2026.10.1: these, in this order). */
const metricsFields = [
  'translated',
  'translated_words',
  'translated_chars',
  'total',
  'total_words',
  'total_chars',
  'fuzzy',
  'fuzzy_words',
  'fuzzy_chars',
  'failing',
  'failing_words',
  'failing_chars',
  'approved',
  'approved_words',
  'approved_chars',
  'suggestions',
  'comments',
  'translated_percent',
  'translated_words_percent',
  'translated_chars_percent',
  'approved_percent',
  'approved_words_percent',
  'approved_chars_percent',
] as const;

/** An empty list that exists (nothing of it in the model): 2026.10.1's reports on the seeded data. */
const emptyList = (request: ApiRequest) => paginateArray(request, [], () => null);

/** `reports/` of every kind answer 401 to anonymous clients on 2026.10.1, public objects included. */
function reportsOf(request: ApiRequest, find: () => unknown): ReturnType<Route['handle']> {
  requireRecent(request);
  requireToken(request);
  find();
  return emptyList(request);
}

/** As `memory/` on 2026.10.1: anonymous clients refused before throttling (their 401 on `reports/` is measured, its headers are not). */
const reportsRefuseFirst = (behaviours: ApiRequest['behaviours']): boolean => behaviours.recentEndpoints;

/**
 * An object's own announcements (Weblate's `get_announcements`: a project's are those on no
 * component), expired ones included, by id. The model's are of projects and components only:
 * a translation's and a category's lists are empty.
 */
function announcementsOf(request: ApiRequest, mine: (row: AnnouncementRow) => boolean): ReturnType<Route['handle']> {
  requireRecent(request);
  const rows = (request.instance.model.announcements?.() ?? []).filter(mine);
  return paginateArray(request, rows, (row) => ({ id: row.id, message: row.message, severity: row.severity, expiry: row.expiry, notify: row.notify }));
}

export const routes: Route[] = [
  {
    pattern: ['projects', ':project', 'metrics'],
    allow: READ_ONLY,
    handle(request, params) {
      requireRecent(request);
      const project = findProject(request, params.project);
      const { instance } = request;
      // Component (by its path) → language (by code) → that translation's figures, as 5.14 counts them.
      const components = [...instance.componentsOf(project.id)].sort((a, b) => byBytes(a.name, b.name));
      return ok(
        Object.fromEntries(
          components.map((component) => {
            const translations = [...instance.translationsOf(component.id)].sort((a, b) =>
              byBytes(instance.language(a.languageCode).name, instance.language(b.languageCode).name),
            );
            return [
              component.slug,
              Object.fromEntries(
                translations.map((translation) => {
                  const review = project.translation_review && translation.languageCode !== component.sourceLanguage;
                  const figures = instance.statistics([translation], true, { review });
                  const counts = instance.counts(translation.id);
                  const all: Record<string, unknown> = {
                    ...figures,
                    failing_words: counts.failingWords,
                    failing_chars: counts.failingChars + counts.failingSeparators,
                  };
                  return [
                    translation.languageCode,
                    { name: instance.language(translation.languageCode).name, ...Object.fromEntries(metricsFields.map((name) => [name, all[name]])) },
                  ];
                }),
              ),
            ];
          }),
        ),
      );
    },
  },
  {
    pattern: ['suggestions'],
    allow: READ_ONLY,
    handle(request) {
      requireRecent(request);
      return paginateArray(request, suggestionRecords(request), (record) => record);
    },
  },
  {
    pattern: ['suggestions', ':id'],
    allow: DETAIL_EDIT,
    handle(request, params) {
      requireRecent(request);
      const record = suggestionRecords(request).find((row) => String(row.id) === params.id);
      if (!record) throw notFound();
      return ok(record);
    },
  },
  { pattern: ['reports'], allow: LIST_CREATE, tokenFirst: reportsRefuseFirst, handle: (request) => reportsOf(request, () => null) },
  {
    pattern: ['projects', ':project', 'reports'],
    allow: LIST_CREATE,
    tokenFirst: reportsRefuseFirst,
    handle: (request, params) => reportsOf(request, () => findProject(request, params.project)),
  },
  {
    pattern: ['components', ':project', ':component', 'reports'],
    allow: LIST_CREATE,
    tokenFirst: reportsRefuseFirst,
    handle: (request, params) => reportsOf(request, () => findComponent(request, params)),
  },
  {
    pattern: ['categories', ':id', 'reports'],
    allow: LIST_CREATE,
    tokenFirst: reportsRefuseFirst,
    handle: (request, params) => reportsOf(request, () => findModelCategory(request, params.id)),
  },
  {
    pattern: ['projects', ':project', 'announcements'],
    allow: LIST_CREATE,
    handle: (request, params) => {
      const project = findProject(request, params.project);
      return announcementsOf(request, (row) => row.projectId === project.id && row.componentId === null);
    },
  },
  {
    pattern: ['components', ':project', ':component', 'announcements'],
    allow: LIST_CREATE,
    handle: (request, params) => {
      const component = findComponent(request, params);
      return announcementsOf(request, (row) => row.componentId === component.id);
    },
  },
  {
    pattern: ['translations', ':project', ':component', ':language', 'announcements'],
    allow: LIST_CREATE,
    handle: (request, params) => {
      findTranslation(request, params);
      return announcementsOf(request, () => false);
    },
  },
  {
    pattern: ['categories', ':id', 'announcements'],
    allow: LIST_CREATE,
    handle: (request, params) => {
      findModelCategory(request, params.id);
      return announcementsOf(request, () => false);
    },
  },
  {
    pattern: ['categories', ':id'],
    allow: DETAIL_EDIT,
    // A model with categories of its own (measured on 5.14.3) has them on every profile with 5.4's fields.
    handle: (request, params) => ok(modelCategoryRecord(request, findModelCategory(request, params.id))),
  },
];

/** The model's own categories (`Model.categories`) in projects the client may see, by id; none without 5.4's fields. */
export function modelCategories(request: ApiRequest): CategoryRow[] {
  if (!request.links.weblateFields) return [];
  const { instance } = request;
  return [...(instance.model.categories?.() ?? [])]
    .filter((row) => {
      const project = instance.projects.get(row.projectId);
      return project !== undefined && request.canSee(project);
    })
    .sort((a, b) => a.id - b.id);
}

export function findModelCategory(request: ApiRequest, id: string | undefined): CategoryRow {
  const row = modelCategories(request).find((category) => String(category.id) === id);
  if (!row) throw notFound();
  return row;
}

/** A category's path in browser URLs: its parents' slugs and its own. */
export function categoryWebPath(request: ApiRequest, category: CategoryRow): string {
  const all = request.instance.model.categories?.() ?? [];
  const slugs: string[] = [];
  for (let row: CategoryRow | undefined = category; row; row = row.categoryId === null ? undefined : all.find((other) => other.id === row!.categoryId))
    slugs.unshift(segment(row.slug));
  return `${projectPath(request.instance.projects.get(category.projectId)!)}${slugs.join('/')}/`;
}

/** A category as 5.14.3 writes it. */
function modelCategoryRecord(request: ApiRequest, row: CategoryRow): Record<string, unknown> {
  const project = request.instance.projects.get(row.projectId)!;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    project: request.links.api(`projects/${projectPath(project)}`),
    category: row.categoryId === null ? null : request.links.api(`categories/${row.categoryId}/`),
    url: request.links.api(`categories/${row.id}/`),
    statistics_url: request.links.api(`categories/${row.id}/statistics/`),
    ...(request.links.recentFields
      ? {
          announcements_url: request.links.api(`categories/${row.id}/announcements/`),
          reports_url: request.links.api(`categories/${row.id}/reports/`),
          ...categorySettings2026(),
        }
      : {}),
  };
}

/** `/api/categories/` and a project's `categories/`: the model's own (none on a model without categories). */
export function categoriesList(request: ApiRequest, project: ProjectRow | null): ReturnType<Route['handle']> {
  const rows = modelCategories(request).filter((row) => (project === null ? true : row.projectId === project.id));
  return paginateArray(request, rows, (row) => modelCategoryRecord(request, row));
}
