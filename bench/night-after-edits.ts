/**
 * The night after edits, before and after a change, in one run (issue 36): the same incremental
 * crawl on two copies of one kept complete crawl (`bench:crawl --scenario NAME`), against the
 * reference server restarted with the synthetic spec's `edited=N`, once with the code of another
 * checkout (`--before DIR`, e.g. `git archive main | tar -x -C DIR`) and once with this one's.
 * Prints each night's requests by kind, wall and CPU time, the seconds until the first history
 * request (the site current), and whether both snapshots hold the same objects (their index).
 *
 *   npm run bench:night-after-edits -- --scenario 1m --edited 10 --before /tmp/main-checkout
 *   npm run bench:night-after-edits -- --scenario 100k --edited 10 --only after   # one night (profiling)
 *
 * The server listens on the port of the kept crawl (a crawl of another URL would not be incremental).
 *
 * The copies go to `--work DIR` (default a temporary folder) and are removed at the end. It
 * reports numbers and asserts none.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CrawlOptions, CrawlResult } from '../crawler/crawl.ts';
import { parseApiRoot } from '../crawler/links.ts';
import { isHistory } from '../crawler/plan.ts';
import { listSnapshots } from '../snapshot/index.ts';
import { benchToken, startBenchServer } from './crawl-options.ts';
import { figureOf, loadText, startBench } from './harness.ts';
import { scenarioNamed, scenarioResults } from './scenarios.ts';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: '100k' },
    edited: { type: 'string', default: '10' },
    before: { type: 'string' },
    only: { type: 'string' },
    port: { type: 'string' },
    work: { type: 'string' },
  },
});
const scenario = scenarioNamed(values.scenario);
const base = scenarioResults(scenario.name).crawlContent;
const kept = (await listSnapshots(base).catch(() => [])).find((snapshot) => snapshot.complete);
if (kept === undefined) throw new Error(`${base} holds no complete crawl: run \`npm run bench:crawl -- --scenario ${scenario.name}\` first`);
// A crawl is incremental only on a snapshot of the same server URL (crawler/incremental.ts
// `previousSnapshot`): the server listens on the kept crawl's port, or the night is a full crawl.
const keptPort = new URL(kept.manifest?.server.base_url ?? 'http://127.0.0.1/').port;
if (values.port !== undefined && values.port !== keptPort)
  throw new Error(`--port ${values.port}: the crawl kept in ${base} is of port ${keptPort}; leave --port out (a night on another port would be a full crawl)`);
const codes: { name: string; dir: string }[] = [];
if (values.only !== 'after') {
  if (values.before === undefined) throw new Error('--before DIR: a checkout of the code to compare with (or --only after)');
  codes.push({ name: 'before', dir: resolve(values.before) });
}
if (values.only !== 'before') codes.push({ name: 'after', dir: resolve(import.meta.dirname, '..') });

const bench = startBench('night-after-edits');
const work = values.work ?? (await mkdtemp(join(tmpdir(), 'tmsnap-night-')));
const data = `${scenario.data},edited=${values.edited}`;
const { url, child } = await startBenchServer(data, 'raised', Number(keptPort));
console.log(`--data ${data}: the night after, incremental on a copy of ${base}`);

interface Night {
  name: string;
  result: CrawlResult;
  seconds: number;
  cpu: number;
  /** Seconds until the first history-phase task: the site complete and current. */
  current: number | undefined;
  /** The crawler's CPU seconds until then: a loaded machine stretches the wall time, less the CPU. */
  currentCpu: number | undefined;
  load: string;
  index: string | undefined;
}

try {
  const nights: Night[] = [];
  for (const code of codes) {
    const content = join(work, code.name);
    await rm(content, { recursive: true, force: true });
    await cp(base, content, { recursive: true });
    const { crawl } = (await import(join(code.dir, 'crawler/crawl.ts'))) as { crawl: (options: CrawlOptions) => Promise<CrawlResult> };
    const load = loadText(bench.load());
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    let current: number | undefined;
    let currentCpu: number | undefined;
    const result = await crawl({
      apiRoot: parseApiRoot(url),
      contentDir: content,
      projects: [],
      token: benchToken,
      concurrency: 4,
      maxWaitMs: 60_000,
      timeoutMs: 120_000,
      retries: 5,
      tmsnapVersion: 'bench',
      userAgent: 'tmsnap-bench',
      onProgress: (progress) => {
        if (current !== undefined || !isHistory(progress.phase)) return;
        current = (performance.now() - started) / 1000;
        const used = process.cpuUsage(cpuStart);
        currentCpu = (used.user + used.system) / 1e6;
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const cpuUsed = process.cpuUsage(cpuStart);
    const manifest = JSON.parse(await readFile(join(result.dir, 'manifest.json'), 'utf8').catch(() => '{}')) as { index?: string };
    nights.push({ name: code.name, result, seconds, cpu: (cpuUsed.user + cpuUsed.system) / 1e6, current, currentCpu, load, index: manifest.index });
    await rm(content, { recursive: true, force: true });
  }
  for (const night of nights) {
    const byKind = Object.entries(night.result.requestsByKind)
      .map(([kind, n]) => `${kind} ${n?.made}`)
      .join(', ');
    console.log(
      `  ${night.name.padEnd(7)} ${night.result.made} requests (${byKind}), ${night.result.outcome}; ${night.seconds.toFixed(1)} s wall, CPU ${night.cpu.toFixed(1)} s, the site current after ${night.current?.toFixed(1) ?? '?'} s (CPU ${night.currentCpu?.toFixed(1) ?? '?'} s, ${night.result.currentMade} requests); load ${night.load} before; index ${night.index}`,
    );
  }
  const [first, second] = nights;
  if (first !== undefined && second !== undefined) {
    const same = (a: Night, b: Night) => JSON.stringify(a.result.requestsByKind) === JSON.stringify(b.result.requestsByKind);
    console.log(`  same requests: ${same(first, second)}; same snapshot index (same objects, same export): ${first.index === second.index}`);
  }
  const of = (name: string) => nights.find((night) => night.name === name);
  await bench.record({
    input: {
      size: `${scenario.name} --edited ${values.edited}`,
      about: `--data ${data}: the night after, incremental on a complete crawl of --data ${scenario.data}; ${nights.map((night) => `${night.name} ${night.result.outcome}`).join(', ')}${
        nights.length === 2 ? `; same index: ${nights[0]?.index === nights[1]?.index}` : ''
      }`,
    },
    figures: [
      figureOf('wall time, before', 's', of('before')?.seconds ?? Number.NaN),
      figureOf('wall time, after', 's', of('after')?.seconds ?? Number.NaN),
      figureOf('crawler CPU, before', 's', of('before')?.cpu ?? Number.NaN),
      figureOf('crawler CPU, after', 's', of('after')?.cpu ?? Number.NaN),
      figureOf('until the first history request, before', 's', of('before')?.current ?? Number.NaN),
      figureOf('until the first history request, after', 's', of('after')?.current ?? Number.NaN),
      figureOf('CPU until the first history request, before', 's', of('before')?.currentCpu ?? Number.NaN),
      figureOf('CPU until the first history request, after', 's', of('after')?.currentCpu ?? Number.NaN),
      figureOf('requests, before', 'requests', of('before')?.result.made ?? Number.NaN),
      figureOf('requests, after', 'requests', of('after')?.result.made ?? Number.NaN),
    ],
  });
} finally {
  child.kill();
  if (values.work === undefined) await rm(work, { recursive: true, force: true });
}
