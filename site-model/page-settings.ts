/**
 * What the pages need of a build's branding and settings (site/config.ts reads them from
 * `tmsnap.config.json` and the flags); files are site paths. See docs/site.md, "Branding and settings".
 */

export const uiLanguages = ['en', 'de', 'ar'] as const;
export type UiLanguage = (typeof uiLanguages)[number];

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
