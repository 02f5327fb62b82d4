import { z } from 'zod';
import { timestamp, url } from './common.ts';

/**
 * The counters a translation record and every `statistics/` answer both carry, with one
 * meaning (strings and words in all, translated, marked for editing): spread into both schemas.
 */
export const translationCounts = {
  total: z.number().int(),
  total_words: z.number().int(),
  translated: z.number().int(),
  translated_words: z.number().int(),
  translated_percent: z.number(),
  fuzzy: z.number().int(),
};

/**
 * What `statistics/` answers for a project, component translation, language or translation.
 * The description does not show it; this is the shape real servers send, kept loose because
 * versions differ in which counters they include.
 */
export const statistics = z.looseObject({
  ...translationCounts,
  fuzzy_percent: z.number(),
  failing: z.number().int(),
  failing_percent: z.number(),
  approved: z.number().int(),
  approved_percent: z.number(),
  last_change: timestamp.nullable(),
  url: url.optional(),
  name: z.string().optional(),
  code: z.string().optional(),
});

export type Statistics = z.infer<typeof statistics>;
