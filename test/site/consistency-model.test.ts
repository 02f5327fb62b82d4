/**
 * The consistency rules (site-model/consistency.ts) on fixtures a reader can check by hand:
 * a source translated differently across components, placeholders and final punctuation that
 * differ from most languages.
 */
import { describe, expect, test } from 'vitest';
import {
  capped,
  differentTranslations,
  finalPunctuation,
  isTranslated,
  outliers,
  placeholdersOf,
  type PlacedTranslation,
} from '../../site-model/consistency.ts';

const placed = (component: string, source: string, target: string, href = `${component}#${target}`): PlacedTranslation => ({
  component,
  source: [source],
  target: [target],
  href,
});

describe('differentTranslations', () => {
  test('a source translated two ways in two components is found, most used variant first', () => {
    const found = differentTranslations([
      placed('office/editor', 'Save', 'Speichern'),
      placed('office/dialogs', 'Save', 'Sichern'),
      placed('web/site', 'Save', 'Speichern'),
      placed('office/editor', 'Open', 'Öffnen'),
      placed('web/site', 'Open', 'Öffnen'),
    ]);
    expect(found).toEqual([
      {
        source: ['Save'],
        variants: [
          {
            target: ['Speichern'],
            places: [
              { component: 'office/editor', href: 'office/editor#Speichern' },
              { component: 'web/site', href: 'web/site#Speichern' },
            ],
          },
          { target: ['Sichern'], places: [{ component: 'office/dialogs', href: 'office/dialogs#Sichern' }] },
        ],
      },
    ]);
  });

  test('two translations within one component (two contexts) are left alone', () => {
    expect(differentTranslations([placed('app/ui', 'Open', 'Öffnen'), placed('app/ui', 'Open', 'Offen')])).toEqual([]);
  });

  test('plural forms are compared whole; sources with more variants come first', () => {
    const found = differentTranslations([
      { component: 'a/x', source: ['%d file', '%d files'], target: ['%d Datei', '%d Dateien'], href: '1' },
      { component: 'a/y', source: ['%d file', '%d files'], target: ['%d Datei', '%d Dateien'], href: '2' },
      placed('a/x', 'Close', 'Schließen'),
      placed('a/y', 'Close', 'Zumachen'),
      placed('b/z', 'Close', 'Beenden'),
      placed('a/x', 'Cut', 'Ausschneiden'),
      placed('b/z', 'Cut', 'Schneiden'),
    ]);
    expect(found.map((entry) => [entry.source[0], entry.variants.length])).toEqual([
      ['Close', 3],
      ['Cut', 2],
    ]);
  });
});

describe('placeholders and final punctuation', () => {
  test('placeholders: printf, positional, Python named and braces, distinct and sorted; %% is none', () => {
    expect(placeholdersOf(['%d file', '%d files'])).toBe('%d');
    expect(placeholdersOf(['%1$s of %2$s, 100%% done'])).toBe('%1$s %2$s');
    expect(placeholdersOf(['%(count)d items in {folder} ({0})'])).toBe('%(count)d {0} {folder}');
    expect(placeholdersOf(['No placeholder'])).toBe('');
  });

  test('final punctuation by kind across scripts', () => {
    expect(
      ['Save as…', 'Save as...', 'Done.', '完了。', 'Sure?', 'متأكد؟', 'Name:', '名前：', 'Wow!', 'Open'].map((text) => finalPunctuation(text, 'x')),
    ).toEqual(['…', '…', '.', '.', '?', '?', ':', ':', '!', '']);
    // Quotes and spaces after the mark do not hide it.
    expect(finalPunctuation('Say "hello."  ', 'en')).toBe('.');
    // Greek writes its question mark as U+037E, which NFC makes a semicolon.
    expect(finalPunctuation('Είστε σίγουροι\u037e', 'el')).toBe('?');
    expect(finalPunctuation('a; b;', 'de')).toBe(';');
  });

  test('a translation that drops a placeholder or the ellipsis most languages keep is an outlier', () => {
    const found = outliers([
      { language: 'de', target: ['Speichern unter…'], href: 'de' },
      { language: 'pl', target: ['Zapisz jako'], href: 'pl' },
      { language: 'ja', target: ['名前を付けて保存…'], href: 'ja' },
      { language: 'ar', target: ['حفظ باسم…'], href: 'ar' },
    ]);
    expect(found.map(({ language, kind, found: has, most }) => [language, kind, has, most])).toEqual([['pl', 'punctuation', '', '…']]);

    const placeholders = outliers([
      { language: 'de', target: ['%d Datei', '%d Dateien'], href: 'de' },
      { language: 'pl', target: ['%d plik', '%d pliki', '%d plików'], href: 'pl' },
      // Arabic's zero form has no number, its others do: all forms together hold %d.
      { language: 'ar', target: ['لا ملفات', 'ملف واحد', 'ملفان', '%d ملفات', '%d ملفًا', '%d ملف'], href: 'ar' },
      { language: 'ru', target: ['%s файл', '%s файла', '%s файлов'], href: 'ru' },
    ]);
    expect(placeholders.map(({ language, kind, found: has, most }) => [language, kind, has, most])).toEqual([['ru', 'placeholders', '%s', '%d']]);
  });

  test('without a majority of at least three languages, nothing is flagged', () => {
    expect(
      outliers([
        { language: 'de', target: ['A.'], href: '' },
        { language: 'pl', target: ['B'], href: '' },
      ]),
    ).toEqual([]);
    expect(
      outliers([
        { language: 'de', target: ['A.'], href: '' },
        { language: 'pl', target: ['B'], href: '' },
        { language: 'ru', target: ['C!'], href: '' },
        { language: 'ja', target: ['D?'], href: '' },
      ]),
    ).toEqual([]);
  });

  test('translated means state 20 and up with a text; lists are capped with a count of the rest', () => {
    expect([isTranslated({ state: 20, target: ['x'] }), isTranslated({ state: 10, target: ['x'] }), isTranslated({ state: 30, target: [''] })]).toEqual([
      true,
      false,
      false,
    ]);
    expect(capped([1, 2, 3, 4], 3)).toEqual({ shown: [1, 2, 3], more: 1 });
    expect(capped([1], 3)).toEqual({ shown: [1], more: 0 });
  });
});
