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

/**
 * A share as Weblate writes it in `*_percent` (5.14.3, asked by test/weblate/figures.test.ts):
 * rounded down to one decimal, but never 0.0 or 100.0 by rounding alone (0.1 and 99.9). An empty
 * set counts as complete (100) for the measure of completeness and as 0 for any other; where
 * review is on, completeness is approval, so the translated share of an empty set is 0.
 */
export function weblatePercent(part: number, total: number, emptyIsComplete: boolean): number {
  if (total <= 0) return emptyIsComplete ? 100 : 0;
  const value = Math.floor((1000 * part) / total) / 10;
  if (value === 0 && part !== 0) return 0.1;
  if (value === 100 && part < total) return 99.9;
  return value;
}
