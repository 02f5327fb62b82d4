/**
 * A shard's index: MiniSearch's, through its public API only (`add`, `search`). The design
 * card keeps the site's search a MiniSearch index in the browser; the page builds each index
 * from the texts its shard ships, when a query first needs it, rather than reading a shipped
 * one: the same time, and no index bytes (docs/decisions/2026-11-27-minisearch-index.md).
 * tmsnap gives MiniSearch the tokenizer (`search/text.ts`) and the query options
 * (`search/matching.ts`), and ranks its hits by tier first (`search/query.ts`).
 */
import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import { joinForms, maxEdits, type SearchDocument } from './matching.ts';
import { tokenize } from './text.ts';

/** An index opened for queries. */
export type TextIndex = MiniSearch<SearchDocument>;

/** Texts are folded by `tokenize`, so terms need no further processing. */
const indexOptions: Options<SearchDocument> = { fields: ['text'], tokenize, processTerm: (term) => term };

/** Every query term must match (AND): the term itself, a longer term it begins, or one `maxEdits` away. */
const queryOptions: SearchOptions = { prefix: true, fuzzy: (term) => maxEdits(term), combineWith: 'AND' };

/** One hit: the document id, its score and the indexed terms matched. */
export interface TextHit {
  id: number;
  score: number;
  terms: string[];
}

/**
 * The documents of a list of texts (plural forms each): ids are positions in the list, and an
 * empty text (an untranslated unit, found through its source only) is no document.
 */
export function documentsOf(texts: readonly (readonly string[])[]): Generator<SearchDocument> {
  return joinedDocuments(texts.map(joinForms));
}

/** The documents of texts whose forms are joined already (`joinForms`): what the page passes its workers. */
export function* joinedDocuments(joined: readonly string[]): Generator<SearchDocument> {
  for (let id = 0; id < joined.length; id++) if (joined[id]!.trim() !== '') yield { id, text: joined[id]! };
}

/** The index of `documents` (ids need not be dense; each id once). */
export function textIndexOf(documents: Iterable<SearchDocument>): TextIndex {
  const index = new MiniSearch<SearchDocument>(indexOptions);
  for (const document of documents) index.add(document);
  return index;
}

/** Every document holding a match of every term of `query`, best first. */
export function searchText(index: TextIndex, query: string): TextHit[] {
  return index.search(query, queryOptions).map((result) => ({ id: result.id as number, score: result.score, terms: result.terms }));
}

/** The distinct terms of `documents`, as an index of them holds them: what a shard's route is drawn from. */
export function termsOf(documents: Iterable<SearchDocument>): Set<string> {
  const terms = new Set<string>();
  for (const { text } of documents) for (const term of tokenize(text)) terms.add(term);
  return terms;
}
