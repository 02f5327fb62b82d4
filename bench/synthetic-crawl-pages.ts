/**
 * CPU a crawl spends per page of a large synthetic instance, the reference server's and the
 * crawler's apart, step by step, without crawling the whole instance (issue 14's 10M crawl
 * takes most of an hour): the first N `/api/units/` pages in order, M changes pages and K
 * translation files go through the crawler's own client, units strategy and snapshot writer
 * as a crawl sends them, one at a time; then the writer's `finish` (which stores the change
 * chunks). The server runs in its own process and its CPU is read from /proc around each
 * request. CPU is the process's (`process.cpuUsage`): with a core free, GC and I/O threads add to
 * the main thread's, so figures on an idle machine can exceed those under load. Prints what it measured, the machine, the load and the input size, and the counts
 * of pages of the whole instance with what they come to at these rates; asserts nothing.
 *
 *   npm run bench:crawl-pages -- [--scenario 10m] [--unit-pages 6] [--change-pages 20] [--files 40]
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HttpClient } from '../crawler/http/client.ts';
import { parseApiRoot } from '../crawler/links.ts';
import { openCrawlState } from '../crawler/queue/state.ts';
import { UnitSpool } from '../crawler/queue/unit-spool.ts';
import { CrawlScope } from '../crawler/scope.ts';
import { TaskContext } from '../crawler/tasks/context.ts';
import { UnitsStrategy } from '../crawler/units.ts';
import { openSnapshotWriter } from '../snapshot/index.ts';
import { benchToken, startBenchServer } from './crawl-options.ts';
import { figureOf, loadText, startBench } from './harness.ts';
import { scenarioData } from './scenarios.ts';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: '10m' },
    'unit-pages': { type: 'string', default: '6' },
    'change-pages': { type: 'string', default: '20' },
    files: { type: 'string', default: '40' },
    port: { type: 'string', default: '18732' },
  },
});
const data = scenarioData(values.scenario);
const counts = { units: Number(values['unit-pages']), changes: Number(values['change-pages']), files: Number(values.files) };
const bench = startBench('crawl-pages');

/** A process's user + system CPU seconds from /proc (clock ticks of 10 ms). */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
const ownCpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

/** CPU seconds per step, summed over the pages of one kind. */
class Steps {
  readonly #seconds = new Map<string, number>();
  readonly pages: number;

