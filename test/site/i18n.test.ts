/**
 * The interface catalogs (docs/site.md, "Interface languages"): every English key in German and
 * Arabic, with each language's number of plural forms and the same placeholders; plural forms
 * chosen by each language's gettext rule.
 */
import { describe, expect, it } from 'vitest';
import { changeActions } from '../../api/change.ts';
import { uiLanguages } from '../../site/config.ts';
import { catalogs, en, uiTranslator } from '../../src/i18n/index.ts';
import { clientMessages } from '../../src/i18n/client.ts';
import { catalogProblems, uiPlurals } from '../../src/i18n/translate.ts';

describe('interface catalogs', () => {
  for (const lang of uiLanguages) {
    it(`${lang} has every English key, ${uiPlurals[lang].forms} plural forms where English has plurals, and the same placeholders`, () => {
      expect(catalogProblems(en, catalogs[lang], uiPlurals[lang].forms)).toEqual([]);
    });
  }

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
    const forms = [0, 1, 2, 3, 11, 100, 102].map((n) => ar.t('search.results', { count: n }, n));
    expect(forms).toEqual(['لا نتائج', 'نتيجة واحدة', 'نتيجتان', '3 نتائج', '11 نتيجة', '100 نتيجة', '102 نتيجة']);
  });

  it('formats numbers and percentages for the language and fills placeholders', () => {
    expect(uiTranslator('en').t('fig.translatedOf', { translated: 1234, total: 5678, percent: uiTranslator('en').percent(21.7) })).toBe(
      '1,234 of 5,678 translated (21.7%)',
    );
    const de = uiTranslator('de');
    expect(de.t('fig.translatedOf', { translated: 1234, total: 5678, percent: de.percent(21.7) })).toBe('1.234 von 5.678 übersetzt (21,7\u00a0%)');
  });

  it('names states, also ones a newer server invented', () => {
    expect(uiTranslator('de').stateName(20)).toBe('übersetzt');
    expect(uiTranslator('ar').stateName(42)).toBe('الحالة 42');
  });

  it('names every change action Weblate 5.4 knows in each language, and one a newer server invented by its number', () => {
    for (const code of Object.keys(changeActions).map(Number)) {
      // English is the table in api/change.ts itself: the site and the server agree on the words.
      expect(uiTranslator('en').actionName(code)).toBe(changeActions[code]);
      for (const lang of ['de', 'ar'] as const) expect(uiTranslator(lang).actionName(code), `${lang} ${code}`).not.toBe(changeActions[code]);
    }
    expect(uiTranslator('de').actionName(38)).toBe('Komponente entfernt');
    expect(uiTranslator('ar').actionName(999)).toBe('الإجراء 999');
  });

  it('gives the search script only its own messages', () => {
    const keys = Object.keys(clientMessages('ar'));
    expect(keys).toContain('search.results');
    expect(keys).toContain('state.20');
    expect(keys.every((key) => key.startsWith('search.') || key.startsWith('state.'))).toBe(true);
  });
});
