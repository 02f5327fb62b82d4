/**
 * Which words of a shown text the query matched, by the engine's rules (docs/search.md,
 * "Matching rules"): a word whose folded term is a query term, begins with one, or is within
 * its `maxEdits`; in unspaced scripts, the characters of a matching pair. Pure: the page
 * turns the ranges into `<mark>` elements (render.ts).
 */
import { maxEdits } from '../../../search/matching.ts';
import { fold, tokenize, unspacedScript } from '../../../search/text.ts';

/** A matched stretch of a text: `[start, end)` in UTF-16 code units. */
export type Range = readonly [start: number, end: number];

const wordRun = /[\p{L}\p{N}\p{M}]+/gu;
/** One unspaced character with its marks, as `search/text.ts` cuts pairs. */
const unspacedCharacter = new RegExp(`${unspacedScript.source}\\p{M}*`, 'gu');
const unspacedRun = new RegExp(`(?:${unspacedScript.source}\\p{M}*)+`, 'gu');

/** Levenshtein distance over UTF-16 code units, or `limit + 1` once it must exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + cost);
      least = Math.min(least, next[j]!);
    }
    if (least > limit) return limit + 1;
    row = next;
  }
  return row[b.length]!;
}

/** Whether an indexed term is matched by a query term: exactly, as its prefix, or fuzzily. */
export function termMatches(term: string, queryTerm: string): boolean {
  if (term.startsWith(queryTerm)) return true;
  const edits = maxEdits(queryTerm);
  return edits > 0 && editDistance(queryTerm, term, edits) <= edits;
}

/** The stretches of `text` matched by any of `queryTerms` (from `tokenize`), in order. */
export function matchedRanges(text: string, queryTerms: readonly string[]): Range[] {
  if (queryTerms.length === 0) return [];
  const matches = (term: string) => queryTerms.some((queryTerm) => termMatches(term, queryTerm));
  const ranges: Range[] = [];
  for (const word of text.matchAll(wordRun)) {
    const start = word.index;
    let spacedFrom = 0;
    const spaced = (from: number, to: number) => {
      const part = word[0].slice(from, to);
      // A word folds to one term (tokenize), `ß` to `ss` included.
      if (part !== '' && tokenize(part).some(matches)) ranges.push([start + from, start + to]);
    };
    for (const run of word[0].matchAll(unspacedRun)) {
      spaced(spacedFrom, run.index);
      const characters = [...run[0].matchAll(unspacedCharacter)].map((character) => ({ at: start + run.index + character.index, text: character[0] }));
      // Each character starts a pair (the last one stands alone), as the index cuts them.
      characters.forEach((character, at) => {
        const following = characters[at + 1];
        const pair = fold(character.text + (following?.text ?? ''));
        for (const queryTerm of queryTerms) {
          if (!pair.startsWith(queryTerm)) continue;
          const end = following && fold(character.text) !== queryTerm ? following.at + following.text.length : character.at + character.text.length;
          ranges.push([character.at, end]);
        }
      });
      spacedFrom = run.index + run[0].length;
    }
    spaced(spacedFrom, word[0].length);
  }
  return merge(ranges);
}

/** Overlapping or touching ranges joined, in order. */
function merge(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}
