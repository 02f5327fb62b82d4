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

/**
 * A project's or component's languages at one release level (`--levels`), highest level first;
 * `level` null: below every level. Present only in a site built with `--levels`.
 */
export const statusLevel = z.strictObject({
  level: z.string().nullable(),
  /** The level's badge, null for the languages below every level. */
  badge: sitePath.nullable(),
  count: z.number().int().nonnegative(),
  /** Language codes, sorted. */
  languages: z.array(z.string()),
});

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
  levels: z.array(statusLevel).optional(),
  translations: z.array(statusTranslation),
});

export const statusProject = z.strictObject({
  slug: z.string(),
  name: z.string(),
  page: sitePath,
  badge: sitePath,
  feed: sitePath,
  statistics: statusStatistics,
  levels: z.array(statusLevel).optional(),
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

/** A release (`tmsnap tag`) on the built snapshot's timeline. */
export const statusRelease = z.strictObject({
  name: z.string(),
  snapshot: z.string(),
  /** When the tagged snapshot's crawl started. */
  date: z.string(),
  page: sitePath,
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
  /** The release levels the site was built with (`--levels`), highest first; absent without them. */
  levels: z
    .strictObject({
      measure: z.enum(['strings', 'words']),
      thresholds: z.array(z.strictObject({ name: z.string(), percent: z.number().min(0).max(100) })),
    })
    .optional(),
  /** The releases the site shows, oldest first; absent when it shows none. */
  releases: z.array(statusRelease).min(1).optional(),
  projects: z.array(statusProject),
  languages: z.array(statusLanguage),
});
export type StatusDocument = z.infer<typeof statusDocument>;
export type StatusStatistics = z.infer<typeof statusStatistics>;
export type StatusLevel = z.infer<typeof statusLevel>;
export type StatusRelease = z.infer<typeof statusRelease>;
