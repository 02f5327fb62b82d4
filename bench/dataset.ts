/**
 * `npm run bench:dataset [-- nights mutations-per-night]` (default 3 and 50): what `tmsnap
 * dataset` costs (issue 37). Starts the reference server over the bundled catalogs with its
 * mutation hook, crawls it once, then each night simulates translator activity and crawls
 * incrementally (as bench/archive.ts).
 *
 * `-- --scenario 1m --nights 30 [--from DIR] [--formats parquet] [--keep]`: the scenario's snapshot written directly
 * (bench/direct-snapshot.ts; `--from` copies one written before), then each night 1% of the
 * strings reworded in a few of the translations (translators work on a few languages a night), as
 * a snapshot that carries the rest by reference.
 *
 * Then writes the dataset of all but the last night as SQLite and as Parquet, adds the last night
 * (the incremental run), writes the whole again (the full run), and times the docs' "translated
 * share of every language over time" query in DuckDB over the Parquet folder and in node:sqlite
 * over the file. Prints the archive's size, each dataset's size against it, and bytes per string
 * version, the figure the size at 10M units is computed from
 * (docs/decisions/2026-11-29-dataset-format.md). Prints figures; asserts none.
 */
import { cp, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DatabaseSync } from 'node:sqlite';
import { DuckDBInstance } from '@duckdb/node-api';
import { action } from '../api/change.ts';
import { benchCrawlOptions } from './crawl-options.ts';
import { writeDirectSnapshot, type UnitEdit } from './direct-snapshot.ts';
import { figureOf, loadText, startBench } from './harness.ts';
import { scenarioNamed } from './scenarios.ts';
import { crawl } from '../crawler/crawl.ts';
import { writeDataset, type DatasetFormat } from '../dataset/write.ts';
import { loadDataset } from '../packages/reference-server/datasets.ts';
import type { ChangeRow } from '../packages/reference-server/model.ts';
import { raisedRateLimit } from '../packages/reference-server/rate-limit.ts';
import { listSnapshots, openSnapshot } from '../snapshot/index.ts';
import { randomActivity } from '../test/archive/activity.ts';
import { docQueries, duckViews } from '../test/dataset/read.ts';
import { bundledModel, startTestServer } from '../test/helpers/reference-server.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    scenario: { type: 'string' },
    nights: { type: 'string' },
    from: { type: 'string' },
    formats: { type: 'string', default: 'sqlite,parquet' },
    keep: { type: 'boolean', default: false },
  },
});
const nights = Number(values.nights ?? positionals[0] ?? 3);
const mutationsPerNight = Number(positionals[1] ?? 50);
const formats = values.formats.split(',') as DatasetFormat[];

const bench = startBench('dataset');
const work = await mkdtemp(join(tmpdir(), 'tmsnap-bench-dataset-'));
const content = join(work, 'content');

