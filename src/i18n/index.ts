/**
 * The shipped interface languages (`--ui-lang`, docs/site.md "Interface languages"): English,
 * en.ts, is the source of keys; German and Arabic are gettext PO files, src/i18n/po/<lang>.po
 * (po.ts), read once when this module loads and checked in full by test/site/i18n.test.ts.
 */
import type { UiLanguage } from '../../site-model/page-settings.ts';
import { en } from './en.ts';
import { catalogFile, readPo } from './files.ts';
import { poMessages } from './po.ts';
import { translator, type Messages, type Translator } from './translate.ts';

export const catalogs: Record<UiLanguage, Messages> = { en, de: poMessages(readPo(catalogFile('de'))), ar: poMessages(readPo(catalogFile('ar'))) };

export function uiTranslator(lang: UiLanguage): Translator {
  return translator(lang, catalogs[lang], en);
}

export { en, type Catalog, type MessageKey } from './en.ts';
export type { Messages, Translator, Values } from './translate.ts';
