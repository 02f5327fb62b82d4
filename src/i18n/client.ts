/**
 * The messages the search page's script shows (status lines, state names, plural-form labels),
 * handed to it as JSON in the form's `data-messages` (src/pages/search/index.astro): the
 * script is one bundle for every interface language.
 */
import type { UiLanguage } from '../../site-model/page-settings.ts';
import { catalogs } from './index.ts';
import type { Messages } from './translate.ts';

export function isClientKey(key: string): boolean {
  return key.startsWith('search.') || key.startsWith('state.');
}

export function clientMessages(lang: UiLanguage): Messages {
  return Object.fromEntries(Object.entries(catalogs[lang]).filter(([key]) => isClientKey(key)));
}
