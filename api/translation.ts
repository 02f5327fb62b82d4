import { z } from 'zod';
import { timestamp, url } from './common.ts';
import { component } from './component.ts';
import { language } from './language.ts';
import { translationCounts } from './statistics.ts';

export const translation = z.looseObject({
  language,
  component,
  language_code: z.string(),
  id: z.number().int(),
  filename: z.string(),
  revision: z.string(),
  web_url: url,
  share_url: url,
  translate_url: url,
  url,
  is_template: z.boolean(),
  is_source: z.boolean(),
  ...translationCounts,
  fuzzy_words: z.number().int(),
  fuzzy_percent: z.number(),
  failing_checks: z.number().int(),
  failing_checks_words: z.number().int(),
  failing_checks_percent: z.number(),
  have_suggestion: z.number().int(),
  have_comment: z.number().int(),
  last_change: timestamp.nullable(),
  last_author: z.string().nullable(),
  repository_url: url,
  file_url: url,
  statistics_url: url,
  changes_list_url: url,
  units_list_url: url,
});

/** A component's `translations/` list leaves the embedded component out: its parent supplies it. */
export const translationInList = translation.omit({ component: true }).extend({ component: component.optional() });

export type Translation = z.infer<typeof translation>;
