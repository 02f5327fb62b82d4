/**
 * Indexes built where a query needs them (format 7, docs/search.md): shards ship texts, no
 * index; a query reads a target shard's index only where its route says the targets can
 * match, and finds what a search of every index finds. A source string's phrase tier is told
 * once for all languages, with the ranking unchanged.
 */
import fc from 'fast-check';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, test } from 'vitest';

import { routesFile, type SearchManifest, type SearchRoutes, type SourceShardData, type TargetShardData } from '../../search/format.ts';
import { phraseForm, phraseTier, tiers } from '../../search/matching.ts';
import { routeShards } from '../../search/plan.ts';
import { searchShards, ShardSearch, type SearchScope } from '../../search/query.ts';
import { openRoutes, routeQuery } from '../../search/routing.ts';
import { openSourceShard, openTargetShard, unitHref, type OpenTargetShard } from '../../search/shards.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { siteSearchIndex } from './site-index.ts';
import { writeSearchFixture } from './fixture.ts';
import { useTempFolders } from '../helpers/temp.ts';

const tempFolder = useTempFolders('tmsnap-search-target-index-', 'all');
let out: string;
let manifest: SearchManifest;
let routes: SearchRoutes;
const files = new Map<string, unknown>();

async function load<T>(file: string): Promise<T> {
  let data: unknown;
  runInNewContext(await readFile(join(out, 'search', file), 'utf8'), { tmsnapSearch: (_: string, value: unknown) => (data = value) });
  return data as T;
}

beforeAll(async () => {
  const dir = await tempFolder();
  await writeSearchFixture(join(dir, 'content'));
  out = join(dir, 'out');
  await siteSearchIndex(await openSnapshot(join(dir, 'content')), out, { unitsPerShard: 2 });
  manifest = await load<SearchManifest>('manifest.js');
  routes = await load<SearchRoutes>(routesFile);
  for (const file of await readdir(join(out, 'search/shards'))) files.set(`shards/${file}`, await load(`shards/${file}`));
});

function sources() {
  return new Map(
    manifest.buckets
      .flatMap((bucket) => (bucket.sources ? [openSourceShard(files.get(bucket.sources.file) as SourceShardData)] : []))
      .map((shard) => [shard.data.bucket, shard]),
  );
}

function table(target: SearchManifest['targets'][number]): TargetShardData {
  return files.get(target.file) as TargetShardData;
}

describe('indexes built where a query needs them', () => {
  test('shards ship texts and no index; the manifest counts each table’s translated units', () => {
    expect([...files.keys()].every((file) => /^shards\/[st]-/.test(file))).toBe(true);
    let untranslated = 0;
    for (const target of manifest.targets) {
      expect(Object.keys(table(target)).sort()).toEqual(['bucket', 'format', 'has', 'language', 'pages', 'units']);
      const translated = table(target).units.target.filter((forms) => forms.join('\n').trim() !== '').length;
      expect(target.translated).toBe(translated);
      if (translated < target.units) untranslated++;
    }
    expect(untranslated).toBeGreaterThan(0);
    for (const bucket of manifest.buckets)
      if (bucket.sources) expect(Object.keys(files.get(bucket.sources.file) as object).sort()).toEqual(['bucket', 'format', 'texts']);
  });

  test('a routed query with only the indexes its routes ask for finds what every index finds', () => {
    const opened = openRoutes(routes);
    const texts = manifest.targets.flatMap((target) => table(target).units.target.flat()).filter((value) => value.trim() !== '');
    const words = texts.flatMap((value) => value.split(/\s+/)).filter((value) => value.length > 0);
    let withoutIndex = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(...words),
          fc.constantFrom(...words).map((value) => value.slice(0, 3)),
        ),
        fc.constantFrom<SearchScope>('both', 'source', 'target'),
        (text, scope) => {
          const everything = manifest.targets.map((target) => openTargetShard(table(target)));
          const all = searchShards({ text, scope }, sources(), everything).map((hit) => unitHref(hit.shard.data, hit.unit));
          const routing = routeQuery(opened, text, scope);
          const { positions } = routeShards(manifest, {}, routing);
          const byTarget = (position: number) => scope !== 'source' && manifest.targets[position]!.translated > 0 && routing.target(position);
          const shards = new Map<OpenTargetShard, number>();
          for (const position of positions) {
            const target = manifest.targets[position]!;
            // As the page does: its index read only where targets can match.
            const shard = openTargetShard(table(target));
            if (!byTarget(position)) withoutIndex++;
            shards.set(shard, position);
          }
          const request = { text, scope, routing: { source: routing.source, target: (shard: OpenTargetShard) => byTarget(shards.get(shard)!) } };
          const routed = searchShards(request, sources(), [...shards.keys()]).map((hit) => unitHref(hit.shard.data, hit.unit));
          expect(routed.sort(), `query ${JSON.stringify(text)} in ${scope}`).toEqual(all.sort());
        },
      ),
      { numRuns: 150, seed: 3 },
    );
    // Source words reach shards whose targets cannot match: those were searched without an index.
    expect(withoutIndex).toBeGreaterThan(20);
  });
});

describe('phrase tiers of source strings', () => {
  test('hits through a source rank as the source’s phrase tier says, in every language', () => {
    const open = sources();
    const shards = manifest.targets.map((target) => openTargetShard(table(target)));
    for (const text of ['save as', 'save', 'open file', 'welcome']) {
      const search = new ShardSearch({ text, scope: 'source' }, open);
      const hits = shards.flatMap((shard, order) => search.shard(shard, order));
      expect(hits.length, text).toBeGreaterThan(0);
      for (const hit of hits) {
        const forms = open.get(hit.shard.data.bucket)!.data.texts[hit.shard.data.units.source[hit.unit]!]!;
        const expected = phraseTier(phraseForm(forms.join('\n')), phraseForm(text));
        // A source matched by prefix only ranks by terms, whatever its text.
        if (hit.tier !== tiers.terms) expect(hit.tier, `${text}: ${forms[0]}`).toBe(expected);
      }
      expect(hits.some((hit) => hit.tier !== tiers.terms)).toBe(true);
    }
  });
});
