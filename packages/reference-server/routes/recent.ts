import { type ApiRequest, type Route, DETAIL_EDIT, READ_ONLY, findProject, notFound, ok, paginateArray, paginateStream, visibleTranslations } from '../api.ts';
import type { CategoryRow, ProjectRow, UnitRow } from '../model.ts';
import { projectPath, segment } from '../render.ts';

/**
 * What the 2026 releases add that a read-only client can read (profile `recentEndpoints`;
 * docs/weblate-api.md, "Weblate 2026"): a project's `metrics/`, `/api/suggestions/`, and 5.5's
 * categories filled in, one per project. On other profiles these paths answer 404 (categories:
 * the empty lists of routes/projects.ts and routes/extras.ts). The shapes are the reference
 * server's reading of the changelogs, not yet compared with a 2026 server.
 */

function requireRecent(request: ApiRequest): void {
  if (!request.behaviours.recentEndpoints) throw notFound();
}

/** A category per visible project, id = the project's: "General", holding no component. */
function categoryRecord(request: ApiRequest, project: ProjectRow): Record<string, unknown> {
  return {
    id: project.id,
    name: 'General',
    slug: 'general',
    project: request.links.api(`projects/${projectPath(project)}`),
    category: null,
    url: request.links.api(`categories/${project.id}/`),
  };
}

function visibleProjects(request: ApiRequest): ProjectRow[] {
  return [...request.instance.projects.values()].filter((project) => request.canSee(project));
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
 * A suggestion: the unit it is for, who made it, its text (one string per plural form) and when.
 * Its text is the unit's own target, or its source while untranslated; its author a user picked
 * by the unit's id: the datasets hold neither.
 */
function suggestionRecord(request: ApiRequest, unit: UnitRow): Record<string, unknown> {
  const users = [...request.instance.users.values()].sort((a, b) => a.id - b.id);
  const user = users.length === 0 ? null : users[unit.id % users.length]!;
  const translated = unit.target.some((form) => form !== '');
  return {
    id: unit.id,
    unit: request.links.api(`units/${unit.id}/`),
    user: user === null ? null : request.links.api(`users/${segment(user.username)}/`),
    target: [...(translated ? unit.target : unit.source)],
    timestamp: unit.timestamp,
    url: request.links.api(`suggestions/${unit.id}/`),
  };
}

export const routes: Route[] = [
  {
    pattern: ['projects', ':project', 'metrics'],
    allow: READ_ONLY,
    handle(request, params) {
      requireRecent(request);
      const project = findProject(request, params.project);
      const { instance } = request;
      const components = instance.componentsOf(project.id);
      const byLanguage = new Map<string, ReturnType<typeof instance.translationsOf>>();
      for (const component of components) {
        for (const translation of instance.translationsOf(component.id))
          byLanguage.set(translation.languageCode, [...(byLanguage.get(translation.languageCode) ?? []), translation]);
      }
      // 2026.8: the project's statistics, each component's and each language's, in one request.
      return ok({
        ...instance.statistics(
          components.flatMap((component) => instance.translationsOf(component.id)),
          true,
        ),
        name: project.name,
        url: request.links.api(`projects/${projectPath(project)}metrics/`),
        components: components.map((component) => ({
          slug: component.slug,
          ...instance.statistics(instance.translationsOf(component.id), true),
        })),
        languages: [...byLanguage].sort(([a], [b]) => a.localeCompare(b)).map(([code, translations]) => ({ code, ...instance.statistics(translations, true) })),
      });
    },
  },
  {
    pattern: ['suggestions'],
    allow: READ_ONLY,
    handle(request) {
      requireRecent(request);
      return paginateStream(
        request,
        () => suggestedUnits(request),
        (unit) => suggestionRecord(request, unit),
      );
    },
  },
  {
    pattern: ['suggestions', ':id'],
    allow: DETAIL_EDIT,
    handle(request, params) {
      requireRecent(request);
      const unit = [...suggestedUnits(request)].find((row) => String(row.id) === params.id);
      if (!unit) throw notFound();
      return ok(suggestionRecord(request, unit));
    },
  },
  {
    pattern: ['categories', ':id'],
    allow: DETAIL_EDIT,
    handle(request, params) {
      // A model with categories of its own (measured on 5.14.3) has them on every profile with 5.4's fields.
      if (modelCategories(request).length > 0) return ok(modelCategoryRecord(request, findModelCategory(request, params.id)));
      requireRecent(request);
      const project = visibleProjects(request).find((row) => String(row.id) === params.id);
      if (!project) throw notFound();
      return ok(categoryRecord(request, project));
    },
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
  };
}

/** `/api/categories/` and a project's `categories/`: the model's own; else one per project on 2026, none before. */
export function categoriesList(request: ApiRequest, project: ProjectRow | null): ReturnType<Route['handle']> {
  if (modelCategories(request).length > 0) {
    const rows = modelCategories(request).filter((row) => (project === null ? true : row.projectId === project.id));
    return paginateArray(request, rows, (row) => modelCategoryRecord(request, row));
  }
  const projects = !request.behaviours.recentEndpoints ? [] : project === null ? visibleProjects(request) : [project];
  return paginateArray(request, projects, (row) => categoryRecord(request, row));
}
