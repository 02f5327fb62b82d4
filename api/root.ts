import { z } from 'zod';
import { url } from './common.ts';

/** `GET /api/`: collection name → collection URL. */
export const apiRoot = z.looseObject({
  users: url,
  groups: url,
  roles: url,
  projects: url,
  components: url,
  translations: url,
  memory: url,
  languages: url,
  'component-lists': url,
  changes: url,
  units: url,
  screenshots: url,
  addons: url,
});

export type ApiRoot = z.infer<typeof apiRoot>;

/** The collections the API root names, in the description's order. */
export const rootCollections = Object.keys(apiRoot.shape) as (keyof ApiRoot)[];
