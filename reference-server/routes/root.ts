import { type Route, READ_ONLY, ok } from '../api.ts';

const collections = ['users', 'groups', 'roles', 'projects', 'components', 'translations', 'memory', 'languages', 'component-lists', 'changes', 'units', 'screenshots', 'addons'];

export const routes: Route[] = [
  {
    pattern: [],
    allow: READ_ONLY,
    handle: (request) => ok(Object.fromEntries(collections.map((name) => [name, request.links.api(`${name}/`)]))),
  },
];
