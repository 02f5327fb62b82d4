import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { phraseForm, phraseTier, tiers } from '../../search/matching.ts';
import { fold, tokenize, unspacedScript } from '../../search/text.ts';
import { text as randomText } from './random-texts.ts';

describe('fold', () => {
  test('folds case and Latin accents, keeps the letters', () => {
    expect(fold('Café DÉJÀ Ñandú')).toBe('cafe deja nandu');
    expect(fold('Straße Łódź Ørsted Æsir')).toBe('strasse lodz orsted aesir');
  });

  test('folds full-width and compatibility forms', () => {
    expect(fold('Ｓａｖｅ ａｓ')).toBe('save as');
    expect(fold('ﬁle')).toBe('file');
  });

  test('folds Cyrillic case and diacritics (ё is е)', () => {
    expect(fold('СОХРАНИТЬ Ёлку')).toBe('сохранить елку');
  });

  test('drops Arabic harakat and tatweel, and the hamza carried by alef', () => {
    expect(fold('حَفِظَ')).toBe('حفظ');
    expect(fold('حـــفظ')).toBe('حفظ');
    expect(fold('أحمد إلى')).toBe('احمد الي');
  });

  test('keeps marks that change a letter: Japanese voicing, Devanagari vowel signs', () => {
    expect(fold('が')).toBe('が');
    expect(fold('ガイド')).not.toBe(fold('カイト'));
    expect(fold('हिन्दी')).toBe('हिन्दी'.normalize('NFC'));
  });
});

describe('tokenize', () => {
  test('splits spaced scripts into words, dropping punctuation and placeholders', () => {
    expect(tokenize('Save as… (%s files)')).toEqual(['save', 'as', 's', 'files']);
    expect(tokenize('Сохранить как…')).toEqual(['сохранить', 'как']);
    expect(tokenize('حفظ باسم')).toEqual(['حفظ', 'باسم']);
    expect(tokenize('저장하기 파일')).toEqual(['저장하기', '파일']);
  });

  test('turns Japanese and Chinese runs into character pairs plus the last character', () => {
    expect(tokenize('名前を付けて保存')).toEqual(['名前', '前を', 'を付', '付け', 'けて', 'て保', '保存', '存']);
    expect(tokenize('保存')).toEqual(['保存', '存']);
    expect(tokenize('字')).toEqual(['字']);
  });

  test('splits unspaced runs out of mixed words', () => {
    expect(tokenize('Weblate翻訳ツール2')).toEqual(['weblate', '翻訳', '訳ツ', 'ツー', 'ール', 'ル', '2']);
  });

  test('keeps Thai vowel and tone marks with their consonant', () => {
    expect(tokenize('บันทึก')).toEqual(['บั' + 'น', 'นทึ', 'ทึก', 'ก']);
  });
});

describe('phrase tiers', () => {
  test('the whole text beats a phrase inside it, which beats loose terms', () => {
    const query = phraseForm('Save as…');
    expect(phraseTier(phraseForm('save AS'), query)).toBe(tiers.whole);
    expect(phraseTier(phraseForm('Please save as template'), query)).toBe(tiers.phrase);
    expect(phraseTier(phraseForm('as save'), query)).toBe(tiers.terms);
  });

  test('a phrase must end on a word boundary in spaced scripts', () => {
    expect(phraseTier(phraseForm('Save assets'), phraseForm('save as'))).toBe(tiers.terms);
    expect(phraseTier(phraseForm('unsave as'), phraseForm('save as'))).toBe(tiers.terms);
  });

  test('any character boundary counts inside unspaced scripts', () => {
    expect(phraseTier(phraseForm('ファイルを保存する'), phraseForm('保存'))).toBe(tiers.phrase);
  });
});

/** The general rule `tokenize` follows, without its fast paths: fold, cut into words, pairs in unspaced runs. */
function tokenizeByRule(text: string): string[] {
  const terms: string[] = [];
  for (const [word] of fold(text).matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    let run = '';
    const flush = () => {
      const characters = run.match(new RegExp(`${unspacedScript.source}\\p{M}*`, 'gu')) ?? [];
      for (let at = 0; at + 1 < characters.length; at++) terms.push(characters[at]! + characters[at + 1]!);
      if (characters.length > 0) terms.push(characters.at(-1)!);
      run = '';
    };
    let spaced = '';
    for (const character of word.match(/\P{M}\p{M}*/gu) ?? []) {
      if (unspacedScript.test(character)) {
        if (spaced) terms.push(spaced);
        spaced = '';
        run += character;
      } else {
        flush();
        spaced += character;
      }
    }
    flush();
    if (spaced) terms.push(spaced);
  }
  return terms;
}

describe('tokenize fast paths (ASCII, no unspaced script)', () => {
  test('give the terms the general rule gives, on random texts in seven scripts and ASCII punctuation', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...'aZ09 .,;-_\'"%s!?~\t\n') });
    // Whitespace and characters whose compatibility forms hold spaces, letters or marks: the cut into chunks must not change a term.
    const odd = fc.string({ unit: fc.constantFrom(...'\u00a0\u3000\u2003\u00a8\u00b4\u0301\u0308\u2460\u338f\ufb01\u03a3\u0130 Aé') });
    fc.assert(
      fc.property(
        fc.oneof(
          randomText,
          ascii,
          fc.tuple(ascii, randomText).map(([a, b]) => a + b),
          fc.tuple(randomText, odd, randomText).map((parts) => parts.join('')),
        ),
        (text) => {
          expect(tokenize(text)).toEqual(tokenizeByRule(text));
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('ASCII: letters and digits only, lowercased', () => {
    expect(tokenize("Save_as… file2 %s, DON'T")).toEqual(['save', 'as', 'file2', 's', 'don', 't']);
  });
});
