import type { z } from 'zod';
import { resource } from './fields.ts';
import { url } from './common.ts';

/** `GET /api/`: collection name → collection URL. */
export const apiRootFields = resource(
  'root',
  {
    users: url,
    projects: url,
    components: url,
    translations: url,
    languages: url,
    changes: url,
    units: url,
  },
  {
    groups: url,
    roles: url,
    memory: url,
    'component-lists': url,
    screenshots: url,
    addons: url,
    categories: url,
  },
);

export const apiRoot = apiRootFields.schema;

export type ApiRoot = z.infer<typeof apiRoot>;

/** The collections the API root names, in the description's order (the reference server's root). */
export const rootCollections = [
  'users',
  'groups',
  'roles',
  'projects',
  'components',
  'translations',
  'memory',
  'languages',
  'component-lists',
  'changes',
  'units',
  'screenshots',
  'addons',
] as const satisfies readonly (keyof ApiRoot)[];
