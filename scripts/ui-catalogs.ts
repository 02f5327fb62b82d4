/**
 * Brings the interface catalogs up to the English source, src/i18n/en.ts, as `xgettext` and
 * `msgmerge` would: writes the template src/i18n/po/tmsnap.pot and merges each language's
 * src/i18n/po/<lang>.po with it (src/i18n/po.ts, `mergePo`). Run it after adding or changing
 * an English message, then fill in the new or fuzzy entries of each language:
 *
 *   node scripts/ui-catalogs.ts
 *
 * test/site/i18n.test.ts fails until the template matches en.ts and every language has every key.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { uiLanguages } from '../site-model/page-settings.ts';
import { en } from '../src/i18n/en.ts';
import { catalogFile, readPo, templateFile } from '../src/i18n/files.ts';
import { formatPo, mergePo, poHeaders, sourceEntries } from '../src/i18n/po.ts';
import { uiPlurals } from '../src/i18n/translate.ts';

writeFileSync(templateFile, formatPo({ headers: poHeaders(undefined, uiPlurals.en), entries: sourceEntries(en, uiPlurals.en.forms) }));
for (const lang of uiLanguages.filter((code) => code !== 'en')) {
  const file = catalogFile(lang);
  const forms = uiPlurals[lang].forms;
  const catalog = existsSync(file) ? readPo(file) : { headers: poHeaders(lang, uiPlurals[lang]), entries: [] };
  writeFileSync(file, formatPo(mergePo(en, catalog, forms)));
  console.log(`${file.pathname}: ${catalog.entries.length === 0 ? 'new' : 'merged'}`);
}
