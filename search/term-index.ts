/**
 * A shard's index as search format 5 ships it (a term table), how the build makes it, and the
 * code that answers queries from it as loaded (docs/search.md, "Format 5: term tables", and
 * "Matching and ranking" for the rules, `search/matching.ts`).
 *
 * Why a table of our own rather than a search library's index: opening MiniSearch's serialized
 * index rebuilds a radix tree and a map per term and per document, which cost more than
 * fetching the shard. Here a shard's terms are one sorted list, each term's postings a short
 * string decoded only when a query reaches the term, so opening a shard is splitting two
 * strings.
 */
import { bm25Score, inverseFrequency, matchWeight, maxEdits, type SearchDocument } from './matching.ts';
import { tokenize } from './text.ts';

/** The index of one shard in a shard file. */
export interface TermIndexData {
  /** Documents indexed. */
  documents: number;
  /** Their average length in distinct terms. */
  averageLength: number;
  /** Each document's length in distinct terms, by document id (0 for ids not indexed). */
  lengths: number[];
  /** The terms, sorted by UTF-16 code units, separated by `termSeparator`. */
  terms: string;
  /**
   * Per term, in the same order, separated by `;`: its documents as gaps from the previous id
   * (the first from 0), each followed by `*` and the term's count in it where above 1; all
   * base 36, separated by `,`.
   */
  postings: string;
}

/** Terms are words of letters, digits and marks, or character pairs: never a space. */
export const termSeparator = ' ';

/** One hit: the document id, its score and the indexed terms matched. */
export interface TermHit {
  id: number;
  score: number;
  terms: string[];
}

