import { type ApiRequest, type Route, LIST_CREATE, READ_ONLY, collectionRoutes, findNamed, notFound, ok, paginateArray, renderComponent } from '../api.ts';
import type { UserRow } from '../model.ts';
import { type UserView, notificationRecord, projectRecord, userRecord } from '../render.ts';

/**
 * How much of a user the client sees: a real server shows anonymous clients `{id, full_name,
 * username}` and a token (an admin's, on the reference server) also the e-mail and dates.
 */
function userView(request: ApiRequest): UserView {
  if (!request.behaviours.anonymousLimits) return 'full';
  if (!request.authenticated) return 'summary';
  return request.behaviours.weblateFields ? 'admin' : 'full';
}

export function findUser(request: ApiRequest, name: string | undefined): UserRow {
  // 5.14 hides every user from anonymous clients: a user and what hangs off it answer 404.
  if (request.behaviours.hiddenUsers && !request.authenticated) throw notFound();
  return findNamed(request.instance.users, name);
}

export const routes: Route[] = [
  ...collectionRoutes('users', 'user', {
    // 5.14 lists no users to anonymous clients (an empty page).
    list: (request) => (request.behaviours.hiddenUsers && !request.authenticated ? [] : [...request.instance.users.values()].sort((a, b) => a.id - b.id)),
    find: findUser,
    render: (request, user) => userRecord(request.links, user, userView(request), request.instance.suggested(user.username)),
  }),
  {
    pattern: ['users', ':user', 'notifications'],
    allow: LIST_CREATE,
    handle(request, params) {
      const user = findUser(request, params.user);
      const { instance } = request;
      // A subscription to a project the client may not see is left out, as the project itself is.
      const rows = instance.model.notifications().filter((row) => {
        if (row.username !== user.username) return false;
        const project = row.projectId === null ? undefined : instance.projects.get(row.projectId);
        return row.projectId === null || (project !== undefined && request.canSee(project));
      });
      return paginateArray(
        request,
        [...rows].sort((a, b) => a.id - b.id),
        (row) => {
          const project = row.projectId === null ? undefined : instance.projects.get(row.projectId);
          const component = row.componentId === null ? undefined : instance.components.get(row.componentId);
          return notificationRecord(row, project ? projectRecord(request.links, project) : null, component ? renderComponent(request, component) : null);
        },
      );
    },
  },
  {
    pattern: ['users', ':user', 'statistics'],
    allow: READ_ONLY,
    handle(request, params) {
      const { username } = findUser(request, params.user);
      const { translated, languages } = request.instance.translator(username);
      return ok({ translated, suggested: request.instance.suggested(username), uploaded: 0, commented: 0, languages: languages.size });
    },
  },
];
