/**
 * Routing (search/routing.ts): a shard's route never rules out a query its index answers,
 * for random texts and queries in several scripts (prefixes, one and two edits, character
 * pairs), and it does rule out shards that cannot match. Over a built index, a query routed
 * to some shards finds exactly what it finds in all of them.
 */
import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, test } from 'vitest';

import { routesFile, type SearchManifest, type SearchRoutes, type SourceShardData, type TargetShardData } from '../../search/format.ts';
import { maxEdits } from '../../search/matching.ts';
import { routeShards, selectShards } from '../../search/plan.ts';
import { mergeRanked, searchShards, ShardSearch, type SearchScope } from '../../search/query.ts';
import { openRoutes, routeQuery, RouteTest, shardRoute } from '../../search/routing.ts';
import { searchText, termsOf, textIndexOf } from '../../search/text-index.ts';
import { openSourceShard, openTargetShard, unitHref } from '../../search/shards.ts';
import { tokenize } from '../../search/text.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { siteSearchIndex } from './site-index.ts';
import { writeSearchFixture } from './fixture.ts';
import { query, text } from './random-texts.ts';
import { useTempFolders } from '../helpers/temp.ts';

function documents(texts: string[]) {
  return texts.map((text, id) => ({ id, text }));
}

/** A route as the page gets it: drawn from the texts' terms, through the JSON of a shard script. */
const shipped = (texts: string[]) => new RouteTest(JSON.parse(JSON.stringify(shardRoute(termsOf(documents(texts))))));

describe('a shard route', () => {
  test('never rules out a query the shard answers', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 12 }).chain((texts) => fc.tuple(fc.constant(texts), fc.array(query(texts), { minLength: 1, maxLength: 10 }))),
        ([texts, queries]) => {
          const route = shipped(texts);
          const search = textIndexOf(documents(texts));
          for (const text of queries) {
            if (searchText(search, text).length === 0) continue;
            answered++;
            expect(route.holdsAll(tokenize(text)), `query ${JSON.stringify(text)} over ${JSON.stringify(texts)}`).toBe(true);
          }
        },
      ),
      { numRuns: 400, seed: 14 },
    );
    // The property says something only if many queries matched.
    expect(answered).toBeGreaterThan(1000);
  });

  test('rules out other scripts, missing heads and terms too far from every word', () => {
    const route = shipped(['Otwórz plik', 'Zapisz jako…', '名前を付けて保存…']);
    expect(route.holdsAll(tokenize('otworz'))).toBe(true);
    expect(route.holdsAll(tokenize('pl'))).toBe(true);
    expect(route.holdsAll(tokenize('保存'))).toBe(true);
    expect(route.holdsAll(tokenize('plik zapisz'))).toBe(true);
    // One edit from "zapisz" (a fuzzy term of six letters keeps three of its five pairs).
    expect(route.holdsAll(tokenize('zapizz'))).toBe(true);
    expect(route.holdsAll(tokenize('файл'))).toBe(false);
    expect(route.holdsAll(tokenize('保管'))).toBe(false);
    expect(route.holdsAll(tokenize('xyz'))).toBe(false);
    expect(route.holdsAll(tokenize('plik xyz'))).toBe(false);
    expect(route.holdsAll(tokenize('qqqqqq'))).toBe(false);
  });

  test('allows as many edits as the search options do', () => {
    expect(['abc', 'abcd', 'abcdefg', 'abcdefgh', '保存保存保存'].map(maxEdits)).toEqual([0, 1, 1, 2, 0]);
  });
});

