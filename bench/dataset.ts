/**
 * `npm run bench:dataset [-- nights mutations-per-night]` (default 3 and 50): what `tmsnap
 * dataset` costs (issue 37). Starts the reference server over the bundled catalogs with its
 * mutation hook, crawls it once, then each night simulates translator activity and crawls
 * incrementally (as bench/archive.ts). Then writes the dataset of all but the last night as
 * SQLite and as Parquet, adds the last night (the incremental run), writes the whole again
 * (the full run), and times the docs' "translated share of every language over time" query in
 * DuckDB over the Parquet folder and in node:sqlite over the file. Prints the archive's size,
 * each dataset's size against it, and bytes per string version, the figure the size at 1M and
 * 10M units is computed from (docs/decisions/2026-11-29-dataset-format.md). Prints figures;
 * asserts none.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DuckDBInstance } from '@duckdb/node-api';
import { benchCrawlOptions } from './crawl-options.ts';
import { figureOf, startBench } from './harness.ts';
import { crawl } from '../crawler/crawl.ts';
import { writeDataset, type DatasetFormat } from '../dataset/write.ts';
import { raisedRateLimit } from '../packages/reference-server/rate-limit.ts';
import { listSnapshots } from '../snapshot/index.ts';
import { randomActivity } from '../test/archive/activity.ts';
import { docQueries, duckViews } from '../test/dataset/read.ts';
import { bundledModel, startTestServer } from '../test/helpers/reference-server.ts';

const nights = Number(process.argv[2] ?? 3);
const mutationsPerNight = Number(process.argv[3] ?? 50);

const bench = startBench('dataset');
const model = await bundledModel();
const units = model.translations().reduce((sum, translation) => sum + model.unitCount(translation.id), 0);
console.log(
  `input: bundled catalogs, ${model.translations().length} translations, ${units} units; a full crawl and ${nights} nights of ${mutationsPerNight} unit mutations (structural changes every 7th night)`,
);

const token = 'wlu_bench_dataset';
const server = await startTestServer({ data: model, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
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

try {
  for (let night = 0; night <= nights; night++) {
    if (night > 0) randomActivity(model, 3700 + night, { unitMutations: mutationsPerNight, structural: night % 7 === 0 });
    const result = await crawl(benchCrawlOptions(server.url, content, { full: night === 0, token }));
    if (result.outcome !== 'complete') throw new Error(`crawl ended ${result.outcome}: ${result.message}`);
  }
  const ids = (await listSnapshots(content)).map((summary) => summary.id).reverse();
  const archiveBytes = await bytesUnder(content);
  console.log(`archive: ${ids.length} snapshots, ${(archiveBytes / 1e6).toFixed(1)} MB`);
  const figures = [];
  const query = (await docQueries()).get('language-progress')!;
  for (const format of ['sqlite', 'parquet'] as DatasetFormat[]) {
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
      size: `bundled, ${nights} nights × ${mutationsPerNight}`,
      about: `bundled catalogs, ${units} units; ${ids.length} snapshots; archive ${(archiveBytes / 1e6).toFixed(1)} MB`,
    },
    figures,
  });
} finally {
  await server.close();
  await rm(work, { recursive: true, force: true });
}
