import { type Route, LIST_CREATE, READ_ONLY, findProject, notFound, ok, paginateArray, statisticsStyle } from '../api.ts';
import type { CategoryRow } from '../model.ts';
import { categoryWebPath, findModelCategory } from './recent.ts';
import { findUser } from './users.ts';

/**
 * Endpoints the records of 5.14 link to (profile `fields514`, measured on 5.14.3): a project's
 * `lock/`, a user's `contributions/`; and a category's `statistics/` for a model with
 * categories. Elsewhere they answer 404.
 */

function requireFields514(request: Parameters<Route['handle']>[0]): void {
  if (!request.behaviours.fields514) throw notFound();
}

export const routes: Route[] = [
  {
    pattern: ['projects', ':project', 'lock'],
    allow: LIST_CREATE,
    handle(request, params) {
      requireFields514(request);
      findProject(request, params.project);
      return ok({ locked: false });
    },
  },
  {
    // Translations the user contributed to: none listed on the seeded 5.14.3 (the shape of an item unmeasured).
    pattern: ['users', ':user', 'contributions'],
    allow: READ_ONLY,
    handle(request, params) {
      requireFields514(request);
      findUser(request, params.user);
      return paginateArray(request, [], () => null);
    },
  },
  {
    pattern: ['categories', ':id', 'statistics'],
    allow: READ_ONLY,
    handle(request, params) {
      const category = findModelCategory(request, params.id);
      const { instance } = request;
      const all = instance.model.categories?.() ?? [];
      const inside = (id: number | null | undefined): boolean => {
        for (let row: CategoryRow | undefined = all.find((other) => other.id === id); row; row = all.find((other) => other.id === row!.categoryId))
          if (row.id === category.id) return true;
        return false;
      };
      const project = instance.projects.get(category.projectId)!;
      const translations = instance
        .componentsOf(project.id)
        .filter((component) => inside(component.categoryId))
        .flatMap((component) => instance.translationsOf(component.id));
      return ok({
        ...instance.statistics(translations, request.links.weblateFields, statisticsStyle(request, project.translation_review)),
        name: category.name,
        url: request.links.web(`projects/${categoryWebPath(request, category)}`),
      });
    },
  },
];
