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
  return site.title ?? uiTranslator(site.uiLang).t('layout.siteName', { host: serverHost(serverBaseUrl) });
}

/**
 * The server as the site names it: its host, without the port when it is a loopback address,
 * where the port is a local test or demo server's and says nothing to a reader (issue 28).
 */
export function serverHost(serverBaseUrl: string): string {
  const url = new URL(serverBaseUrl);
  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(url.hostname);
  return loopback ? url.hostname : url.host;
}
