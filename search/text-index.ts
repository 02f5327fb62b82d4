/**
 * A shard's index: MiniSearch's, built and read through its public API only (`toJSON`,
 * `loadJS`, `search`). The design card keeps the site's search a MiniSearch index read in the
 * browser (docs/decisions/2026-11-27-minisearch-index.md); tmsnap gives it the tokenizer
 * (`search/text.ts`) and the query options (`search/matching.ts`), and ranks its hits by tier
 * first (`search/query.ts`).
 */
import MiniSearch, { type AsPlainObject, type Options, type SearchOptions } from 'minisearch';
import { maxEdits, type SearchDocument } from './matching.ts';
import { tokenize } from './text.ts';

/** An index as a shard file ships it: MiniSearch's `toJSON()`. */
export type TextIndexData = AsPlainObject;

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

/** The index of `documents` (ids need not be dense; each id once), ready to ship. */
export function textIndexOf(documents: Iterable<SearchDocument>): TextIndexData {
  const index = new MiniSearch<SearchDocument>(indexOptions);
  for (const document of documents) index.add(document);
  return index.toJSON();
}

/** Rebuilds a shipped index (MiniSearch's `loadJS`): the costly step of opening a shard. */
export function openTextIndex(data: TextIndexData): TextIndex {
  return MiniSearch.loadJS<SearchDocument>(data, indexOptions);
}

/** Every document holding a match of every term of `query`, best first. */
export function searchText(index: TextIndex, query: string): TextHit[] {
  return index.search(query, queryOptions).map((result) => ({ id: result.id as number, score: result.score, terms: result.terms }));
}

/** The terms a shipped index holds (the first field of each entry of `toJSON().index`), for routing. */
export function indexTerms(data: TextIndexData): string[] {
  return data.index.map(([term]) => term);
}
