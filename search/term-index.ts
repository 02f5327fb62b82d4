/**
 * A shard's index as search format 4 ships it, and the code that answers queries from it
 * without building MiniSearch's maps (docs/search.md, "Format 4: term tables").
 *
 * Why not MiniSearch in the browser: opening one of its serialized indexes (`loadJS`) rebuilds
 * a radix tree and a map per term and per document, which cost more than fetching the shard
 * (1.8 s over the 51 shards of a 1M query, most of a cold first result). MiniSearch offers no
 * index that can be searched as loaded. Here a shard's terms are one sorted list, each term's
 * postings a short string decoded only when a query reaches the term, so opening a shard is
 * splitting two strings.
 *
 * The index is still built by MiniSearch (`termIndexOf` reads it into a term table), and
 * `TermIndex.search` answers as `MiniSearch.search` does with the options of
 * `search/matching.ts`: the same terms (exact, prefix, fuzzy by Levenshtein distance over
 * UTF-16 code units), the same BM25+ scores added in the same order, so equal to the last bit.
 * `test/search/term-index.test.ts` compares the two on the bundled catalogs and on random texts.
 */
import type MiniSearch from 'minisearch';
import type { Options, SearchOptions } from 'minisearch';
import type SearchableMap from 'minisearch/SearchableMap';
import { indexOptions, searchOptions, type SearchDocument } from './matching.ts';

/** The index of one shard in a shard file. */
export interface TermIndexData {
  /** Documents indexed (MiniSearch's `documentCount`). */
  documents: number;
  /** Their average length in distinct terms (MiniSearch's `averageFieldLength`). */
  averageLength: number;
  /** Each document's length in distinct terms, by document id (0 for ids not indexed). */
  lengths: number[];
  /** The terms, sorted by UTF-16 code units, separated by `termSeparator`. */
  terms: string;
  /**
   * Per term, in the same order, separated by `;`: its rank in the order MiniSearch's tree
   * iterator gives its terms (which sets the order their scores are added in), then its documents as gaps from the
   * previous id, each followed by `*` and the term's count in it where above 1; all base 36,
   * separated by `,`.
   */
  postings: string;
}

/** Terms are words of letters, digits and marks, or character pairs: never a space. */
export const termSeparator = ' ';

/** One hit, as `MiniSearch.search` gives it: the document id, score and the indexed terms matched. */
export interface TermHit {
  id: number;
  score: number;
  terms: string[];
}

/** MiniSearch 7's defaults, which `searchOptions` does not override. */
const defaultWeights = { fuzzy: 0.45, prefix: 0.375 };
const defaultBm25 = { k: 1.2, b: 0.7, d: 0.5 };
const defaultMaxFuzzy = 6;

/** What `termIndexOf` reads of a MiniSearch index: its own fields (MiniSearch 7), as `toJSON` does. */
interface MiniSearchFields {
  _index: SearchableMap<Map<number, Map<number, number>>>;
  _documentCount: number;
  _documentIds: Map<number, unknown>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
}

/**
 * The term table of a MiniSearch index of documents numbered by `id` (one field). Read from
 * its fields rather than through `toJSON`, which builds an object per term and per posting
 * only to be taken apart again (test/search/term-index.test.ts fails if a MiniSearch upgrade
 * changes them). The term ranks are those of the index as `MiniSearch.loadJS` rebuilds it
 * from `toJSON`'s order (a radix tree's order depends on the order terms are added), since
 * that is the index format 3 searched.
 */
export function termIndexOf(index: MiniSearch<SearchDocument>): TermIndexData {
  const fields = index as unknown as MiniSearchFields;
  const ids = fields._documentIds as Map<number, number>;
  const lengths: number[] = [];
  for (const [short, length] of fields._fieldLength) lengths[ids.get(short)!] = length[0] ?? 0;
  for (let id = 0; id < lengths.length; id++) lengths[id] ??= 0;

  const terms: string[] = [];
  const postings: string[] = [];
  for (const [term, data] of fields._index) {
    const parts: string[] = [];
    const documents = [...(data.get(0) ?? new Map<number, number>())].map(([short, count]): [number, number] => [ids.get(short)!, count]);
    // MiniSearch numbers documents as added, and they are added by id: sorted already but for a hand-made index.
    if (documents.some(([id], at) => at > 0 && id < documents[at - 1]![0])) documents.sort(([a], [b]) => a - b);
    let previous = 0;
    for (const [id, count] of documents) {
      parts.push(count > 1 ? `${(id - previous).toString(36)}*${count.toString(36)}` : (id - previous).toString(36));
      previous = id;
    }
    terms.push(term);
    postings.push(parts.join(','));
  }
  const rank = reloadedOrder(terms);
  const order = terms.map((_, position) => position).sort((a, b) => (terms[a]! < terms[b]! ? -1 : 1));
  return {
    documents: fields._documentCount,
    averageLength: fields._avgFieldLength[0] ?? 0,
    lengths,
    terms: order.map((position) => terms[position]).join(termSeparator),
    postings: order.map((position) => `${rank[position]!.toString(36)}${postings[position] === '' ? '' : ','}${postings[position]}`).join(';'),
  };
}

