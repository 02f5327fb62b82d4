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
/** `wordRun` within lowercased ASCII: no other ASCII character is a letter, digit or mark. */
const asciiWordRun = /[a-z0-9]+/g;

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
  // Two fast paths give the general rule's terms (test/search/text.test.ts): ASCII text folds
  // to lowercase and its words are runs of [a-z0-9]; other text is folded and cut a
  // whitespace-separated chunk at a time, each chunk's terms kept. No fold step reaches across
  // whitespace (no decomposition, composition or case context spans it), and words repeat:
  // folding every text whole was most of a shard's index build at 1M
  // (docs/decisions/2026-11-29-search-all-languages.md).
  if (ascii.test(text)) return text.toLowerCase().match(asciiWordRun) ?? [];
  const terms: string[] = [];
  for (const chunk of text.split(whitespace)) {
    if (chunk === '') continue;
    let known = chunkTerms.get(chunk);
    if (known === undefined) {
      if (chunkTerms.size >= chunkTermsLimit) chunkTerms.clear();
      chunkTerms.set(chunk, (known = foldedTerms(fold(chunk))));
    }
    for (const term of known) terms.push(term);
  }
  return terms;
}

const whitespace = /\s+/u;
/** Terms of the chunks tokenized lately, as many as `chunkTermsLimit` (a language's vocabulary). */
const chunkTerms = new Map<string, readonly string[]>();
const chunkTermsLimit = 100_000;

/** The terms of folded text. */
function foldedTerms(folded: string): string[] {
  if (!unspacedScript.test(folded)) return folded.match(wordRun) ?? [];
  const terms: string[] = [];
  for (const [word] of folded.matchAll(wordRun)) {
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
