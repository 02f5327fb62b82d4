/**
 * `npm run bench:site-history [-- days mutations-per-day]` (default 30 and 50): what string
 * histories cost the site build (docs/site.md, "String history"; issue 13: within +25% of
 * build time and size). Starts the reference server over the bundled catalogs, crawls it once,
 * then each "day" simulates translator activity and crawls incrementally (as bench/archive.ts),
 * then builds the newest snapshot with histories and with `--no-history`, each through the CLI
 * in its own process. Prints figures; asserts none.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { benchCrawlOptions } from './crawl-options.ts';
import { figureOf, loadText, startBench } from './harness.ts';
import { crawl } from '../crawler/crawl.ts';
import { raisedRateLimit } from '../packages/reference-server/rate-limit.ts';
import { listSnapshots } from '../snapshot/index.ts';
import { randomActivity } from '../test/archive/activity.ts';
import { bundledModel, startTestServer } from '../test/helpers/reference-server.ts';

const days = Number(process.argv[2] ?? 30);
const mutationsPerDay = Number(process.argv[3] ?? 50);
const repo = resolve(import.meta.dirname, '..');

const bench = startBench('site-history');
const load = () => loadText(bench.load());

const model = await bundledModel();
const units = model.translations().reduce((sum, translation) => sum + model.unitCount(translation.id), 0);
console.log(
  `input: bundled catalogs, ${model.translations().length} translations, ${units} units; ${days} snapshots, ${mutationsPerDay} unit mutations a day, structural changes every 7th day`,
);

const token = 'wlu_bench_site_history';
const server = await startTestServer({ data: model, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
const work = await mkdtemp(join(tmpdir(), 'tmsnap-bench-site-history-'));
const content = join(work, 'content');

async function crawlOnce(full: boolean): Promise<void> {
  const result = await crawl(benchCrawlOptions(server.url, content, { full, token }));
  if (result.outcome === 'failed') throw new Error(`crawl failed: ${result.message}`);
}

interface Summary {
  pages: number;
  files: number;
  bytes: number;
  seconds: number;
}

async function build(out: string, extra: string[]): Promise<Summary & { load: string }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(repo, 'bin/tmsnap.js'), 'build', '--content', content, '--out', out, '--json', ...extra],
    {
      cwd: repo,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return { ...(JSON.parse(stdout.trim().split('\n').at(-1)!) as Summary), load: load() };
}

try {
  const crawlStarted = performance.now();
  await crawlOnce(true);
  for (let day = 2; day <= days; day++) {
    randomActivity(model, 2000 + day, { unitMutations: mutationsPerDay, structural: day % 7 === 0 });
    await crawlOnce(false);
    if (day % 5 === 0) console.log(`day ${day}: crawled (${((performance.now() - crawlStarted) / 1000).toFixed(0)} s so far, load ${load()})`);
  }
  const snapshots = (await listSnapshots(content)).filter((s) => s.complete);
  console.log(`archive: ${snapshots.length} complete snapshots, crawled in ${((performance.now() - crawlStarted) / 1000).toFixed(0)} s`);
  // Without histories first, then with: alternated once more so a load change shows up as a disagreement.
  const runs: Array<{ name: string; summary: Summary & { load: string } }> = [];
  for (const [name, flags] of [
    ['no history', ['--no-history']],
    ['history', []],
    ['no history', ['--no-history']],
    ['history', []],
  ] as const) {
    runs.push({ name, summary: await build(join(work, `dist-${runs.length}`), [...flags]) });
    const { summary } = runs.at(-1)!;
    console.log(
      `build, ${name}: ${summary.seconds.toFixed(1)} s, ${summary.pages} pages, ${summary.files} files, ${summary.bytes} bytes (${(summary.bytes / 1e6).toFixed(1)} MB), load after ${summary.load}`,
    );
  }
  const best = (name: string) =>
    runs
      .filter((run) => run.name === name)
      .map((run) => run.summary)
      .sort((a, b) => a.seconds - b.seconds)[0]!;
  const base = best('no history');
  const with_ = best('history');
  const pct = (a: number, b: number) => `${a >= b ? '+' : ''}${((100 * (a - b)) / b).toFixed(1)}%`;
  console.log(
    `history vs no history (fastest of two each): time ${with_.seconds.toFixed(1)} s vs ${base.seconds.toFixed(1)} s (${pct(with_.seconds, base.seconds)}), size ${with_.bytes} vs ${base.bytes} bytes (${pct(with_.bytes, base.bytes)})`,
  );
  const of = (name: string, pick: (summary: Summary) => number) => runs.filter((run) => run.name === name).map((run) => pick(run.summary));
  await bench.record({
    input: {
      size: `${days} days × ${mutationsPerDay} mutations`,
      about: `bundled catalogs, ${units} units; ${snapshots.length} snapshots; each build twice, in turns`,
    },
    figures: ['no history', 'history'].flatMap((name) => [
      figureOf(
        `build, ${name}`,
        's',
        of(name, (summary) => summary.seconds),
      ),
      figureOf(
        `site, ${name}`,
        'MB',
        of(name, (summary) => summary.bytes / 1e6),
      ),
      figureOf(
        `pages, ${name}`,
        'pages',
        of(name, (summary) => summary.pages),
      ),
    ]),
  });
} finally {
  await server.close();
  await rm(work, { recursive: true, force: true });
}
