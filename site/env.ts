/**
 * How `buildSite` hands the snapshot and the build's options to the pages: Astro renders them
 * in its own module graph, in the same process, so they read these variables (docs/site.md).
 */
export const siteEnv = {
  content: 'TMSNAP_CONTENT',
  snapshot: 'TMSNAP_SNAPSHOT',
  hideAuthors: 'TMSNAP_HIDE_AUTHORS',
  siteUrl: 'TMSNAP_SITE_URL',
} as const;
