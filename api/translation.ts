import { z } from 'zod';
import { resource } from './fields.ts';
import { timestamp, url } from './common.ts';
import { component } from './component.ts';
import { language } from './language.ts';
import { translationCounts } from './statistics.ts';

export const translationFields = resource(
  'translation',
  {
    language,
    component,
    language_code: z.string(),
    filename: z.string(),
    revision: z.string(),
    web_url: url,
    url,
    is_source: z.boolean(),
    ...translationCounts,
    fuzzy_words: z.number().int(),
    failing_checks: z.number().int(),
    have_suggestion: z.number().int(),
    last_change: timestamp.nullable(),
    last_author: z.string().nullable(),
    repository_url: url,
    file_url: url,
    statistics_url: url,
    changes_list_url: url,
    units_list_url: url,
  },
  {
    id: z.number().int(),
    share_url: url,
    translate_url: url,
    is_template: z.boolean(),
    fuzzy_percent: z.number(),
    failing_checks_words: z.number().int(),
    failing_checks_percent: z.number(),
    have_comment: z.number().int(),
  },
);

export const translation = translationFields.schema;

/** A component's `translations/` list leaves the embedded component out: its parent supplies it. */
export const translationInList = translation.omit({ component: true }).extend({ component: component.optional() });

export type Translation = z.infer<typeof translation>;
