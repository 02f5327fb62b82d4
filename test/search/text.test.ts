import { describe, expect, test } from 'vitest';
import { phraseForm, phraseTier, tiers } from '../../search/matching.ts';
import { fold, tokenize } from '../../search/text.ts';

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
