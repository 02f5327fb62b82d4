import { z } from 'zod';
import { resource } from './fields.ts';
import { url } from './common.ts';

export const projectFields = resource(
  'project',
  {
    name: z.string(),
    slug: z.string(),
    /** The project's own home page: data, never followed. */
    web: z.string(),
    web_url: url,
    url,
    components_list_url: url,
    repository_url: url,
    statistics_url: url,
    changes_list_url: url,
    languages_url: url,
    translation_review: z.boolean(),
    source_review: z.boolean(),
    /** Markdown written by project admins; may hold HTML and CR LF. */
    instructions: z.string(),
  },
  {
    id: z.number().int(),
    set_language_team: z.boolean(),
    enable_hooks: z.boolean(),
    language_aliases: z.string(),
    check_flags: z.string(),
    categories_url: url,
    labels_url: url,
    credits_url: url,
    lock_url: url,
    commit_policy: z.number().int(),
    secondary_language: z.unknown(),
    enforced_2fa: z.boolean(),
    machinery_settings: z.unknown(),
    locked: z.boolean(),
  },
);

export const project = projectFields.schema;

export type Project = z.infer<typeof project>;