/**
 * A node of the radix tree `MiniSearch.loadJS` builds (its `SearchableMap`): edges in the
 * order they were made, the empty key marking a term's end, as MiniSearch keeps them; and, to
 * find an edge without reading them all as MiniSearch does, each edge by its first code unit.
 */
class RadixNode {
  readonly edges = new Map<string, RadixNode | number>();
  readonly byFirst = new Map<string, string>();

  add(key: string, child: RadixNode): void {
    this.edges.set(key, child);
    this.byFirst.set(key[0]!, key);
  }
}

/**
 * For terms in `toJSON`'s order, each one's rank in the order the tree `loadJS` rebuilds from
 * them iterates: `SearchableMap.set`'s path creation (an edge split into a new edge added last),
 * then its iterator (each node's edges last to first).
 */
function reloadedOrder(terms: readonly string[]): Int32Array {
  const root = new RadixNode();
  terms.forEach((term, position) => {
    let node = root;
    let at = 0;
    while (at < term.length) {
      const key = node.byFirst.get(term[at]!);
      if (key === undefined) {
        const child = new RadixNode();
        node.add(term.slice(at), child);
        node = child;
        break;
      }
      const length = Math.min(term.length - at, key.length);
      let shared = 1;
      while (shared < length && term[at + shared] === key[shared]) shared++;
      const child = node.edges.get(key) as RadixNode;
      if (shared === key.length) {
        node = child;
      } else {
        const middle = new RadixNode();
        middle.add(key.slice(shared), child);
        node.add(term.slice(at, at + shared), middle);
        node.edges.delete(key);
        node = middle;
      }
      at += shared;
    }
    node.edges.set('', position);
  });
  const rank = new Int32Array(terms.length);
  let next = 0;
  const walk = (node: RadixNode): void => {
    const keys = [...node.edges.keys()];
    for (let at = keys.length - 1; at >= 0; at--) {
      const child = node.edges.get(keys[at]!)!;
      if (typeof child === 'number') rank[child] = next++;
      else walk(child);
    }
  };
  walk(root);
  return rank;
}

/** A term's postings, decoded. */
interface Postings {
  rank: number;
  ids: Int32Array;
  counts: Int32Array;
}

