import { z } from 'zod';
import { resource } from './fields.ts';
import { url } from './common.ts';

/**
 * Users' records are not in the description; this is what real servers send. Anonymous
 * clients get `{id, full_name, username}` only, without `url` (docs/weblate-api.md, "Nesting").
 */
export const userFields = resource(
  'user',
  {
    username: z.string(),
    full_name: z.string(),
    url: url.optional(),
    notifications: url.optional(),
  },
  {
    id: z.number().int(),
    statistics_url: url,
    email: z.string(),
    groups: z.array(z.unknown()),
    languages: z.array(z.unknown()),
    is_superuser: z.boolean(),
    is_active: z.boolean(),
    is_bot: z.boolean(),
    date_joined: z.string(),
    date_expires: z.string().nullable(),
    last_login: z.string().nullable(),
    contributions_url: url,
  },
  // Anonymous clients get `{id, full_name, username}`: their users' absent fields are no drift.
  { partialWithout: 'url' },
);

export const user = userFields.schema;

export type User = z.infer<typeof user>;
