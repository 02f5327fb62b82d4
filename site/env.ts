/**
 * How `buildSite` hands the snapshot and the build's options to the pages: Astro renders them
 * in its own module graph, in the same process, so they read these variables (docs/site.md).
 */
import type { UiLanguage } from './config.ts';

export const siteEnv = {
  content: 'TMSNAP_CONTENT',
  snapshot: 'TMSNAP_SNAPSHOT',
  hideAuthors: 'TMSNAP_HIDE_AUTHORS',
  siteUrl: 'TMSNAP_SITE_URL',
  /** The `--publish` kinds (site/privacy.ts) as a JSON list: what a keyed crawl's site shows beyond the public view. */
  publish: 'TMSNAP_PUBLISH',
  /** `PageSettings` as JSON. */
  settings: 'TMSNAP_SITE_SETTINGS',
} as const;

/** What the pages need of the branding and settings (site/config.ts); files are site paths. */
export interface PageSettings {
  title?: string;
  footer?: string;
  /** Site paths of the copied files. */
  logo?: string;
  favicon: string;
  css?: string;
  noindex: boolean;
  uiLang: UiLanguage;
  /** The base path, for the 404 page (served at any depth, so its links start from it). */
  base: string;
  history: boolean;
}

export const defaultPageSettings: PageSettings = { favicon: 'favicon.svg', noindex: false, uiLang: 'en', base: '/', history: true };

export function pageSettings(): PageSettings {
  const text = process.env[siteEnv.settings];
  return text ? { ...defaultPageSettings, ...(JSON.parse(text) as Partial<PageSettings>) } : defaultPageSettings;
}
