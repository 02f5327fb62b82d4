/**
 * What the page's workers compute (docs/search.md, "Workers"), checked without a browser: a
 * query whose text matches are found elsewhere and handed to `ShardSearch` ranks the same hits
 * in the same order as one that searches the indexes itself, on the bundled-size fixture of
 * random texts in seven scripts and on queries of every kind of match. The browser test
 * (workers-browser.test.ts) runs the real workers.
 */
import { describe, expect, test } from 'vitest';
import { matchesOf, packMatches, searchShards, ShardSearch, unpackMatches, type SearchHit, type SearchRequest } from '../../search/query.ts';
import { buildSourceShard, buildTargetShard, openSourceShard, openTargetShard, SourceTable, type SearchUnit } from '../../search/shards.ts';
import { documentsOf, joinedDocuments, searchText } from '../../search/text-index.ts';
import { compareRanked, joinForms } from '../../search/matching.ts';
import { tokenize } from '../../search/text.ts';
import { packTexts, unpackTexts, workerCount } from '../../src/scripts/search/workers.ts';
import { scripts } from './random-texts.ts';

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const pools = Object.values(scripts);

/** One to five words of a script's few characters, so words share prefixes and near misses. */
function randomText(next: () => number, pool: readonly string[]): string {
  const word = () => Array.from({ length: 1 + Math.floor(next() * 8) }, () => pool[Math.floor(next() * pool.length)]!).join('');
  return Array.from({ length: 1 + Math.floor(next() * 5) }, word).join(' ');
}

/** Two buckets, four languages, texts in seven scripts; some untranslated, some with plural forms, sources repeated. */
function shards() {
  const next = random(36);
  const sources = new Map<number, ReturnType<typeof openSourceShard>>();
  const targets = [];
  for (const bucket of [0, 1]) {
    const table = new SourceTable();
    const sourceTexts = Array.from({ length: 60 }, (_, at) => [randomText(next, pools[at % pools.length]!)]);
    for (let language = 0; language < 4; language++) {
      const units: SearchUnit[] = Array.from({ length: 150 }, (_, at) => ({
        component: at % 3,
        source: sourceTexts[at % sourceTexts.length]!,
        target:
          at % 11 === 0
            ? ['']
            : at % 7 === 0
              ? [randomText(next, pools[language]!), randomText(next, pools[language]!)]
              : [randomText(next, pools[(at + language) % pools.length]!)],
        state: at % 11 === 0 ? 0 : 20,
        has: { check: at % 5 === 0, suggestion: false },
        href: `p/${at}.html#unit-${at}`,
      }));
      targets.push(openTargetShard(buildTargetShard(bucket, language, units, table)));
    }
    sources.set(bucket, openSourceShard(buildSourceShard(bucket, table)));
  }
  return { sources, targets };
}

/** The query as the page runs it with workers: each text search answered elsewhere, packed and unpacked as a worker's answer is. */
function withSuppliedMatches(
  request: SearchRequest,
  sources: ReturnType<typeof shards>['sources'],
  targets: ReturnType<typeof shards>['targets'],
): SearchHit[] {
  const search = new ShardSearch(request, sources);
  const answer = (index: Parameters<typeof searchText>[0]) => unpackMatches(packMatches(matchesOf(searchText(index, request.text), search.words)));
  return targets
    .flatMap((shard, order) => {
      const needs = search.textSearches(shard);
      if (needs.source !== undefined) search.supplySource(needs.source, answer(sources.get(needs.source)!.index));
      if (needs.target) search.supplyTarget(shard, answer(shard.index));
      // Every text search was answered: nothing is searched here.
      expect(search.textSearches(shard)).toEqual({ target: false });
      return search.shard(shard, order);
    })
    .sort(compareRanked);
}

const shown = (hits: SearchHit[]) => hits.map((hit) => [hit.shard.data.bucket, hit.shard.data.language, hit.unit, hit.score, hit.tier, hit.order]);

describe('matches found by workers', () => {
  const { sources, targets } = shards();
  // From the texts themselves: a whole text (its phrase tier), a prefix, one edit, two edits, two words, a pair of an unspaced script.
  const latin = (text: string) => tokenize(text).every((term) => /^[a-z]+$/.test(term));
  const texts = targets.flatMap((shard) => shard.data.units.target.map(joinForms)).filter((text) => text !== '' && latin(text));
  const words = [...new Set(texts.flatMap((text) => tokenize(text)))];
  const long = (length: number) => words.find((word) => word.length >= length)!;
  const queries = [
    texts.find((text) => tokenize(text).length >= 2)!,
    long(5).slice(0, 3),
    `${long(5).slice(0, -1)}${long(5).endsWith('a') ? 'b' : 'a'}`,
    `x${long(9).slice(2)}`,
    tokenize(texts.find((text) => tokenize(text).length >= 3)!)
      .slice(1, 3)
      .join(' '),
    '文件',
  ];

  test.each(queries.flatMap((text) => (['both', 'source', 'target'] as const).map((scope) => [text, scope] as const)))(
    '“%s” in %s: the same hits, in the same order',
    (text, scope) => {
      const request: SearchRequest = { text, scope, has: scope === 'both' ? undefined : new Set(['check']) };
      const expected = shown(searchShards(request, sources, targets));
      expect(shown(withSuppliedMatches(request, sources, targets))).toEqual(expected);
    },
  );

  test('queries find something: the comparison is not of empty lists', () => {
    for (const text of queries) expect(searchShards({ text, scope: 'both' }, sources, targets).length, text).toBeGreaterThan(0);
  });
});

describe('what passes between the page and a worker', () => {
  test('texts packed in one string come back whole, plural forms joined as the index joins them', () => {
    const texts = [['a'], ['', ''], ['one', 'two'], [''], ['ж\u0000x', 'y\n'], ['😀']];
    const joined = unpackTexts(packTexts(texts));
    expect(joined).toEqual(texts.map(joinForms));
    expect([...joinedDocuments(joined)]).toEqual([...documentsOf(texts)]);
  });

  test('matches keep their ids, scores to the last bit, and exactness', () => {
    const matches = new Map([
      [7, { score: 0.1 + 0.2, exact: true }],
      [0, { score: 1e-300, exact: false }],
    ]);
    expect(unpackMatches(packMatches(matches))).toEqual(matches);
  });

  test('one to four workers, whatever the browser says of its cores', () => {
    expect([undefined, 0, 1, 2, 3.5, 8, 64].map(workerCount)).toEqual([1, 1, 1, 2, 3, 4, 4]);
  });
});
