/**
 * The matching and ranking rules, one copy for the build, the browser and the CLI: how far a
 * query term may be from an indexed term, and how hits are ordered (tier, then MiniSearch's
 * score: docs/search.md, "Matching rules" and "Ranking"; the index is `search/text-index.ts`).
 */
import { fold, unspacedScript } from './text.ts';

/** A document of any shard: its position in the shard's tables and its text. */
export interface SearchDocument {
  id: number;
  text: string;
}

/**
 * The most edits (Levenshtein over UTF-16 code units) between a query term and an indexed
 * term it matches: none below four code units or in character pairs (one edit in a
 * three-letter word matches half the dictionary; a pair has no spelling), one up to seven,
 * two from eight.
 */
export function maxEdits(term: string): number {
  if (term.length < 4 || unspacedScript.test(term)) return 0;
  return term.length < 8 ? 1 : 2;
}

/** Forms of a plural string as one searchable text. */
export function joinForms(forms: readonly string[]): string {
  return forms.join('\n');
}

/**
 * A text reduced to folded words separated by single spaces: the form the exact-phrase test
 * compares, so punctuation and accents never break a phrase (`Save as…` ⇒ `save as`).
 */
export function phraseForm(text: string): string {
  return (fold(text).match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).join(' ');
}

/** How well a text matches beyond its score: the whole text, an exact phrase, or terms only. */
export const tiers = { whole: 0, phrase: 1, terms: 2 } as const;
export type Tier = (typeof tiers)[keyof typeof tiers];

/**
 * `query` and `text` are phrase forms. The phrase must start and end on word boundaries,
 * except inside unspaced scripts, where any character boundary is a word boundary.
 */
export function phraseTier(text: string, query: string): Tier {
  if (query === '') return tiers.terms;
  if (text === query) return tiers.whole;
  for (let at = text.indexOf(query); at !== -1; at = text.indexOf(query, at + 1)) {
    const end = at + query.length;
    if (boundary(text, at - 1, query[0]) && boundary(text, end, query.at(-1))) return tiers.phrase;
  }
  return tiers.terms;
}

function boundary(text: string, index: number, edge: string | undefined): boolean {
  const neighbour = text[index];
  if (neighbour === undefined || neighbour === ' ') return true;
  return unspacedScript.test(neighbour) && edge !== undefined && unspacedScript.test(edge);
}

/** What a ranked hit is ordered by; `order` breaks ties stably (shard order, then position). */
export interface Ranked {
  tier: Tier;
  score: number;
  order: number;
}

export function compareRanked(a: Ranked, b: Ranked): number {
  return a.tier - b.tier || b.score - a.score || a.order - b.order;
}
