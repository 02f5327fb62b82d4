/** The build's branding and settings as the pages use them (site-model/page-settings.ts, site/config.ts). */
import { defaultPageSettings, type PageSettings } from '../../site-model/page-settings.ts';
import { buildInput } from './build-input.ts';
import { uiTranslator } from '../i18n/index.ts';

export function settings(): PageSettings {
  return { ...defaultPageSettings, ...buildInput().settings };
}

/** The site's name: `--title`, or "<host> translation status" in the interface language. */
export function siteName(serverBaseUrl: string): string {
  const site = settings();
  return site.title ?? uiTranslator(site.uiLang).t('layout.siteName', { host: new URL(serverBaseUrl).host });
}