/** Per document, what one query term (then the whole query) found: as MiniSearch keeps it. */
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
  readonly #options: Pick<Options<SearchDocument>, 'tokenize' | 'processTerm'>;

  constructor(data: TermIndexData, options: Pick<Options<SearchDocument>, 'tokenize' | 'processTerm'> = indexOptions) {
    this.#data = data;
    this.#terms = data.terms === '' ? [] : data.terms.split(termSeparator);
    this.#options = options;
  }

  get documentCount(): number {
    return this.#data.documents;
  }

  /** Every document matching `query`, in no particular order. */
  search(query: string, options: SearchOptions = searchOptions): TermHit[] {
    const tokenize = options.tokenize ?? this.#options.tokenize!;
    const processTerm = options.processTerm ?? this.#options.processTerm!;
    const terms = tokenize(query)
      .flatMap((term) => processTerm(term) ?? [])
      .filter((term): term is string => !!term);
    if (terms.length === 0) return [];
    if ((options.combineWith ?? 'or').toLowerCase() !== 'and') throw new Error('TermIndex answers AND queries only (search/matching.ts)');
    const perTerm = terms.map((term, index) => this.#termQuery(term, index, terms, options));
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
    for (const [id, found] of combined) hits.push({ id, score: found.score * (found.queryTerms.length || 1), terms: found.matched });
    return hits;
  }

  /** MiniSearch's `executeQuerySpec`: the exact term, then prefix matches, then fuzzy ones, each weighted. */
  #termQuery(term: string, index: number, terms: string[], options: SearchOptions): Map<number, Found> {
    const prefix = typeof options.prefix === 'function' ? options.prefix(term, index, terms) : options.prefix === true;
    const fuzzyOption = typeof options.fuzzy === 'function' ? options.fuzzy(term, index, terms) : (options.fuzzy ?? false);
    const termBoost = typeof options.boostTerm === 'function' ? options.boostTerm(term, index, terms) : 1;
    const { fuzzy: fuzzyWeight, prefix: prefixWeight } = { ...defaultWeights, ...options.weights };
    const maxFuzzy = options.maxFuzzy ?? defaultMaxFuzzy;
    const found = new Map<number, Found>();

    const exact = this.#find(term);
    if (exact !== -1) this.#addTerm(found, term, term, 1, termBoost, exact);
    let prefixed: number[] = [];
    if (prefix) {
      const end = this.#prefixEnd(term, exact === -1 ? this.#lowerBound(term) : exact);
      for (let at = exact === -1 ? this.#lowerBound(term) : exact + 1; at < end; at++) prefixed.push(at);
    }
    let near = new Map<number, number>();
    if (fuzzyOption) {
      const fuzzy = fuzzyOption === true ? 0.2 : fuzzyOption;
      const maxDistance = fuzzy < 1 ? Math.min(maxFuzzy, Math.round(term.length * fuzzy)) : fuzzy;
      if (maxDistance) near = this.#near(term, maxDistance);
    }
    // MiniSearch adds prefix matches in its tree iterator's order, then fuzzy ones in the
    // order its fuzzy walk visits them, which is the same tree walked the other way round.
    prefixed = this.#byRank(prefixed, 1);
    for (const at of prefixed) {
      const derived = this.#terms[at]!;
      const distance = derived.length - term.length;
      near.delete(at);
      const weight = (prefixWeight * derived.length) / (derived.length + 0.3 * distance);
      this.#addTerm(found, term, derived, weight, termBoost, at);
    }
    for (const at of this.#byRank([...near.keys()], -1)) {
      const distance = near.get(at)!;
      if (!distance) continue;
      const derived = this.#terms[at]!;
      const weight = (fuzzyWeight * derived.length) / (derived.length + distance);
      this.#addTerm(found, term, derived, weight, termBoost, at);
    }
    return found;
  }

  /** MiniSearch's `termResults` for one field: a BM25+ score per document holding `derived`. */
  #addTerm(found: Map<number, Found>, source: string, derived: string, termWeight: number, termBoost: number, at: number): void {
    const { ids, counts } = this.#postings(at);
    const { k, b, d } = defaultBm25;
    const { documents, averageLength, lengths } = this.#data;
    const matching = ids.length;
    const invDocFreq = Math.log(1 + (documents - matching + 0.5) / (matching + 0.5));
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const termFreq = counts[i]!;
      const fieldLength = lengths[id]!;
      const rawScore = invDocFreq * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / averageLength)));
      const weighted = termWeight * termBoost * 1 * 1 * rawScore;
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
    const ids = new Int32Array(parts.length - 1);
    const counts = new Int32Array(parts.length - 1);
    let id = 0;
    for (let i = 1; i < parts.length; i++) {
      const part = parts[i]!;
      const star = part.indexOf('*');
      id += parseInt(star === -1 ? part : part.slice(0, star), 36);
      ids[i - 1] = id;
      counts[i - 1] = star === -1 ? 1 : parseInt(part.slice(star + 1), 36);
    }
    postings = { rank: parseInt(parts[0]!, 36), ids, counts };
    this.#decoded.set(at, postings);
    return postings;
  }

  /** `positions` by their terms' rank, ascending (`direction` 1) or descending (-1). */
  #byRank(positions: number[], direction: 1 | -1): number[] {
    if (positions.length < 2) return positions;
    return positions
      .map((at) => ({ at, rank: this.#postings(at).rank }))
      .sort((a, b) => direction * (a.rank - b.rank))
      .map(({ at }) => at);
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
   * Every term within `maxDistance` edits of `query` (Levenshtein over UTF-16 code units, as
   * MiniSearch's `fuzzyGet`), with its distance. The sorted list is walked as a trie: a term
   * reuses the matrix rows of the prefix it shares with the previous one, and once a prefix is
   * beyond reach every term starting with it is skipped by binary search.
   */
  #near(query: string, maxDistance: number): Map<number, number> {
    const near = new Map<number, number>();
    const columns = query.length + 1;
    const longest = query.length + maxDistance;
    // As in MiniSearch, only cells within `maxDistance` of the diagonal are computed; the
    // others stay at `maxDistance + 1`, which is all a distance beyond reach needs to be.
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
