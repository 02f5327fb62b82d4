/**
 * `npm run bench:build [-- bundled 100k 1m 10m]`: how fast `tmsnap build` turns a snapshot into
 * the site. Scenarios are bench/scenarios.ts's: `bundled` and `100k` crawl the reference
 * server (once), `1m` and `10m` write their snapshot straight through the writer
 * (bench/direct-snapshot.ts; crawling them is bench/crawl.ts's row). Then it builds in a child
 * process and reports pages/s, total time, the child's peak RSS (every thread of it: the bulk
 * writers are worker threads, site/bulk-workers.ts) and its RSS sampled every 2 s, the time of
 * Astro's build (its pages, Vite and the search index), and the figures of the pages written
 * outside Astro beside it (site/bulk-pages.ts): pages, files, time, pages/s.
 * Resumable: a finished snapshot, and a finished build of that snapshot, in
 * bench/results/<scenario>/ are reused (`--rebuild` builds again; `--direct` writes any synthetic
 * scenario's snapshot directly, e.g. `100k --direct`). Prints figures; asserts none.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { loadDataset } from '../packages/reference-server/datasets.ts';
import { raisedRateLimit } from '../packages/reference-server/rate-limit.ts';
import { startReferenceServer } from '../packages/reference-server/server.ts';
import type { AstroUsage } from '../site/astro-process.ts';
import type { BulkReport } from '../site/bulk-pages.ts';
import { bulkWriters } from '../site/bulk-workers.ts';
import { listSnapshots } from '../snapshot/index.ts';
import { writeDirectSnapshot } from './direct-snapshot.ts';
import { type Bench, figureOf, loadText, startBench, statusWriter } from './harness.ts';
import { scenarioNamed, scenarioResults } from './scenarios.ts';

const status = statusWriter();

const repo = resolve(import.meta.dirname, '..');
/** Scenarios whose snapshot is written straight through the writer rather than crawled. */
const direct = new Set(['1m', '10m']);
/** `--direct`: any synthetic scenario's snapshot written straight through the writer (a quicker 100k). */
const forceDirect = process.argv.includes('--direct');

/** Runs a child to completion, its output appended to `log`; the last stdout line is returned. */
function run(args: string[], log: string, onLine?: (line: string) => void, env: NodeJS.ProcessEnv = {}, onSpawn?: (pid: number) => void): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    if (child.pid !== undefined) onSpawn?.(child.pid);
    const out = createWriteStream(log, { flags: 'a' });
    let last = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        out.write(text);
        for (const line of text.split('\n')) {
          if (line.trim() === '') continue;
          if (stream === child.stdout) last = line;
          onLine?.(line);
        }
      });
    }
    child.on('error', fail);
    child.on('close', (code) => {
      out.end();
      // The crawl exits 3 for "complete with problems", still a usable snapshot.
      if (code === 0 || (code === 3 && args.includes('crawl'))) done(last);
      else fail(new Error(`${args.join(' ')} exited with ${code}; see ${log}`));
    });
  });
}

async function countFiles(dir: string): Promise<{ html: number; files: number; bytes: number }> {
  let html = 0;
  let files = 0;
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    if (entry.name.endsWith('.html')) html += 1;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { html, files, bytes };
}

