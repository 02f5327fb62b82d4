import { z } from 'zod';
import { url } from './common.ts';

/**
 * Users' records are not in the description; this is what real servers send. Anonymous
 * clients get `{id, full_name, username}` only, without `url` (docs/weblate-api.md, "Nesting").
 */
export const user = z.looseObject({
  id: z.number().int().optional(),
  username: z.string(),
  full_name: z.string(),
  url: url.optional(),
  notifications: url.optional(),
  statistics_url: url.optional(),
});

export type User = z.infer<typeof user>;
