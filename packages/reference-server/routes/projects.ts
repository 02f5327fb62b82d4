import {
  type Route,
  LIST_CREATE,
  READ_ONLY,
  collectionRoutes,
  findProject,
  ok,
  paginateArray,
  renderComponent,
  requirePermission,
  statisticsStyle,
} from '../api.ts';
import type { TranslationRow } from '../model.ts';
import { projectPath, projectRecord } from '../render.ts';
import { changesList } from './changes.ts';
import { categoriesList } from './recent.ts';
import { projectRepository, projectRepository2026 } from './repository.ts';

export const routes: Route[] = [
  ...collectionRoutes('projects', 'project', {
    list: (request) => [...request.instance.projects.values()].filter((project) => request.canSee(project)),
    find: findProject,
    render: (request, project) => projectRecord(request.links, project),
  }),
  {
    pattern: ['projects', ':project', 'components'],
    allow: LIST_CREATE,
    handle(request, params) {
      const project = findProject(request, params.project);
      // A real server leaves the project out of these items: the list's URL names it.
      const embedProject = !request.behaviours.parentlessNestedLists;
      return paginateArray(request, request.instance.componentsOf(project.id), (component) => renderComponent(request, component, embedProject));
    },
  },
  // 5.4's categories and labels of a project: lists that exist, empty on the reference server but for 2026's category (recent.ts).
  {
    pattern: ['projects', ':project', 'categories'],
    // A read-only action of the project (5.14.3 announces no POST); categories are made at /api/categories/.
    allow: READ_ONLY,
    handle: (request, params) => categoriesList(request, findProject(request, params.project)),
  },
  {
    pattern: ['projects', ':project', 'labels'],
    allow: LIST_CREATE,
    handle(request, params) {
      findProject(request, params.project);
      return paginateArray(request, [], () => null);
    },
  },
  {
    pattern: ['projects', ':project', 'repository'],
    allow: LIST_CREATE,
    handle(request, params) {
      const project = findProject(request, params.project);
      requirePermission(request);
      const url = request.links.api(`projects/${projectPath(project)}repository/`);
      if (!request.behaviours.recentFields) return ok(projectRepository(url));
      const paths = request.instance.componentsOf(project.id).map((component) => `${project.slug}/${component.slug}`);
      return ok(
        projectRepository2026(
          url,
          paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        ),
      );
    },
  },
  {
    pattern: ['projects', ':project', 'statistics'],
    allow: READ_ONLY,
    handle(request, params) {
      const project = findProject(request, params.project);
      const { instance } = request;
      const translations = instance.componentsOf(project.id).flatMap((component) => instance.translationsOf(component.id));
      return ok({
        ...instance.statistics(translations, request.links.weblateFields, statisticsStyle(request, project.translation_review)),
        name: project.name,
        url: request.links.web(`projects/${params.project}/`),
      });
    },
  },
  {
    pattern: ['projects', ':project', 'changes'],
    allow: READ_ONLY,
    handle(request, params) {
      const project = findProject(request, params.project);
      return changesList(request, { kind: 'project', id: project.id });
    },
  },
  {
    // A plain array, not a page, on 5.4; newer servers page it (`pagedProjectLanguages`).
    pattern: ['projects', ':project', 'languages'],
    allow: READ_ONLY,
    handle(request, params) {
      const project = findProject(request, params.project);
      const { instance } = request;
      const byLanguage = new Map<string, TranslationRow[]>();
      for (const component of instance.componentsOf(project.id)) {
        for (const translation of instance.translationsOf(component.id)) {
          byLanguage.set(translation.languageCode, [...(byLanguage.get(translation.languageCode) ?? []), translation]);
        }
      }
      const v514 = request.behaviours.fields514;
      const entries = [...byLanguage]
        // 5.14 orders them by language name; 5.4 (as the reference server had it) by code.
        .sort(([a], [b]) => (v514 ? instance.language(a).name.localeCompare(instance.language(b).name) : a.localeCompare(b)))
        .map(([code, translations]) => {
          const language = instance.language(code);
          const stats = instance.statistics(translations, request.links.weblateFields, statisticsStyle(request, project.translation_review));
          if (v514) {
            return {
              ...stats,
              name: language.name,
              code,
              url: request.links.web(`projects/${params.project}/-/${encodeURIComponent(code)}/`),
              translate_url: request.links.web(`translate/${params.project}/-/${encodeURIComponent(code)}/`),
            };
          }
          return {
            ...stats,
            // wlc's LanguageStats reads these two names.
            language: language.name,
            words_percent: stats.translated_words_percent,
            name: language.name,
            code,
            url: request.links.web(`projects/${params.project}/-/${encodeURIComponent(code)}/`),
          };
        });
      return request.behaviours.pagedProjectLanguages ? paginateArray(request, entries, (entry) => entry) : ok(entries);
    },
  },
];
