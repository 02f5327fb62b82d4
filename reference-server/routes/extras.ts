import { type Route, LIST_CREATE, READ_ONLY, paginateArray } from '../api.ts';

/**
 * Collections the API root links to that hold nothing tmsnap reads. They answer like a
 * fresh Weblate: the built-in groups and roles, everything else empty.
 */
const groups = ['Guests', 'Viewers', 'Users', 'Reviewers', 'Managers'];
const roles = ['Access repository', 'Administration', 'Edit source', 'Power user', 'Review strings', 'Translate'];

export const routes: Route[] = [
  {
    pattern: ['groups'],
    allow: LIST_CREATE,
    handle: (request) =>
      paginateArray(request, groups, (name) => {
        const id = groups.indexOf(name) + 1;
        return { id, name, defining_project: null, project_selection: 0, language_selection: 0, roles: [], languages: [], projects: [], components: [], url: request.links.api(`groups/${id}/`) };
      }),
  },
  {
    pattern: ['roles'],
    allow: LIST_CREATE,
    handle: (request) =>
      paginateArray(request, roles, (name) => {
        const id = roles.indexOf(name) + 1;
        return { id, name, permissions: [], url: request.links.api(`roles/${id}/`) };
      }),
  },
  ...['memory', 'component-lists', 'screenshots', 'addons'].map(
    (name): Route => ({ pattern: [name], allow: name === 'addons' ? READ_ONLY : LIST_CREATE, handle: (request) => paginateArray(request, [], () => null) }),
  ),
];

