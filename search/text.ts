/**
 * How text becomes search terms, shared by the index build, the browser and the CLI so that
 * a query matches the same way everywhere. Pure string functions: no Node or DOM APIs.
 */

/**
 * Combining marks that only decorate a base letter: Latin/Greek/Cyrillic accents, Arabic
 * harakat and Hebrew points. Marks that change the letter itself (Indic vowel signs, the
 * Japanese voicing marks) are kept, or `か` would find `が`.
 */
const decorativeMarks = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed]/gu;

/** Letters that are not composed from a base and a mark, so NFKD alone leaves them alone. */
const letterFolds: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
  ħ: 'h',
  ς: 'σ',
  // Arabic tatweel only stretches a word; alef maksura is written for yeh interchangeably.
  ـ: '',
  ى: 'ي',
};
const ascii = /^[\x00-\x7f]*$/;
const letterFoldPattern = new RegExp(`[${Object.keys(letterFolds).join('')}]`, 'gu');

/**
 * Scripts written without spaces between words: a word boundary cannot be found without a
 * dictionary, so these runs are indexed as overlapping character pairs (bigrams).
 */
const unspacedClass = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}\\u30fc]';
/** Whether a character (or a term's first character) belongs to an unspaced script. */
export const unspacedScript = new RegExp(unspacedClass, 'u');
/** One unspaced character with the marks that belong to it (Thai vowel signs, dakuten). */
const unspacedCharacter = new RegExp(`${unspacedClass}\\p{M}*`, 'gu');
/** Splits a word into alternating spaced and unspaced parts (the unspaced ones captured). */
const unspacedRuns = new RegExp(`((?:${unspacedClass}\\p{M}*)+)`, 'u');
const wordRun = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Case-folded, accent-folded text: `Café` and `CAFE` both give `cafe`, full-width `Ｓａｖｅ`
 * gives `save`, `Ёлка` gives `елка`. Used for terms and for the exact-phrase test alike.
 */
export function fold(text: string): string {
  // Most source strings are plain ASCII, where folding is lowercasing: skip the normalizations.
  if (ascii.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(decorativeMarks, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(letterFoldPattern, (letter) => letterFolds[letter] ?? letter);
}

/**
 * The terms of a text, in order. Words of spaced scripts (Latin, Cyrillic, Arabic, Hebrew,
 * Greek, Hangul, Indic…) are one term each; runs of unspaced scripts give every adjacent
 * character pair plus their last character alone, so that any one-character query can match
 * by prefix and any longer one by its pairs.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const [word] of fold(text).matchAll(wordRun)) {
    const parts = word.split(unspacedRuns);
    parts.forEach((part, index) => {
      if (!part) return;
      if (index % 2 === 0) terms.push(part);
      else terms.push(...characterPairs(part));
    });
  }
  return terms;
}

function characterPairs(run: string): string[] {
  const characters = run.match(unspacedCharacter) ?? [];
  const pairs: string[] = [];
  for (let i = 0; i + 1 < characters.length; i++) pairs.push(characters[i]! + characters[i + 1]!);
  const last = characters.at(-1);
  if (last !== undefined) pairs.push(last);
  return pairs;
}
