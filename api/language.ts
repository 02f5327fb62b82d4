import { z } from 'zod';
import { resource } from './fields.ts';
import { url } from './common.ts';

export const pluralRule = z.looseObject({
  id: z.number().int(),
  source: z.number().int(),
  /** How many plural forms the language has. */
  number: z.number().int().nonnegative(),
  /** A gettext C expression in `n` giving the form index: parse it, never `eval` it. */
  formula: z.string(),
  type: z.number().int(),
});

export const languageFields = resource(
  'language',
  {
    code: z.string(),
    name: z.string(),
    plural: pluralRule,
    aliases: z.array(z.string()),
    /** `ltr`, `rtl`, or empty on some servers. */
    direction: z.string(),
    population: z.number().int(),
    web_url: url,
    url,
    statistics_url: url,
  },
  {
    id: z.number().int(),
  },
);

export const language = languageFields.schema;

export type PluralRule = z.infer<typeof pluralRule>;
export type Language = z.infer<typeof language>;
