import { z } from 'zod';
import { url } from './common.ts';

export const project = z.looseObject({
  name: z.string(),
  slug: z.string(),
  id: z.number().int(),
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
  /** Removed in Weblate 2026 (docs/weblate-api.md). */
  set_language_team: z.boolean().optional(),
  /** Markdown written by project admins; may hold HTML and CR LF. */
  instructions: z.string(),
  enable_hooks: z.boolean(),
  language_aliases: z.string(),
});

export type Project = z.infer<typeof project>;
