import { z } from 'zod';
import { resource } from './fields.ts';
import { int64, timestamp, url } from './common.ts';

export const unitFields = resource(
  'unit',
  {
    id: z.number().int(),
    translation: url,
    /** One element per plural form. */
    source: z.array(z.string()),
    previous_source: z.string(),
    /** One element per plural form; `[""]` when untranslated. */
    target: z.array(z.string()),
    id_hash: int64,
    content_hash: int64,
    location: z.string(),
    context: z.string(),
    note: z.string(),
    flags: z.string(),
    extra_flags: z.string(),
    labels: z.array(z.unknown()),
    /** Its state: a number, in words through api/states.ts. */
    state: z.number().int(),
    position: z.number().int(),
    has_suggestion: z.boolean(),
    has_failing_check: z.boolean(),
    source_unit: url,
    web_url: url,
    url,
    explanation: z.string(),
    pending: z.boolean(),
    /** When the unit was added (Weblate's `auto_now_add`): not its last change. */
    timestamp,
    /** Its last change, on Weblate 5.6 and later (`auto_now`; docs/weblate-api.md, Values). */
    last_updated: timestamp.optional(),
  },
  {
    fuzzy: z.boolean(),
    translated: z.boolean(),
    approved: z.boolean(),
    has_comment: z.boolean(),
    num_words: z.number().int(),
    priority: z.number().int(),
    language_code: z.string(),
  },
);

export const unit = unitFields.schema;

export type Unit = z.infer<typeof unit>;