async function bytesUnder(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(path, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  return total;
}

const seconds = async <T>(run: () => Promise<T>): Promise<{ value: T; s: number }> => {
  const started = performance.now();
  const value = await run();
  return { value, s: (performance.now() - started) / 1000 };
};

/** The bundled catalogs crawled from the reference server, then a night of mutations crawled incrementally, `nights` times. */
async function bundledArchive(): Promise<{ units: number; size: string; about: string }> {
  const model = await bundledModel();
  const units = model.translations().reduce((sum, translation) => sum + model.unitCount(translation.id), 0);
  console.log(
    `input: bundled catalogs, ${model.translations().length} translations, ${units} units; a full crawl and ${nights} nights of ${mutationsPerNight} unit mutations (structural changes every 7th night)`,
  );
  const token = 'wlu_bench_dataset';
  const server = await startTestServer({ data: model, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
  try {
    for (let night = 0; night <= nights; night++) {
      if (night > 0) randomActivity(model, 3700 + night, { unitMutations: mutationsPerNight, structural: night % 7 === 0 });
      const result = await crawl(benchCrawlOptions(server.url, content, { full: night === 0, token }));
      if (result.outcome !== 'complete') throw new Error(`crawl ended ${result.outcome}: ${result.message}`);
    }
  } finally {
    await server.close();
  }
  return { units, size: `bundled, ${nights} nights × ${mutationsPerNight}`, about: `bundled catalogs, ${units} units` };
}

/** A small deterministic generator (mulberry32): the same nights for the same scenario. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A synthetic scenario written directly, then `nights` nights: each rewords 1% of the strings,
 * translated ones only (their state and the statistics stay true), at most as many in a translation
 * as if 2% of them held the edits, one "Translation changed" each.
 */
async function syntheticNights(name: string): Promise<{ units: number; size: string; about: string }> {
  const scenario = scenarioNamed(name);
  const model = await loadDataset(scenario.data);
  const units = model.translations().reduce((sum, translation) => sum + model.unitCount(translation.id), 0);
  if (values.from !== undefined) {
    await cp(values.from, content, { recursive: true });
    console.log(`  the first snapshot copied from ${values.from}`);
  } else {
    const first = await seconds(() => writeDirectSnapshot(content, scenario.data));
    console.log(`  the first snapshot written in ${first.s.toFixed(0)} s`);
  }
  const components = new Map(model.components().map((component) => [component.id, component]));
  const targets = model.translations().filter((translation) => translation.languageCode !== components.get(translation.componentId)?.sourceLanguage);
  const edits = new Map<number, UnitEdit>();
  const draw = random(37);
  let nextChange = model.changeCount() + 1;
  // At most a hundredth of the strings in 2% of the translations: translators work on a few languages a night.
  const perTranslation = Math.ceil(units / 100 / Math.max(1, Math.round(targets.length / 50)));
  console.log(
    `input: scenario ${scenario.name} (${scenario.about}), then ${nights} nights of 1% of the strings reworded, at most ${perTranslation} in a translation`,
  );
  for (let night = 1; night <= nights; night++) {
    const started = performance.now();
    const timestamp = new Date(Date.now() + night * 86_400_000).toISOString().replace('Z', '000Z');
    const touched = new Set<number>();
    const changes: ChangeRow[] = [];
    // Translations drawn until 1% of the strings are reworded, at most `perTranslation` in each.
    while (changes.length < units / 100 && touched.size < targets.length) {
      const translation = targets[Math.floor(draw() * targets.length)]!;
      if (touched.has(translation.id)) continue;
      touched.add(translation.id);
      const translated = model.units(translation.id, 0, model.unitCount(translation.id)).filter((unit) => unit.state === 20);
      // The first ones of a shuffle: each string reworded once a night.
      for (let n = 0; n < Math.min(perTranslation, translated.length, units / 100 - changes.length); n++) {
        const pick = n + Math.floor(draw() * (translated.length - n));
        [translated[n], translated[pick]] = [translated[pick]!, translated[n]!];
        const unit = translated[n]!;
        edits.set(unit.id, { night, timestamp });
        changes.push({
          id: nextChange++,
          action: action.translationChanged,
          timestamp,
          user: null,
          author: null,
          unitId: unit.id,
          translationId: translation.id,
          componentId: translation.componentId,
          target: `${unit.target[0] ?? ''} (night ${night})`,
        });
      }
    }
    const previous = await openSnapshot(content);
    await writeDirectSnapshot(content, scenario.data, () => {}, { previous, edits, touched, changes });
    console.log(
      `  night ${night}: ${changes.length} strings reworded in ${touched.size} translations, ${((performance.now() - started) / 1000).toFixed(1)} s, load ${loadText(bench.load())}`,
    );
  }
  return {
    units,
    size: `${scenario.name}, ${nights} nights × 1%`,
    about: `${scenario.about}; ${nights} nights of 1% reworded, at most ${perTranslation} in a translation`,
  };
}

try {
  const input = values.scenario === undefined ? await bundledArchive() : await syntheticNights(values.scenario);
  const units = input.units;
  const ids = (await listSnapshots(content)).map((summary) => summary.id).reverse();
  const archiveBytes = await bytesUnder(content);
  console.log(`archive: ${ids.length} snapshots, ${(archiveBytes / 1e6).toFixed(1)} MB`);
  const figures = [];
  const query = (await docQueries()).get('language-progress')!;
  for (const format of formats) {
    const out = join(work, format === 'sqlite' ? 'dataset.sqlite' : 'dataset');
    const write = (snapshot?: string) => writeDataset({ content, out, format, snapshot, tmsnapVersion: 'bench' });
    await seconds(() => write(ids.at(-2)));
    const added = await seconds(() => write());
    const incrementalBytes = await bytesUnder(out);
    await rm(out, { recursive: true, force: true });
    const full = await seconds(() => write());
    const bytes = await bytesUnder(out);
    const versions = full.value.unitVersions.live + full.value.unitVersions.ended;
    let querySeconds: number[] = [];
    if (format === 'parquet') {
      const connection = await (await DuckDBInstance.create(':memory:')).connect();
      for (const view of await duckViews(out)) await connection.run(view);
      for (let run = 0; run < 3; run++) querySeconds.push((await seconds(() => connection.runAndReadAll(query))).s);
      connection.closeSync();
    } else {
      const db = new DatabaseSync(out, { readOnly: true });
      querySeconds = [0, 1, 2].map(() => {
        const started = performance.now();
        db.prepare(query).all();
        return (performance.now() - started) / 1000;
      });
      db.close();
    }
    console.log(
      `${format}: full ${full.s.toFixed(2)} s, adding the last night ${added.s.toFixed(2)} s; ${(bytes / 1e6).toFixed(2)} MB (${((100 * bytes) / archiveBytes).toFixed(1)}% of the archive; after the incremental run ${(incrementalBytes / 1e6).toFixed(2)} MB); ` +
        `${versions} string versions for ${units} units (${(bytes / versions).toFixed(0)} bytes each, all tables); language-progress query ${(Math.min(...querySeconds) * 1000).toFixed(1)} ms`,
    );
    figures.push(
      figureOf(`${format}: write all snapshots`, 's', full.s),
      figureOf(`${format}: add the last night`, 's', added.s),
      figureOf(`${format}: size`, 'MB', bytes / 1e6),
      figureOf(`${format}: share of the archive`, '%', (100 * bytes) / archiveBytes),
      figureOf(`${format}: bytes per string version`, 'B', bytes / versions),
      figureOf(
        `${format}: language-progress query`,
        'ms',
        querySeconds.map((value) => value * 1000),
      ),
    );
  }
  await bench.record({
    input: {
      size: input.size,
      about: `${input.about}; ${ids.length} snapshots; archive ${(archiveBytes / 1e6).toFixed(1)} MB`,
    },
    figures,
  });
} finally {
  if (values.keep) console.log(`kept the archive and the datasets in ${work}`);
  else await rm(work, { recursive: true, force: true });
}
