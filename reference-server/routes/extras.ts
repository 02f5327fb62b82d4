import { type ApiRequest, type Route, DETAIL_EDIT, LIST_CREATE, READ_ONLY, notFound, ok, paginateArray } from '../api.ts';

/**
 * Collections the API root links to that hold nothing tmsnap reads. They answer like a
 * fresh Weblate: the built-in groups and roles, everything else empty.
 */
const groups = ['Guests', 'Viewers', 'Users', 'Reviewers', 'Managers'];
const roles = ['Access repository', 'Administration', 'Edit source', 'Power user', 'Review strings', 'Translate'];

const groupRecord = (request: ApiRequest, index: number) => ({
  id: index + 1,
  name: groups[index],
  defining_project: null,
  project_selection: 0,
  language_selection: 0,
  roles: [],
  languages: [],
  projects: [],
  components: [],
  url: request.links.api(`groups/${index + 1}/`),
});

const roleRecord = (request: ApiRequest, index: number) => ({
  id: index + 1,
  name: roles[index],
  permissions: [],
  url: request.links.api(`roles/${index + 1}/`),
});

/** The 0-based index of `/<id>/` in a built-in list. */
function indexOf(list: readonly string[], id: string | undefined): number {
  const index = /^\d+$/.test(id ?? '') ? Number(id) - 1 : -1;
  if (index < 0 || index >= list.length) throw notFound();
  return index;
}

export const routes: Route[] = [
  { pattern: ['groups'], allow: LIST_CREATE, handle: (request) => paginateArray(request, groups.map((_, index) => index), (index) => groupRecord(request, index)) },
  { pattern: ['groups', ':id'], allow: DETAIL_EDIT, handle: (request, params) => ok(groupRecord(request, indexOf(groups, params.id))) },
  { pattern: ['roles'], allow: LIST_CREATE, handle: (request) => paginateArray(request, roles.map((_, index) => index), (index) => roleRecord(request, index)) },
  { pattern: ['roles', ':id'], allow: DETAIL_EDIT, handle: (request, params) => ok(roleRecord(request, indexOf(roles, params.id))) },
  ...['memory', 'component-lists', 'screenshots', 'addons'].map(
    (name): Route => ({ pattern: [name], allow: name === 'addons' ? READ_ONLY : LIST_CREATE, handle: (request) => paginateArray(request, [], () => null) }),
  ),
];
