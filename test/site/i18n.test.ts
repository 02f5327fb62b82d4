/**
 * The interface catalogs (docs/site.md, "Interface languages"): every English key in German and
 * Arabic, with each language's number of plural forms and the same placeholders; plural forms
 * chosen by each language's gettext rule; the gettext PO files they are kept in (src/i18n/po/),
 * their template up to date with en.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { changeActions } from '../../api/change.ts';
import { uiLanguages } from '../../site/config.ts';
import { catalogs, en, uiTranslator } from '../../src/i18n/index.ts';
import { clientMessages } from '../../src/i18n/client.ts';
import { catalogFile, readPo, templateFile } from '../../src/i18n/files.ts';
import { formatPo, mergePo, parsePo, poHeaders, poMessages, poProblems, sourceEntries } from '../../src/i18n/po.ts';
import { sizeText } from '../../src/i18n/size.ts';
import { catalogProblems, uiPlurals } from '../../src/i18n/translate.ts';

describe('interface catalogs', () => {
  for (const lang of uiLanguages) {
    it(`${lang} has every English key, ${uiPlurals[lang].forms} plural forms where English has plurals, and the same placeholders`, () => {
      expect(catalogProblems(en, catalogs[lang], uiPlurals[lang].forms)).toEqual([]);
    });
  }

  for (const lang of uiLanguages.filter((code) => code !== 'en')) {
    it(`${lang}.po has the site's plural rule, nothing fuzzy, nothing translated from an older English text, and is written as tmsnap writes it`, () => {
      const text = readFileSync(catalogFile(lang), 'utf8');
      expect(poProblems(en, parsePo(text), uiPlurals[lang])).toEqual([]);
      expect(formatPo(parsePo(text))).toBe(text);
    });
  }

  it('has a template (tmsnap.pot) that is en.ts as it is: run scripts/ui-catalogs.ts after changing en.ts', () => {
    expect(readFileSync(templateFile, 'utf8')).toBe(formatPo({ headers: poHeaders(undefined, uiPlurals.en), entries: sourceEntries(en, uiPlurals.en.forms) }));
  });

  it("reports a Plural-Forms rule other than the site's, a fuzzy entry and a translation of an older English text", () => {
    const po = readPo(catalogFile('de'));
    const doctored = {
      headers: { ...po.headers, 'Plural-Forms': 'nplurals=2; plural=(n > 1);' },
      entries: po.entries.map((entry) =>
        entry.context === 'nav.projects' ? { ...entry, flags: ['fuzzy'] } : entry.context === 'nav.languages' ? { ...entry, id: 'Locales' } : entry,
      ),
    };
    expect(poProblems(en, doctored, uiPlurals.de)).toEqual([
      'Plural-Forms: nplurals=2; plural=(n > 1);, expected nplurals=2; plural=n != 1;',
      'nav.projects: fuzzy',
      'nav.languages: translates an older English text, run scripts/ui-catalogs.ts',
    ]);
    // Weblate writes the rule in parentheses: the same rule all the same.
    expect(poProblems(en, { ...po, headers: { ...po.headers, 'Plural-Forms': 'nplurals=2; plural=(n != 1);' } }, uiPlurals.de)).toEqual([]);
  });

  it('reads PO as Weblate and msgmerge write it: wrapped strings, escapes, comments, obsolete entries; fuzzy or empty ones fall back to English', () => {
    const po = parsePo(
      [
        '# Translators: someone',
        'msgid ""',
        'msgstr ""',
        '"Language: de\\n"',
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
        '',
        '#. a comment for translators',
        '#: src/pages/index.astro:3',
        'msgctxt "nav.projects"',
        'msgid ""',
        '"Pro"',
        '"jects"',
        'msgstr "Pro\\"jekte\\\\\\n"',
        '',
        '#, fuzzy',
        '#| msgid "Language"',
        'msgctxt "nav.languages"',
        'msgid "Languages"',
        'msgstr "Sprache"',
        '',
        'msgctxt "search.results"',
        'msgid "{count} result"',
        'msgid_plural "{count} results"',
        'msgstr[0] "{count} Ergebnis"',
        'msgstr[1] ""',
        '',
        '#~ msgctxt "old.key"',
        '#~ msgid "Gone"',
        '#~ msgstr "Weg"',
      ].join('\n'),
    );
    expect(po.headers).toEqual({ Language: 'de', 'Plural-Forms': 'nplurals=2; plural=(n != 1);' });
    expect(po.entries.map((entry) => [entry.context, entry.id, entry.strings, entry.flags])).toEqual([
      ['nav.projects', 'Projects', ['Pro"jekte\\\n'], []],
      ['nav.languages', 'Languages', ['Sprache'], ['fuzzy']],
      ['search.results', '{count} result', ['{count} Ergebnis', ''], []],
    ]);
    expect(poMessages(po)).toEqual({ 'nav.projects': 'Pro"jekte\\\n' });
  });

  it('stops at anything it does not know rather than guess', () => {
    expect(() => parsePo('msgid "a"\nmsgstr "b\\q"')).toThrow('line 2: unknown escape \\q');
    expect(() => parsePo('msgid "a"\nmsgstr "b"\nmsgstr "c"')).toThrow('line 3: msgstr twice in one entry');
    expect(() => parsePo('msgctxt "k"\nmsgid "a"\nmsgid_plural "as"\nmsgstr[1] "b"')).toThrow('line 1: plural entry needs msgstr[0], msgstr[1], … in order');
    expect(() => parsePo('msgid "a"\nmsgstr b')).toThrow('line 2: expected a quoted string');
    expect(() => parsePo('"a"')).toThrow('line 1: string continues no keyword');
    expect(() => poMessages(parsePo('msgid "a"\nmsgstr "b"'))).toThrow('has no msgctxt');
  });

  it('merges a catalog with the English source as msgmerge does: keeps translations by key, marks changed English fuzzy, adds new keys empty, drops old ones', () => {
    const source = { 'a.kept': 'Kept', 'a.changed': 'Changed now', 'a.new': ['{count} new', '{count} new ones'] };
    const catalog = parsePo(
      [
        'msgctxt "a.changed"',
        'msgid "Changed"',
        'msgstr "Geändert"',
        '',
        'msgctxt "a.old"',
        'msgid "Old"',
        'msgstr "Alt"',
        '',
        'msgctxt "a.kept"',
        'msgid "Kept"',
        'msgstr "Behalten"',
      ].join('\n'),
    );
    expect(mergePo(source, catalog, 2).entries).toEqual([
      { context: 'a.kept', id: 'Kept', strings: ['Behalten'], flags: [] },
      { context: 'a.changed', id: 'Changed now', strings: ['Geändert'], flags: ['fuzzy'] },
      { context: 'a.new', id: '{count} new', idPlural: '{count} new ones', strings: ['', ''], flags: [] },
    ]);
  });

  it('reports a missing key, a wrong number of plural forms and a lost or foreign placeholder', () => {
    const doctored: Record<string, unknown> = { ...catalogs.de };
    delete doctored['nav.projects'];
    doctored['search.results'] = ['{count} Ergebnis'];
    doctored['layout.siteName'] = 'Übersetzungsstand';
    doctored['fig.stringCount'] = ['{count} Text', '{anzahl} Texte'];
    expect(catalogProblems(en, doctored, 2)).toEqual([
      'layout.siteName: placeholders {}, expected {host}',
      'nav.projects: missing',
      'search.results: 1 plural forms, expected 2',
      'fig.stringCount: unknown placeholders {anzahl}',
    ]);
  });

  it('chooses plural forms by each language’s rule', () => {
    const de = uiTranslator('de');
    expect([0, 1, 2].map((n) => de.t('search.results', { count: n }, n))).toEqual(['0 Ergebnisse', '1 Ergebnis', '2 Ergebnisse']);
    const ar = uiTranslator('ar');
    const forms = [0, 1, 2, 3, 11, 100, 102].map((n) => ar.t('search.results', { count: n }, n).replace(/[\u2066\u2068\u2069]/g, ''));
    expect(forms).toEqual(['لا نتائج', 'نتيجة واحدة', 'نتيجتان', '3 نتائج', '11 نتيجة', '100 نتيجة', '102 نتيجة']);
  });

  it('formats numbers and percentages for the language and fills placeholders', () => {
    expect(uiTranslator('en').t('fig.translatedOf', { translated: 1234, total: 5678, percent: uiTranslator('en').percent(21.7) })).toBe(
      '1,234 of 5,678 translated (21.7%)',
    );
    const de = uiTranslator('de');
    expect(de.t('fig.translatedOf', { translated: 1234, total: 5678, percent: de.percent(21.7) })).toBe('1.234 von 5.678 übersetzt (21,7\u00a0%)');
  });

  it('says a file size in decimal units, one decimal below 100, as the language writes numbers', () => {
    const english = uiTranslator('en');
    expect([1, 999, 1000, 1234, 99_949, 123_456, 7_600_000, 2_500_000_000].map((bytes) => sizeText(english, bytes))).toEqual([
      '1 byte',
      '999 bytes',
      '1 kB',
      '1.2 kB',
      '99.9 kB',
      '123 kB',
      '7.6 MB',
      '2.5 GB',
    ]);
    expect(sizeText(uiTranslator('de'), 7_600_000)).toBe('7,6 MB');
  });

  it('names states, also ones a newer server invented', () => {
    expect(uiTranslator('de').stateName(20)).toBe('übersetzt');
    expect(uiTranslator('ar').stateName(42)).toBe('الحالة \u206842\u2069');
  });

  it('names every change action Weblate 5.4 knows in each language, and one a newer server invented by its number', () => {
    for (const code of Object.keys(changeActions).map(Number)) {
      // English is the table in api/change.ts itself: the site and the server agree on the words.
      expect(uiTranslator('en').actionName(code)).toBe(changeActions[code]);
      for (const lang of ['de', 'ar'] as const) expect(uiTranslator(lang).actionName(code), `${lang} ${code}`).not.toBe(changeActions[code]);
    }
    expect(uiTranslator('de').actionName(38)).toBe('Komponente entfernt');
    expect(uiTranslator('ar').actionName(999)).toBe('الإجراء \u2068999\u2069');
  });

  it('isolates filled values and ranges right to left, so URLs keep their slashes and "1–100" its order, and leaves left-to-right messages alone', () => {
    const [fsi, lri, pdi] = ['\u2068', '\u2066', '\u2069'];
    expect(uiTranslator('ar').t('units.title', { name: 'Django', from: 1, to: 100 })).toBe(
      `${fsi}Django${pdi}: النصوص ${lri}${fsi}1${pdi}–${fsi}100${pdi}${pdi}`,
    );
    expect(uiTranslator('ar').t('layout.siteName', { host: 'https://weblate.example/' })).toBe(`حالة الترجمة على ${fsi}https://weblate.example/${pdi}`);
    expect(uiTranslator('ar').message('units.title')).toBe(`{name}: النصوص ${lri}{from}–{to}${pdi}`);
    expect(uiTranslator('de').t('units.title', { name: 'Django', from: 1, to: 100 })).toBe('Django: Texte 1–100');
  });

  it('gives the search script only its own messages', () => {
    const keys = Object.keys(clientMessages('ar'));
    expect(keys).toContain('search.results');
    expect(keys).toContain('state.20');
    expect(keys.every((key) => key.startsWith('search.') || key.startsWith('state.'))).toBe(true);
  });
});
