/** The build's branding and settings as the pages use them (site/env.ts, site/config.ts). */
import { pageSettings, type PageSettings } from '../../site/env.ts';
import { uiTranslator } from '../i18n/index.ts';

let cached: PageSettings | undefined;

export function settings(): PageSettings {
  cached ??= pageSettings();
  return cached;
}

/** The site's name: `--title`, or "<host> translation status" in the interface language. */
export function siteName(serverBaseUrl: string): string {
  const site = settings();
  return site.title ?? uiTranslator(site.uiLang).t('layout.siteName', { host: new URL(serverBaseUrl).host });
}