describe('routing over a built index', () => {
  const tempFolder = useTempFolders('tmsnap-search-routing-', 'all');
  let dir: string;
  let manifest: SearchManifest;
  let routes: SearchRoutes;
  const shards = new Map<string, unknown>();

  /** Runs a search script the way the page does. */
  async function load<T>(out: string, file: string): Promise<T> {
    let data: unknown;
    runInNewContext(await readFile(join(out, 'search', file), 'utf8'), { tmsnapSearch: (_: string, value: unknown) => (data = value) });
    return data as T;
  }

  beforeAll(async () => {
    dir = await tempFolder();
    await writeSearchFixture(join(dir, 'content'));
    const out = join(dir, 'out');
    // Two units per shard: three buckets, so routing has buckets to skip as well as languages.
    await siteSearchIndex(await openSnapshot(join(dir, 'content')), out, { unitsPerShard: 2 });
    manifest = await load<SearchManifest>(out, 'manifest.js');
    routes = await load<SearchRoutes>(out, routesFile);
    for (const bucket of manifest.buckets) if (bucket.sources) shards.set(bucket.sources.file, await load(out, bucket.sources.file));
    for (const target of manifest.targets) shards.set(target.file, await load(out, target.file));
  });

  function openTarget(target: SearchManifest['targets'][number]) {
    return openTargetShard(shards.get(target.file) as TargetShardData);
  }

  /** Results of `text` searched in the given target shards (and every source shard). */
  function found(text: string, scope: SearchScope, targets: SearchManifest['targets']): string[] {
    const sources = new Map(
      manifest.buckets
        .flatMap((bucket) => (bucket.sources ? [openSourceShard(shards.get(bucket.sources.file) as SourceShardData)] : []))
        .map((shard) => [shard.data.bucket, shard]),
    );
    const opened = targets.map((target) => openTarget(target));
    return searchShards({ text, scope }, sources, opened)
      .map((hit) => unitHref(hit.shard.data, hit.unit))
      .sort();
  }

  test('the routes file names a route for every shard', () => {
    expect(routes.format).toBe(manifest.format);
    expect(routes.targets).toHaveLength(manifest.targets.length);
    expect(routes.sources.map((route) => route !== null)).toEqual(manifest.buckets.map((bucket) => bucket.sources !== null));
  });

  test('a query routed to some shards finds what it finds in all of them', () => {
    const opened = openRoutes(routes);
    const texts = [...shards.values()].flatMap((data) =>
      'texts' in (data as object) ? (data as SourceShardData).texts.flat() : 'units' in (data as object) ? (data as TargetShardData).units.target.flat() : [],
    );
    let skipped = 0;
    let withResults = 0;
    fc.assert(
      fc.property(query(texts.filter((value) => value.trim() !== '')), fc.constantFrom<SearchScope>('both', 'source', 'target'), (text, scope) => {
        const all = found(text, scope, manifest.targets);
        const routed = routeShards(manifest, {}, routeQuery(opened, text, scope));
        skipped += manifest.targets.length - routed.targets.length;
        if (all.length > 0) withResults++;
        expect(found(text, scope, routed.targets), `query ${JSON.stringify(text)} in ${scope}`).toEqual(all);
      }),
      { numRuns: 300, seed: 14 },
    );
    expect(withResults).toBeGreaterThan(100);
    expect(skipped).toBeGreaterThan(1000);
  });

  test('a word found in one language loads that language only, with its bucket’s sources', () => {
    const opened = openRoutes(routes);
    const routed = routeShards(manifest, {}, routeQuery(opened, 'schliessen', 'both'));
    expect(routed.targets.map((target) => manifest.languages[target.language]!.code)).toEqual(['de']);
    expect(routed.buckets).toEqual([routed.targets[0]!.bucket]);
    // A source word reaches every language of the buckets that hold it, and no other bucket.
    const source = routeShards(manifest, {}, routeQuery(opened, 'welcome', 'both'));
    expect(new Set(source.targets.map((target) => manifest.languages[target.language]!.code))).toEqual(new Set(['ar', 'de', 'ja', 'pl', 'ru']));
    expect(source.buckets).toEqual([2]);
    // Only the source language's own translation held it as a target, and that is not indexed (issue 28).
    expect(routeShards(manifest, {}, routeQuery(opened, 'welcome', 'target')).targets).toEqual([]);
    expect(routeShards(manifest, {}, routeQuery(opened, 'witamy', 'target')).targets.map((target) => manifest.languages[target.language]!.code)).toEqual([
      'pl',
    ]);
    // Nothing to find: nothing to load. Without routes, everything the filters allow.
    expect(routeShards(manifest, {}, routeQuery(opened, 'zzzz', 'both')).targets).toEqual([]);
    expect(routeShards(manifest, {}, routeQuery(opened, '…', 'both')).targets).toEqual([]);
    expect(routeShards(manifest, {}, routeQuery(undefined, 'zzzz', 'both')).targets).toEqual(selectShards(manifest, {}).targets);
  });

  test('shards searched one by one and merged rank as one search does', () => {
    const sources = new Map(
      manifest.buckets
        .flatMap((bucket) => (bucket.sources ? [openSourceShard(shards.get(bucket.sources.file) as SourceShardData)] : []))
        .map((shard) => [shard.data.bucket, shard]),
    );
    const opened = manifest.targets.map((target) => openTarget(target));
    for (const text of ['save', 'file', 'sav', 'speichern unter', '保存', 'menu']) {
      const whole = searchShards({ text, scope: 'both' }, sources, opened);
      const search = new ShardSearch({ text, scope: 'both' }, sources);
      // Asked in another order, and twice, as the page does while shards arrive.
      const lists = [...opened.keys()].reverse().map((order) => search.shard(opened[order]!, order));
      const order = [...opened.keys()].reverse();
      order.forEach((shard, place) => expect(search.shard(opened[shard]!, shard)).toBe(lists[place]));
      expect(whole.length).toBeGreaterThan(0);
      expect(mergeRanked(lists, Number.POSITIVE_INFINITY)).toEqual(whole);
      expect(mergeRanked(lists, 3)).toEqual(whole.slice(0, 3));
    }
  });
});
