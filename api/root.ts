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
