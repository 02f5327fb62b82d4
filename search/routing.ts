/**
 * Which shards can hold a match for a query, told before they are loaded (docs/search.md,
 * "Routing"). For each shard the build records two sets drawn from the terms of its index:
 *
 * - heads: each term's first three characters (the whole term if shorter). A query term
 *   matches an indexed term exactly or as its prefix only if the indexed term starts with
 *   it, so the query term's own first three characters are a head, or begin one.
 * - pairs: every two adjacent UTF-16 code units of terms three or more units long. A term
 *   one or two edits away (`maxEdits` in `search/matching.ts`, in code units) keeps all but
 *   at most two pairs per edit of the query term, so a fuzzy term can match only where
 *   enough of its pairs occur. Shorter terms are never that close
 *   to a fuzzy query term, which has four units or more.
 *
 * A query can match in a shard only if every one of its terms can (terms combine with AND).
 * The test may say yes where the index then finds nothing, never the reverse.
 */
import type { SearchRoutes, ShardRoute } from './format.ts';
import { maxEdits } from './matching.ts';
import type { ShardRouting } from './plan.ts';
import type { SearchScope } from './query.ts';
import { tokenize } from './text.ts';

/** Characters of a head. */
const headLength = 3;
/** Heads are words of letters, digits and marks: a space never occurs in one. */
const headSeparator = ' ';

function head(term: string): string {
  return Array.from(term).slice(0, headLength).join('');
}

/** The route of a shard whose index holds `terms`. */
export function shardRoute(terms: Iterable<string>): ShardRoute {
  const heads = new Set<string>();
  const pairs = new Set<string>();
  for (const term of terms) {
    if (term === '') continue;
    heads.add(head(term));
    if (term.length >= 3) for (let at = 0; at + 1 < term.length; at++) pairs.add(term.slice(at, at + 2));
  }
  return [[...heads].sort().join(headSeparator), [...pairs].sort().join('')];
}

/** A shard's route opened for tests: built on first use, since most shards are never asked. */
export class RouteTest {
  readonly #route: ShardRoute;
  #prefixes: Set<string> | undefined;
  #pairs: Set<string> | undefined;

  constructor(route: ShardRoute) {
    this.#route = route;
  }

  /** Whether `term` can match a term of the shard exactly, as a prefix or fuzzily. */
  holds(term: string): boolean {
    if (!this.#prefixes) {
      this.#prefixes = new Set();
      for (const known of this.#route[0].split(headSeparator)) {
        const characters = Array.from(known);
        for (let length = 1; length <= characters.length; length++) this.#prefixes.add(characters.slice(0, length).join(''));
      }
    }
    if (this.#prefixes.has(head(term))) return true;
    const edits = maxEdits(term);
    if (edits === 0) return false;
    // At least this many of the term's pairs survive `edits` edits.
    const needed = term.length - 1 - 2 * edits;
    if (needed <= 0) return true;
    if (!this.#pairs) {
      this.#pairs = new Set();
      const pairs = this.#route[1];
      for (let at = 0; at + 1 < pairs.length; at += 2) this.#pairs.add(pairs.slice(at, at + 2));
    }
    let found = 0;
    for (let at = 0; at + 1 < term.length; at++) if (this.#pairs.has(term.slice(at, at + 2)) && ++found >= needed) return true;
    return false;
  }

  /** Whether a query of these terms (all of them must match) can match in the shard. */
  holdsAll(terms: readonly string[]): boolean {
    return terms.every((term) => this.holds(term));
  }
}

export interface OpenRoutes {
  sources: (RouteTest | null)[];
  targets: RouteTest[];
}

export function openRoutes(routes: SearchRoutes): OpenRoutes {
  return {
    sources: routes.sources.map((route) => (route ? new RouteTest(route) : null)),
    targets: routes.targets.map((route) => new RouteTest(route)),
  };
}

/**
 * Where one query can match. Without routes (a routes file that did not load) every shard
 * can; a query without terms (only punctuation) matches nowhere, as `searchShards` finds nothing.
 */
export function routeQuery(routes: OpenRoutes | undefined, text: string, scope: SearchScope): ShardRouting {
  const terms = tokenize(text);
  const memo = (test: (index: number) => boolean) => {
    const known = new Map<number, boolean>();
    return (index: number) => {
      let answer = known.get(index);
      if (answer === undefined) known.set(index, (answer = test(index)));
      return answer;
    };
  };
  if (terms.length === 0) return { scope, source: () => false, target: () => false };
  if (!routes) return { scope, source: () => true, target: () => true };
  return {
    scope,
    source: memo((bucket) => routes.sources[bucket]?.holdsAll(terms) ?? false),
    target: memo((position) => routes.targets[position]?.holdsAll(terms) ?? true),
  };
}