/** The term table of `documents` (ids need not be dense; each id once), cut into terms by `tokenize`. */
export function termIndexOf(documents: Iterable<SearchDocument>): TermIndexData {
  const lengths: number[] = [];
  const postings = new Map<string, number[]>();
  let count = 0;
  let total = 0;
  for (const { id, text } of documents) {
    const counts = new Map<string, number>();
    for (const term of tokenize(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    count++;
    total += counts.size;
    lengths[id] = counts.size;
    for (const [term, times] of counts) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push(id, times);
    }
  }
  for (let id = 0; id < lengths.length; id++) lengths[id] ??= 0;
  const terms = [...postings.keys()].sort((a, b) => (a < b ? -1 : 1));
  const lines = terms.map((term) => {
    const list = postings.get(term)!;
    const pairs: [number, number][] = [];
    for (let at = 0; at < list.length; at += 2) pairs.push([list[at]!, list[at + 1]!]);
    pairs.sort(([a], [b]) => a - b);
    let previous = 0;
    return pairs
      .map(([id, times]) => {
        const gap = (id - previous).toString(36);
        previous = id;
        return times > 1 ? `${gap}*${times.toString(36)}` : gap;
      })
      .join(',');
  });
  return { documents: count, averageLength: count === 0 ? 0 : total / count, lengths, terms: terms.join(termSeparator), postings: lines.join(';') };
}

/** A term's postings, decoded. */
interface Postings {
  ids: Int32Array;
  counts: Int32Array;
}

/** Per document, what one query term (then the whole query) found. */
interface Found {
  score: number;
  /** Query terms matched. */
  queryTerms: string[];
  /** Indexed terms matched, in the order first matched. */
  matched: string[];
}

export class TermIndex {
  readonly #data: TermIndexData;
  readonly #terms: string[];
  #postingLines: string[] | undefined;
  readonly #decoded = new Map<number, Postings>();

  constructor(data: TermIndexData) {
    this.#data = data;
    this.#terms = data.terms === '' ? [] : data.terms.split(termSeparator);
  }

  get documentCount(): number {
    return this.#data.documents;
  }

  /**
   * Every document holding a match of every term of `query`, in no particular order. A
   * document's score is the sum, over query terms in query order, of each term's matches'
   * weighted BM25+ (the term itself, then terms it begins, then terms within `maxEdits`, each
   * group in term order), times the number of distinct query terms.
   */
  search(query: string): TermHit[] {
    const terms = tokenize(query);
    if (terms.length === 0) return [];
    const perTerm = terms.map((term) => this.#termQuery(term));
    const combined = perTerm.reduce((a, b) => {
      const both = new Map<number, Found>();
      for (const [id, found] of b) {
        const existing = a.get(id);
        if (!existing) continue;
        for (const term of found.queryTerms) if (!existing.queryTerms.includes(term)) existing.queryTerms.push(term);
        for (const term of found.matched) if (!existing.matched.includes(term)) existing.matched.push(term);
        both.set(id, { score: existing.score + found.score, queryTerms: existing.queryTerms, matched: existing.matched });
      }
      return both;
    });
    const hits: TermHit[] = [];
    for (const [id, found] of combined) hits.push({ id, score: found.score * found.queryTerms.length, terms: found.matched });
    return hits;
  }

  /** One query term's matches: the term itself, then the terms it begins, then those a few edits away. */
  #termQuery(term: string): Map<number, Found> {
    const found = new Map<number, Found>();
    const exact = this.#find(term);
    if (exact !== -1) this.#addTerm(found, term, term, matchWeight.exact, exact);
    const first = exact === -1 ? this.#lowerBound(term) : exact + 1;
    const end = this.#prefixEnd(term, first);
    for (let at = first; at < end; at++) this.#addTerm(found, term, this.#terms[at]!, matchWeight.prefix(term, this.#terms[at]!), at);
    const edits = maxEdits(term);
    if (edits > 0) {
      // `#near` walks the terms in order; a term the query begins is matched as a prefix already.
      for (const [at, distance] of this.#near(term, edits)) {
        if (distance === 0 || (at >= first && at < end)) continue;
        this.#addTerm(found, term, this.#terms[at]!, matchWeight.fuzzy(this.#terms[at]!, distance), at);
      }
    }
    return found;
  }

  /** Adds the weighted BM25+ score of indexed term `derived` (at `at`) to every document holding it. */
  #addTerm(found: Map<number, Found>, source: string, derived: string, weight: number, at: number): void {
    const { ids, counts } = this.#postings(at);
    const { documents, averageLength, lengths } = this.#data;
    const inverse = inverseFrequency(documents, ids.length);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const weighted = weight * bm25Score(inverse, counts[i]!, lengths[id]!, averageLength);
      const result = found.get(id);
      if (result) {
        result.score += weighted;
        if (!result.queryTerms.includes(source)) result.queryTerms.push(source);
        if (!result.matched.includes(derived)) result.matched.push(derived);
      } else {
        found.set(id, { score: weighted, queryTerms: [source], matched: [derived] });
      }
    }
  }

  #postings(at: number): Postings {
    let postings = this.#decoded.get(at);
    if (postings) return postings;
    this.#postingLines ??= this.#data.postings.split(';');
    const parts = this.#postingLines[at]!.split(',');
    const ids = new Int32Array(parts.length);
    const counts = new Int32Array(parts.length);
    let id = 0;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const star = part.indexOf('*');
      id += parseInt(star === -1 ? part : part.slice(0, star), 36);
      ids[i] = id;
      counts[i] = star === -1 ? 1 : parseInt(part.slice(star + 1), 36);
    }
    postings = { ids, counts };
    this.#decoded.set(at, postings);
    return postings;
  }

  /** The first position whose term is not below `term`. */
  #lowerBound(term: string): number {
    let low = 0;
    let high = this.#terms.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#terms[middle]! < term) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #find(term: string): number {
    const at = this.#lowerBound(term);
    return this.#terms[at] === term ? at : -1;
  }

  /** The first position from `from` on whose term does not start with `prefix` (those that do are one run). */
  #prefixEnd(prefix: string, from: number): number {
    let low = from;
    let high = this.#terms.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#terms[middle]!.startsWith(prefix)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * Every term within `maxDistance` edits of `query` (Levenshtein over UTF-16 code units),
   * with its distance, in term order. The sorted list is walked as a trie: a term
   * reuses the matrix rows of the prefix it shares with the previous one, and once a prefix is
   * beyond reach every term starting with it is skipped by binary search.
   */
  #near(query: string, maxDistance: number): Map<number, number> {
    const near = new Map<number, number>();
    const columns = query.length + 1;
    const longest = query.length + maxDistance;
    // Only cells within `maxDistance` of the diagonal are computed; the others stay at `maxDistance + 1`, which is all a distance beyond reach needs to be.
    const rows = new Int32Array((longest + 1) * columns).fill(maxDistance + 1);
    for (let j = 0; j < columns; j++) rows[j] = j;
    const terms = this.#terms;
    let previous = '';
    // Rows 0..valid hold the distances of `previous`'s first `valid` characters.
    let valid = 0;
    let at = 0;
    while (at < terms.length) {
      const term = terms[at]!;
      let shared = 0;
      const limit = Math.min(valid, term.length);
      while (shared < limit && term.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
      let dead = -1;
      for (let row = shared; row < term.length; row++) {
        if (row + 1 > longest) {
          dead = row;
          break;
        }
        const code = term.charCodeAt(row);
        const above = row * columns;
        const here = above + columns;
        rows[here] = row + 1;
        let least = row + 1;
        const last = Math.min(columns - 1, row + 1 + maxDistance);
        for (let j = Math.max(1, row + 1 - maxDistance); j <= last; j++) {
          const replace = rows[above + j - 1]! + (code === query.charCodeAt(j - 1) ? 0 : 1);
          const remove = rows[above + j]! + 1;
          const insert = rows[here + j - 1]! + 1;
          const distance = replace < remove ? (replace < insert ? replace : insert) : remove < insert ? remove : insert;
          rows[here + j] = distance;
          if (distance < least) least = distance;
        }
        if (least > maxDistance) {
          dead = row;
          break;
        }
      }
      previous = term;
      if (dead !== -1) {
        valid = dead;
        at = this.#prefixEnd(term.slice(0, dead + 1), at + 1);
        continue;
      }
      const distance = rows[term.length * columns + columns - 1]!;
      if (distance <= maxDistance) near.set(at, distance);
      valid = term.length;
      at++;
    }
    return near;
  }
}
