/**
 * The shipped interface languages (`--ui-lang`, docs/site.md "Interface languages"): English is
 * the source of keys; German and Arabic are typed against it and checked in full by
 * test/site/i18n.test.ts.
 */
import type { UiLanguage } from '../../site-model/page-settings.ts';
import { ar } from './ar.ts';
import { de } from './de.ts';
import { en, type Catalog } from './en.ts';
import { translator, type Translator } from './translate.ts';

export const catalogs: Record<UiLanguage, Catalog> = { en, de, ar };

export function uiTranslator(lang: UiLanguage): Translator {
  return translator(lang, catalogs[lang], en);
}

export { en, type Catalog, type MessageKey } from './en.ts';
export type { Translator, Values } from './translate.ts';