async function crawlOnce(name: string, data: string, content: string, log: string): Promise<void> {
  if ((await listSnapshots(content)).some((s) => s.complete)) {
    console.log(`${name}: reusing the snapshot in ${content}`);
    return;
  }
  if (direct.has(name) || forceDirect) {
    const started = performance.now();
    const result = await writeDirectSnapshot(content, data, (progress) =>
      status(`${name}: writing the snapshot, ${progress.stage} ${progress.done}/${progress.total}`),
    );
    console.log(`\n${name}: wrote the snapshot in ${((performance.now() - started) / 1000).toFixed(0)} s${result.resumed ? ' (continued)' : ''}`);
    return;
  }
  // The default (5.4) profile read with a token at raised limits (anonymous: 100 requests a day).
  const token = 'wlu_bench_build';
  const server = await startReferenceServer({
    model: await loadDataset(data),
    host: '127.0.0.1',
    port: 0,
    behaviours: { tokens: [token], rateLimit: raisedRateLimit },
  });
  try {
    const started = performance.now();
    await run([join(repo, 'bin/tmsnap.js'), 'crawl', '--url', server.url, '--content', content], log, undefined, { WEBLATE_TOKEN: token });
    console.log(`${name}: crawled ${data} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await server.close();
  }
}

/** The child's resident set, from /proc (Linux); 0 where it cannot be read. */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * CPU seconds of each thread of the child so far, by thread id, from /proc (Linux; none elsewhere):
 * the main thread runs Astro and the search index, the others the bulk writers (and V8's helpers).
 */
async function threadCpu(pid: number): Promise<Map<number, number>> {
  const seconds = new Map<number, number>();
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  for (const task of tasks) {
    const stat = await readFile(`/proc/${pid}/task/${task}/stat`, 'utf8').catch(() => '');
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.length > 13) seconds.set(Number(task), (Number(fields[11]) + Number(fields[12])) / 100);
  }
  return seconds;
}

interface Sample {
  seconds: number;
  pages: number;
  rss: number;
}

async function benchScenario(bench: Bench, name: string, rebuild: boolean): Promise<void> {
  const { data, about } = scenarioNamed(name);
  const results = scenarioResults(name);
  const log = join(results.dir, 'build.log');
  const figures = join(results.dir, 'build.json');
  await mkdir(results.dir, { recursive: true });
  await crawlOnce(name, data, results.content, log);
  const [snapshot] = (await listSnapshots(results.content)).filter((s) => s.complete);
  const reused = rebuild ? undefined : await readFile(figures, 'utf8').catch(() => undefined);
  if (reused !== undefined && (JSON.parse(reused) as { snapshot?: string }).snapshot === snapshot?.id) {
    console.log(`${name}: reusing the build of snapshot ${snapshot?.id} (--rebuild to build again):\n${(JSON.parse(reused) as { report: string }).report}`);
    return;
  }
  await rm(results.dist, { recursive: true, force: true });
  const loadBefore = bench.load();
  const started = performance.now();
  let routes = 0;
  let pages = 0;
  let pid: number | undefined;
  const samples: Sample[] = [];
  // The last reading of each thread: a worker's ends with it.
  const threads = new Map<number, number>();
  const sampler = setInterval(() => {
    if (pid === undefined) return;
    const child = pid;
    void rssOf(child).then((rss) => samples.push({ seconds: (performance.now() - started) / 1000, pages, rss }));
    void threadCpu(child).then((cpu) => cpu.forEach((value, thread) => threads.set(thread, Math.max(value, threads.get(thread) ?? 0))));
  }, 2000);
  const childResult = await run(
    [join(repo, 'bench/build.ts'), '--child', results.content, results.dist],
    log,
    (line) => {
      if (line.includes('▶ src/pages/')) routes += 1;
      // The child's count of pages Astro wrote so far (its progress callback, every 100 pages).
      else if (/^pages \d+$/.test(line)) pages = Number(line.slice('pages '.length));
      else return;
      status(`${name}: building, route ${routes}, ${pages} pages (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    },
    {},
    (childPid) => (pid = childPid),
  ).finally(() => clearInterval(sampler));
  const seconds = (performance.now() - started) / 1000;
  const { maxRssKb, cpuSeconds, bulk, astroSeconds, mainHeapPeak, astroUsage } = JSON.parse(childResult) as ChildResult;
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  const { html, files, bytes } = await countFiles(results.dist);
  const bulkPages = bulk.unitPages + bulk.stringPages + bulk.translationPages;
  const rss = samples.filter((sample) => sample.rss > 0).map((sample) => sample.rss / 2 ** 20);
  const counts = snapshot?.manifest?.counts ?? {};
  process.stdout.write('\n');
  const report = [
    `scenario ${name} (${about}; --data ${data}${direct.has(name) || forceDirect ? ', written directly' : ', crawled'})`,
    `  input: ${counts.unit ?? 0} units, ${counts.translation ?? 0} translations, ${counts.component ?? 0} components, ${counts.change ?? 0} changes`,
    `  output: ${html} HTML pages, ${files} files, ${(bytes / 1e6).toFixed(0)} MB`,
    `  build: ${seconds.toFixed(1)} s total, ${(html / seconds).toFixed(0)} pages/s, ${((counts.unit ?? 0) / seconds).toFixed(0)} units/s, ` +
      `peak RSS ${(maxRssKb / 1024).toFixed(0)} MB (the build's process, bulk writers included), Astro's process ${(astroUsage.maxRssKb / 1024).toFixed(0)} MB`,
    `  CPU: ${(cpuSeconds + astroUsage.cpuSeconds).toFixed(1)} s, both processes, every thread (${((cpuSeconds + astroUsage.cpuSeconds) / bench.machine.cores).toFixed(1)} s of wall time on ${bench.machine.cores} idle cores at best); ` +
      `Astro's process (Astro, Vite, the search index) ${astroUsage.cpuSeconds.toFixed(1)} s; the build's process ${cpuSeconds.toFixed(1)} s: its main thread ${(threads.get(pid ?? 0) ?? 0).toFixed(1)} s, the busiest others (bulk writers) ${[
        ...threads,
      ]
        .filter(([thread]) => thread !== pid)
        .map(([, value]) => value)
        .sort((a, b) => b - a)
        .slice(0, 2)
        .map((value) => `${value.toFixed(1)} s`)
        .join(', ')}, sampled every 2 s`,
    `  V8 heap at its largest: main thread ${mb(mainHeapPeak)} (sampled every 0.5 s), bulk writers ${(bulk.heapPeaks ?? []).map(mb).join(', ')}; the rest of the RSS is code, buffers and free pages`,
    `  RSS sampled every 2 s: ${rss.length > 0 ? `${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)} MB over ${rss.length} samples` : 'no samples'}`,
    `  astro (with Vite and the search index): ${astroSeconds.toFixed(1)} s for ${html - bulkPages} pages, beside the bulk writers`,
    `  bulk writers (${bulk.writers} threads): ${bulk.unitPages} unit pages, ${bulk.stringPages} string pages, ${bulk.translationPages} translation pages and ${bulk.otherFiles} badges and raw files ` +
      `(${(bulk.bytes / 1e6).toFixed(0)} MB) in ${bulk.seconds.toFixed(1)} s, ${(bulkPages / bulk.seconds).toFixed(0)} pages/s, ${(bulk.bytes / 1e6 / bulk.seconds).toFixed(1)} MB/s`,
    `  load average: ${loadText(loadBefore)} before, ${loadText(bench.load())} after`,
  ].join('\n');
  console.log(report);
  await writeFile(figures, `${JSON.stringify({ snapshot: snapshot?.id, report, samples }, null, 2)}\n`);
  await bench.record({
    input: { size: name, about: `${about}; ${counts.unit ?? 0} units, ${direct.has(name) || forceDirect ? 'written directly' : 'crawled'}` },
    loadStart: loadBefore,
    figures: [
      figureOf('build', 's', seconds),
      figureOf('build', 'pages/s', html / seconds),
      figureOf('build', 'units/s', (counts.unit ?? 0) / seconds),
      figureOf('peak RSS', 'MB', maxRssKb / 1024),
      figureOf('CPU, both processes, every thread', 's', cpuSeconds + astroUsage.cpuSeconds),
      figureOf("peak RSS, Astro's process", 'MB', astroUsage.maxRssKb / 1024),
      figureOf('Astro with Vite and the search index', 's', astroSeconds),
      figureOf('bulk writers', 's', bulk.seconds),
      figureOf('HTML pages', 'pages', html),
      figureOf('output', 'MB', bytes / 1e6),
    ],
  });
}

