import { rootCollections } from '../../../api/root.ts';
import { type Route, READ_ONLY, ok } from '../api.ts';

const collections: readonly string[] = rootCollections;

export const routes: Route[] = [
  {
    pattern: [],
    allow: READ_ONLY,
    handle(request) {
      // 5.4 adds categories (a list of its own, empty on the reference server); 2026 suggestions and reports.
      const names = [
        ...collections,
        ...(request.links.weblateFields ? ['categories'] : []),
        ...(request.behaviours.recentEndpoints ? ['suggestions', 'reports'] : []),
      ];
      return ok(Object.fromEntries(names.map((name) => [name, request.links.api(`${name}/`)])));
    },
  },
];
