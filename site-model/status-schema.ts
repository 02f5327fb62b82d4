/**
 * `data/status.json`, version 1: every figure of the site for machines. The schema is
 * documented in docs/status-json.md; the site writes it (src/pages/data/status.json.ts) and
 * the tests check a build against this schema.
 */
import { z } from 'zod';

export const statusVersion = 1;

export const statusStatistics = z.strictObject({
  total: z.number().int().nonnegative(),
  translated: z.number().int().nonnegative(),
  fuzzy: z.number().int().nonnegative(),
  untranslated: z.number().int().nonnegative(),
  total_words: z.number().int().nonnegative(),
  translated_words: z.number().int().nonnegative(),
  fuzzy_words: z.number().int().nonnegative(),
  /** translated / total × 100, rounded down to one decimal, as on the pages and badges. */
  translated_percent: z.number().min(0).max(100),
});

/** A path inside the site, relative to its root (`projects/demo/index.html`). */
const sitePath = z.string().regex(/^[^/]/);

export const statusTranslation = z.strictObject({
  language: z.string(),
  page: sitePath,
  badge: sitePath,
  last_change: z.string().nullable(),
  statistics: statusStatistics,
});

export const statusComponent = z.strictObject({
  slug: z.string(),
  name: z.string(),
  page: sitePath,
  badge: sitePath,
  source_language: z.string(),
  statistics: statusStatistics,
  translations: z.array(statusTranslation),
});

export const statusProject = z.strictObject({
  slug: z.string(),
  name: z.string(),
  page: sitePath,
  badge: sitePath,
  feed: sitePath,
  statistics: statusStatistics,
  components: z.array(statusComponent),
});

export const statusLanguage = z.strictObject({
  code: z.string(),
  name: z.string(),
  direction: z.enum(['ltr', 'rtl']),
  page: sitePath,
  feed: sitePath,
  translations: z.number().int().nonnegative(),
  statistics: statusStatistics,
});

export const statusDocument = z.strictObject({
  version: z.literal(statusVersion),
  generator: z.literal('tmsnap'),
  /** Where the site is published (`--site-url`), or null: then `page` paths are relative to this file's parent folder. */
  site_url: z.string().nullable(),
  snapshot: z.strictObject({
    id: z.string(),
    started: z.string(),
    finished: z.string(),
    complete: z.boolean(),
  }),
  instance: z.strictObject({
    url: z.string(),
    weblate_version: z.string().nullable(),
    statistics: statusStatistics,
  }),
  projects: z.array(statusProject),
  languages: z.array(statusLanguage),
});
export type StatusDocument = z.infer<typeof statusDocument>;
export type StatusStatistics = z.infer<typeof statusStatistics>;