  constructor(pages: number) {
    this.pages = pages;
  }
  add(step: string, seconds: number): void {
    this.#seconds.set(step, (this.#seconds.get(step) ?? 0) + seconds);
  }
  async time<T>(step: string, run: () => T | Promise<T>): Promise<T> {
    const start = ownCpu();
    const result = await run();
    this.add(step, ownCpu() - start);
    return result;
  }
  print(kind: string): number {
    let crawler = 0;
    for (const [step, seconds] of this.#seconds) {
      if (!step.startsWith('server')) crawler += seconds;
      console.log(`  ${kind.padEnd(13)} ${step.padEnd(34)} ${(seconds / this.pages).toFixed(3).padStart(7)} s CPU a page`);
    }
    console.log(`  ${kind.padEnd(13)} ${'crawler, all steps'.padEnd(34)} ${(crawler / this.pages).toFixed(3).padStart(7)} s CPU a page`);
    return crawler / this.pages;
  }
  server(): number {
    return (this.#seconds.get('server (its own process)') ?? 0) / this.pages;
  }
}

const content = await mkdtemp(join(tmpdir(), 'tmsnap-bench-pages-'));
const { url, child } = await startBenchServer(data, 'raised', Number(values.port));
const serverPid = child.pid as number;
const serverCpu = () => cpuOf(serverPid);
try {
  const apiRoot = parseApiRoot(url);
  const writer = await openSnapshotWriter(content, { baseUrl: url, scope: {}, tmsnapVersion: 'bench', resume: false });
  const state = openCrawlState(join(content, 'journal.ndjson'), new Date().toISOString(), apiRoot);
  const spool = new UnitSpool(join(content, 'spool'));
  const units = new UnitsStrategy(apiRoot, state.queue, state.translations, spool);
  const client = new HttpClient({ apiRoot, token: benchToken, userAgent: 'tmsnap-bench', concurrency: 1, timeoutMs: 600_000, retries: 0, maxWaitMs: 0 });
  const context = new TaskContext(apiRoot, undefined, new CrawlScope([], undefined), writer, state, spool, client, units);
  const page = async (path: string) => (await client.getJson(new URL(path, apiRoot).href)).body as { count: number; next: string | null; results: unknown[] };

  // The translations' totals, which decide what a units page writes; not timed.
  let translations = 0;
  for (let number = 1; ; number++) {
    const list = await page(`translations/?page_size=1000&page=${number}`);
    for (const record of list.results as { url: string; total: number }[]) state.translations.setTotal(record.url, record.total);
    translations = list.count;
    if (list.next === null) break;
  }
  const unitTotal = (await page('units/?page_size=1')).count;
  console.log(`input: --data ${data}: ${translations} translations, ${unitTotal} units`);

  const unitSteps = new Steps(counts.units);
  const touched = new Set<string>();
  let written = 0;
  const task = { url: new URL('units/', apiRoot).href, type: 'units' as const, phase: 2 };
  for (let number = 1; number <= counts.units; number++) {
    const path = `units/?page_size=10000&page=${number}`;
    const before = serverCpu();
    const items = (await unitSteps.time('receive and parse', () => page(path))).results;
    unitSteps.add('server (its own process)', serverCpu() - before);
    for (const unit of items) touched.add((unit as { translation: string }).translation);
    await unitSteps.time('follow links', () => context.follow(items));
    const { whole } = await unitSteps.time('takePage (spool the cut ones)', () =>
      units.takePage({ ...task, page: number > 1 }, items, (translation) => writer.has(`${translation}units/`)),
    );
    await unitSteps.time('writer.putUnits', async () => {
      for (const [translation, list] of whole) await writer.putUnits(translation, list);
    });
    written += whole.size;
  }
  const spooled = [...touched].filter((translation) => !writer.has(`${translation}units/`));
  console.log(
    `\n${counts.units} units pages (10,000 a page, in order): ${written} translations written from the pages, ${spooled.length} left in the spool (cut by the last page fetched)`,
  );
  const unitCrawler = unitSteps.print('units page');
  const unitServer = unitSteps.server();

  const changeSteps = new Steps(counts.changes);
  let changeTotal = 0;
  for (let number = 1; number <= counts.changes; number++) {
    const before = serverCpu();
    const list = await changeSteps.time('receive and parse', () => page(`changes/?page_size=1000&page=${number}`));
    changeSteps.add('server (its own process)', serverCpu() - before);
    changeTotal = list.count;
    await changeSteps.time('writer.putChanges', () => writer.putChanges(list.results));
    await changeSteps.time('follow links', () => context.follow(list.results));
  }
  console.log(`\n${counts.changes} changes pages (1,000 a page) of ${changeTotal} changes`);
  const changeCrawler = changeSteps.print('changes page');
  const changeServer = changeSteps.server();

  const fileSteps = new Steps(counts.files);
  for (const translation of [...touched].slice(0, counts.files)) {
    const before = serverCpu();
    const fetched = await fileSteps.time('receive', () => client.getBytes(`${translation}file/`));
    fileSteps.add('server (its own process)', serverCpu() - before);
    await fileSteps.time('writer.putFile', () => writer.putFile(translation, fetched.body, fetched.contentType));
  }
  console.log(`\n${counts.files} translation files`);
  const fileCrawler = fileSteps.print('file');
  const fileServer = fileSteps.server();

  const finishStart = ownCpu();
  await writer.finish({ requests: { made: 0, minimum: 0, by_kind: {} }, problems: [], access: [], skipped: [], complete: true });
  const finish = ownCpu() - finishStart;
  const chunks = Math.ceil((counts.changes * 1000) / 250);
  console.log(`\nwriter.finish: ${finish.toFixed(2)} s CPU, about ${chunks} change chunks of 250: ${((finish / chunks) * 1000).toFixed(1)} ms a chunk`);

  const unitPages = Math.ceil(unitTotal / 10_000);
  const changePages = Math.ceil(changeTotal / 1000);
  const crawlerAll = unitPages * unitCrawler + changePages * changeCrawler + translations * fileCrawler + (finish / chunks) * Math.ceil(changeTotal / 250);
  const serverAll = unitPages * unitServer + changePages * changeServer + translations * fileServer;
  console.log(`\nthe whole instance at these rates (the structure phase's records, lists and statistics not counted):`);
  console.log(`  ${unitPages} units pages, ${changePages} changes pages, ${translations} files, ${Math.ceil(changeTotal / 250)} change chunks at the end`);
  console.log(
    `  crawler ${crawlerAll.toFixed(0)} s CPU (its process: the main thread with GC and I/O threads), server ${serverAll.toFixed(0)} s CPU (its own process)`,
  );
  console.log(`load average at end: ${loadText(bench.load())}`);
  await bench.record({
    input: {
      size: values.scenario,
      about: `--data ${data}: ${translations} translations, ${unitTotal} units, ${changeTotal} changes; ${counts.units} units pages, ${counts.changes} changes pages, ${counts.files} files measured`,
    },
    figures: [
      figureOf('units page, crawler CPU', 's', unitCrawler),
      figureOf('units page, server CPU', 's', unitServer),
      figureOf('changes page, crawler CPU', 's', changeCrawler),
      figureOf('changes page, server CPU', 's', changeServer),
      figureOf('file, crawler CPU', 's', fileCrawler),
      figureOf('file, server CPU', 's', fileServer),
      figureOf('change chunk at the end, crawler CPU', 'ms', (finish / chunks) * 1000),
      figureOf('whole instance at these rates, crawler CPU', 's', crawlerAll),
      figureOf('whole instance at these rates, server CPU', 's', serverAll),
    ],
  });
} finally {
  child.kill();
  await rm(content, { recursive: true, force: true });
}