interface ChildResult {
  maxRssKb: number;
  /** CPU seconds of the child, every thread: what the build costs whatever else the machine runs. */
  cpuSeconds: number;
  bulk: BulkReport & { writers: number };
  /** Seconds of Astro's build (its pages, Vite and the search index), while the bulk writers ran beside it. */
  astroSeconds: number;
  /** The main thread's largest V8 heap, in bytes. */
  mainHeapPeak: number;
  /** Astro's process (site/astro-process.ts): its CPU and peak RSS, which `maxRssKb` and `cpuSeconds` leave out. */
  astroUsage: AstroUsage;
}

async function child(content: string, out: string): Promise<void> {
  const { buildSite } = await import('../site/build.ts');
  let bulk: BulkReport | undefined;
  let astroSeconds = 0;
  let astroUsage: AstroUsage = { cpuSeconds: 0, maxRssKb: 0 };
  let reported = 0;
  let mainHeapPeak = 0;
  const heapSampler = setInterval(() => (mainHeapPeak = Math.max(mainHeapPeak, getHeapStatistics().total_heap_size)), 500).unref();
  await buildSite({
    content,
    out,
    base: '/',
    hideAuthors: false,
    onProgress: (progress) => {
      if (progress.done < reported + 100) return;
      reported = progress.done;
      console.error(`pages ${reported}`);
    },
    onBulkPages: (report, astro, usage) => {
      bulk = report;
      astroSeconds = astro;
      astroUsage = usage;
    },
  });
  clearInterval(heapSampler);
  if (bulk === undefined) throw new Error('buildSite reported no bulk pages');
  // ru_maxrss, in kilobytes on Linux: the peak of this whole process.
  const usage = process.resourceUsage();
  const result: ChildResult = {
    maxRssKb: usage.maxRSS,
    cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
    bulk: { ...bulk, writers: bulkWriters() },
    astroSeconds,
    mainHeapPeak,
    astroUsage,
  };
  console.log(JSON.stringify(result));
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(args[1] as string, args[2] as string);
} else {
  const bench = startBench('build');
  const rebuild = args.includes('--rebuild');
  const names = args.filter((arg) => arg !== '--rebuild' && arg !== '--direct');
  for (const name of names.length > 0 ? names : ['bundled', '100k', '1m']) await benchScenario(bench, name, rebuild);
}
