/** The build's branding and settings as the pages use them (site/env.ts, site/config.ts). */
import { pageSettings, type PageSettings } from '../../site/env.ts';

let cached: PageSettings | undefined;

export function settings(): PageSettings {
  cached ??= pageSettings();
  return cached;
}

/** The site's name: `--title`, or "<host> translation status". */
export function siteName(serverBaseUrl: string): string {
  return settings().title ?? `${new URL(serverBaseUrl).host} translation status`;
}
