import {
  type ApiRequest,
  type Route,
  LIST_CREATE,
  READ_ONLY,
  collectionRoutes,
  notFound,
  paginate,
  paginateArray,
  requireToken,
  visibleTranslations,
} from '../api.ts';
import type { ProjectRow, UnitRow } from '../model.ts';
import { projectPath } from '../render.ts';
import { categoriesList } from './recent.ts';

/**
 * Collections the API root links to that hold nothing tmsnap reads. They answer like a
 * fresh Weblate: the built-in groups and roles, everything else empty. A 5.4 profile fills
 * them in as a real server does (README.md, "Profiles"): groups name their roles by URL, each
 * project has its own administration team, roles list their permissions, and the translation
 * memory holds what the projects translated.
 */
const roles = ['Access repository', 'Administration', 'Edit source', 'Power user', 'Review strings', 'Translate'];
const permissions: Record<string, string[]> = {
  'Access repository': ['vcs.access', 'vcs.view'],
  Administration: ['component.edit', 'project.edit', 'translation.add', 'unit.edit', 'unit.review', 'vcs.commit', 'vcs.push'],
  'Edit source': ['source.edit', 'unit.edit'],
  'Power user': ['suggestion.add', 'translation.add', 'unit.edit'],
  'Review strings': ['unit.edit', 'unit.review'],
  Translate: ['suggestion.add', 'unit.edit'],
};

interface Group {
  name: string;
  roles: string[];
  /** A project's own team; null for the site-wide built-in groups. */
  project: ProjectRow | null;
}

const builtInGroups: Group[] = [
  { name: 'Guests', roles: ['Access repository'], project: null },
  { name: 'Viewers', roles: [], project: null },
  { name: 'Users', roles: ['Power user'], project: null },
  { name: 'Reviewers', roles: ['Review strings'], project: null },
  { name: 'Managers', roles: ['Administration'], project: null },
];

/** Built-in groups, then (5.4) each visible project's "Administration" team; ids from 1 in that order. */
function groupsOf(request: ApiRequest): Group[] {
  if (!request.links.weblateFields) return builtInGroups;
  const teams = [...request.instance.projects.values()]
    .filter((project) => request.canSee(project))
    .map((project): Group => ({ name: 'Administration', roles: ['Administration'], project }));
  return [...builtInGroups, ...teams];
}

function groupRecord(request: ApiRequest, group: Group, index: number): Record<string, unknown> {
  const { links } = request;
  const filled = links.weblateFields;
  const projectUrl = group.project ? links.api(`projects/${projectPath(group.project)}`) : null;
  return {
    id: index + 1,
    name: group.name,
    defining_project: filled ? projectUrl : null,
    // 5.4's built-in groups reach all projects (3) and all languages (1); the description's server said 0.
    project_selection: filled && !group.project ? 3 : 0,
    language_selection: filled ? 1 : 0,
    url: links.api(`groups/${index + 1}/`),
    roles: filled ? group.roles.map((role) => links.api(`roles/${roles.indexOf(role) + 1}/`)) : [],
    languages: [],
    projects: filled && projectUrl ? [projectUrl] : [],
    ...(filled ? { componentlists: [] } : {}),
    components: [],
    ...(links.fields514 ? { enforced_2fa: false } : {}),
  };
}

const roleRecord = (request: ApiRequest, index: number) => ({
  id: index + 1,
  name: roles[index],
  permissions: request.links.weblateFields ? [...permissions[roles[index]!]!] : [],
  url: request.links.api(`roles/${index + 1}/`),
});

/** The 0-based index of `/<id>/` in a list of `length`. */
function indexOf(length: number, id: string | undefined): number {
  const index = /^\d+$/.test(id ?? '') ? Number(id) - 1 : -1;
  if (index < 0 || index >= length) throw notFound();
  return index;
}

/** Units of a translation from the `skip`-th translated one (state 20 and up), at most `limit`, reading windows from its start. */
function translatedUnits(request: ApiRequest, translationId: number, skip: number, limit: number): UnitRow[] {
  const kept: UnitRow[] = [];
  let seen = 0;
  for (const unit of request.instance.unitsOf(translationId)) {
    if (unit.state < 20) continue;
    if (seen++ >= skip) kept.push(unit);
    if (kept.length >= limit) break;
  }
  return kept;
}

/**
 * A translation memory entry per translated unit of the visible projects (source languages left
 * out). Counted from each translation's cached statistics (`translated` is the units at state 20
 * and up): a page reads the units of the translations it covers only, where a scan of every unit
 * for each page made the 630 pages of a 1M-unit instance take an hour (docs/crawl.md).
 */
function memoryList(request: ApiRequest) {
  requireToken(request);
  if (!request.links.weblateFields) return paginateArray(request, [], () => null);
  const { instance } = request;
  const translations = visibleTranslations(request)
    .filter((translation) => translation.languageCode !== instance.componentOf(translation).sourceLanguage)
    .map((translation) => ({ translation, count: instance.counts(translation.id).translated }));
  const count = translations.reduce((sum, entry) => sum + entry.count, 0);
  const window = (offset: number, limit: number): UnitRow[] => {
    const units: UnitRow[] = [];
    let skip = offset;
    for (const { translation, count } of translations) {
      if (units.length >= limit) break;
      if (skip >= count) {
        skip -= count;
        continue;
      }
      units.push(...translatedUnits(request, translation.id, skip, limit - units.length));
      skip = 0;
    }
    return units;
  };
  return paginate(request, count, (offset, limit) =>
    window(offset, limit).map((unit) => {
      const translation = instance.translations.get(unit.translationId)!;
      const component = instance.componentOf(translation);
      const project = instance.projectOf(component);
      return {
        id: unit.id,
        source: unit.source[0] ?? '',
        target: unit.target[0] ?? '',
        source_language: instance.language(component.sourceLanguage).id ?? 0,
        target_language: instance.language(translation.languageCode).id ?? 0,
        origin: `${project.slug}/${component.slug}`,
        project: project.id,
        from_file: false,
        shared: false,
      };
    }),
  );
}

export const routes: Route[] = [
  ...collectionRoutes('groups', 'id', {
    list: (request) => groupsOf(request).map((group, index) => ({ group, index })),
    find(request, id) {
      const groups = groupsOf(request);
      const index = indexOf(groups.length, id);
      return { group: groups[index]!, index };
    },
    render: (request, { group, index }) => groupRecord(request, group, index),
  }),
  ...collectionRoutes('roles', 'id', {
    list: () => roles.map((_, index) => index),
    find: (_, id) => indexOf(roles.length, id),
    render: roleRecord,
  }),
  {
    pattern: ['memory'],
    // 2026.10.1 (measured): read-only, and anonymous clients refused before throttling.
    allow: (behaviours) => (behaviours.recentEndpoints ? READ_ONLY : LIST_CREATE),
    tokenFirst: (behaviours) => behaviours.recentEndpoints,
    handle: memoryList,
  },
  ...['component-lists', 'screenshots', 'addons'].map((name): Route => ({
    pattern: [name],
    allow: name === 'addons' ? READ_ONLY : LIST_CREATE,
    handle: (request) => paginateArray(request, [], () => null),
  })),
  { pattern: ['categories'], allow: LIST_CREATE, handle: (request) => categoriesList(request, null) },
];
