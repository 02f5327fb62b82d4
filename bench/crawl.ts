/**
 * How fast and how frugal `tmsnap crawl` is: requests made against the minimum, records per
 * second and peak memory, crawling a local reference server (a separate process, so its
 * memory and CPU are not counted as the crawler's; its own peak RSS is printed beside).
 *
 *   npm run bench:crawl                                  # bundled data, then the 1m scenario
 *   npm run bench:crawl -- --scenario 1m                 # bench/scenarios.ts: bundled, 100k, 1m, 10m
 *   npm run bench:crawl -- --scenario 1m --fresh         # the earlier 1m crawl moved aside, crawled again
 *   npm run bench:crawl -- --data synthetic:projects=3,units=100000
 *   npm run bench:crawl -- --data bundled,all-languages   # with the 652 languages a real server lists
 *   npm run bench:crawl -- --data bundled --limits real   # 5.4's own limits (5000 an hour with the token)
 *   npm run bench:crawl -- --data bundled --project django --anonymous --limits real   # 100 a day
 *   npm run bench:crawl -- --data synthetic:… --max-requests 5000   # nights of 5000 until the archive is whole
 *   npm run bench:crawl -- --data synthetic:… --edited 10   # then a night after 1% of the strings were edited
 *   npm run bench:crawl -- --scenario 10m --edited 10 --merged-only   # that night only as tmsnap crawls it
 *   npm run bench:crawl -- --scenario 10m --max-requests 20000 --nights 1   # one night; the next run goes on
 *
 * A `--scenario` crawl is kept in bench/results/<scenario>/crawl-content/ and is resumable: the
 * server listens on a fixed port (`--port`), so a stopped run's `.partial` snapshot is
 * continued by the next (the figures then cover that sitting), and a finished one is reported
 * again instead of crawled. With `--max-requests`, one whose history is not all in goes on with
 * its nights (`--nights N` stops a run after N); each night's figures are kept in
 * bench/results/<scenario>/nights.jsonl, so the figures cover the nights of every run.
 * `--minutes N` ends a sitting: no request starts after N minutes, the
 * crawl stops resumable and the sitting's figures are printed as for a finished one. `--fresh`
 * first moves a kept crawl (finished or not) and its figures aside, to `crawl-content-<time>/`
 * and `crawl-<time>.txt`, so the scenario is crawled again from the start. It reports numbers
 * and asserts none.
 */
import { once } from 'node:events';
import { appendFile, cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { freemem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type CrawlProgress, crawl } from '../crawler/crawl.ts';
import { parseApiRoot } from '../crawler/links.ts';
import { ProgressReporter } from '../crawler/progress.ts';
import { listSnapshots } from '../snapshot/index.ts';
import { benchToken as token, startBenchServer as startServer } from './crawl-options.ts';
import { type Bench, figureOf, loadText, startBench } from './harness.ts';
import { scenarioNamed, scenarioResults } from './scenarios.ts';

const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`;

/** A process's peak resident set (VmHWM) from /proc, in bytes; 0 where it cannot be read. */
async function peakRssOf(pid: number | undefined): Promise<number> {
  const status = pid === undefined ? '' : await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

interface Scenario {
  concurrency: number;
  projects: string[];
  /** No token: an anonymous client. */
  anonymous: boolean;
  /** `raised` (out of the way) or `real` (5.4's: 100 a day anonymous, 5000 an hour with a token). */
  limits: 'raised' | 'real';
  /** A named scenario's crawl is kept (and resumed) in bench/results/<scenario>/; others go to a temporary folder. */
  keep: string | undefined;
  port: number;
  /** Epoch milliseconds after which no request starts (`--minutes`): the sitting ends, resumable. */
  deadline: number | undefined;
  /** Move a kept crawl of the scenario aside first (`--fresh`). */
  fresh: boolean;
  /**
   * `--max-requests N`: nights of at most N requests each, run one after another until the
   * archive is whole (issue 27, tonight first); the figures cover them all, each night's printed.
   */
  maxRequests: number | undefined;
  /**
   * `--edited N`: after the crawl, the server restarts on the same port with the synthetic spec's
   * `edited=N` (per mille of the strings edited since), and one incremental night is crawled twice
   * from the same snapshot: merged from the changed units, and per touched translation (issue 27).
   */
  edited: number | undefined;
  /** `--merged-only`: that night crawled once, merged; the per-translation comparison is skipped (10M: hours). */
  mergedOnly: boolean;
  /** `--nights N`: stop after N nights of this run; a kept scenario goes on with its nights next time. */
  nights: number | undefined;
}

/** What each night of a `--max-requests` run made, and when the site was complete and current. */
interface Night {
  made: number;
  /** Wall time of the night, in seconds. */
  seconds: number;
  currentMade: number | undefined;
  outcome: string;
  remaining: number | undefined;
}

/** What a night made: its requests, outcome, when the site's part was in and what it left. */
function nightText({ made, seconds, outcome, currentMade, remaining }: Night): string {
  return `${made} requests in ${seconds.toFixed(0)} s, ${outcome}${currentMade === undefined ? '' : `, the site's part in after ${currentMade}`}${remaining === undefined ? '' : `, at least ${remaining} left`}`;
}

/** Moves a kept crawl and its figures aside, named by the time, so the next crawl starts afresh. */
async function moveAside(content: string, figures: readonly string[]): Promise<void> {
  const stamp = new Date().toISOString().replace(/[-:]|\.\d+/g, '');
  const moved = await rename(content, `${content}-${stamp}`).then(
    () => true,
    () => false,
  );
  for (const file of figures) await rename(file, file.replace(/(\.\w+)$/, `-${stamp}$1`)).catch(() => undefined);
  if (moved) console.log(`--fresh: the earlier crawl is now ${content}-${stamp}`);
}

async function scenario(
  bench: Bench,
  data: string,
  { concurrency, projects, anonymous, limits, keep, port, deadline, fresh, maxRequests, edited, mergedOnly, nights: nightsThisRun }: Scenario,
): Promise<void> {
  const content = keep === undefined ? await mkdtemp(join(tmpdir(), 'tmsnap-bench-crawl-')) : scenarioResults(keep).crawlContent;
  const figures = keep === undefined ? undefined : join(scenarioResults(keep).dir, 'crawl.txt');
  // Each night's figures as it ends, so a kept scenario's nights can span runs (`--nights`).
  const nightsFile = keep === undefined ? undefined : join(scenarioResults(keep).dir, 'nights.jsonl');
  if (fresh && figures !== undefined && nightsFile !== undefined) await moveAside(content, [figures, nightsFile]);
  const newest = (await listSnapshots(content).catch(() => [])).find((snapshot) => snapshot.complete);
  // A kept crawl whose history is not all in goes on with its nights; a whole one is only reported.
  const goOn = maxRequests !== undefined && newest?.manifest?.parts !== undefined;
  if (figures !== undefined && newest !== undefined && !goOn) {
    console.log(`\n${keep}: the crawl in ${content} is finished; its figures:\n${await readFile(figures, 'utf8').catch(() => '(none recorded)')}`);
    return;
  }
  await mkdir(content, { recursive: true });
  const nightsBefore: Night[] =
    goOn && nightsFile !== undefined
      ? (await readFile(nightsFile, 'utf8').catch(() => ''))
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Night)
      : [];
  if (nightsFile !== undefined && !goOn) await writeFile(nightsFile, '');
  const loadBefore = bench.load();
  const { url, child } = await startServer(data, limits, port);
  const lines: string[] = [];
  const print = (line: string) => {
    lines.push(line);
    console.log(line);
  };
  try {
    const rssBefore = process.memoryUsage().rss;
    const reporter = new ProgressReporter('lines', (text) => process.stderr.write(text));
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    let last: CrawlProgress | undefined;
    const nights: Night[] = [...nightsBefore];
    let madeBefore = 0;
    let nightStarted = performance.now();
    const night = () =>
      crawl({
        apiRoot: parseApiRoot(url),
        contentDir: content,
        projects,
        token: anonymous ? undefined : token,
        concurrency,
        // Real limits: wait out nothing longer than a minute; a longer wait stops with an estimate.
        maxWaitMs: 60_000,
        timeoutMs: 120_000,
        retries: 5,
        deadline,
        maxRequests,
        // A resumed night's `made` counts the runs before it too.
        onStart: (start) => {
          madeBefore = start.made;
          nightStarted = performance.now();
        },
        tmsnapVersion: 'bench',
        userAgent: 'tmsnap-bench',
        // Long runs say how far they are, on stderr so the figures on stdout stay clean.
        onProgress: (progress) => {
          last = progress;
          reporter.update(progress);
        },
      });
    let result = await night();
    // Nights until the history is all in; a night that stopped before the current state resumes.
    for (;;) {
      const ended: Night = {
        made: result.made - madeBefore,
        seconds: (performance.now() - nightStarted) / 1000,
        currentMade: result.currentMade,
        outcome: result.outcome,
        remaining: result.parts?.remaining,
      };
      nights.push(ended);
      // Each night's figures as it ends: a run stopped in a later night (10M: hours) keeps them.
      if (maxRequests !== undefined) {
        console.log(`night ${nights.length} ended: ${nightText(ended)}; load ${loadText(bench.load())}`);
        if (nightsFile !== undefined && result.outcome !== 'failed') await appendFile(nightsFile, `${JSON.stringify(ended)}\n`);
      }
      if (maxRequests === undefined || deadline !== undefined || (result.outcome !== 'failed' && result.parts === undefined) || nights.length >= 20) break;
      if (nightsThisRun !== undefined && nights.length - nightsBefore.length >= nightsThisRun) {
        console.log(`--nights ${nightsThisRun}: stopped with the history not all in; run again without --fresh to go on`);
        return;
      }
      result = await night();
    }
    // Nights run in earlier invocations (`--nights`) count with their own wall time.
    const seconds = maxRequests === undefined ? (performance.now() - started) / 1000 : nights.reduce((sum, each) => sum + each.seconds, 0);
    const cpu = process.cpuUsage(cpuStart);
    // The process's own high-water mark (getrusage), so no short peak is missed; with several
    // scenarios in one run it is the highest so far.
    const peakRss = process.resourceUsage().maxRSS * 1024;
    // A stopped sitting has no counts: its records are what the progress last said.
    const records = Object.values(result.counts).reduce((sum, n) => sum + n, 0) || (last?.records ?? 0);
    print(
      `\n--data ${data}${projects.map((slug) => ` --project ${slug}`).join('')} (${anonymous ? 'anonymous' : 'token'}, ${limits} limits, concurrency ${concurrency})`,
    );
    print(`  outcome            ${result.outcome}${result.message ? `: ${result.message}` : ''}`);
    print(
      `  input              ${Object.entries(result.counts)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(', ')}`,
    );
    if (result.outcome === 'failed' && last !== undefined) print(`  stopped in         phase ${last.phase}, ${last.pending} requests queued`);
    if (maxRequests !== undefined) {
      print(`  --max-requests     ${maxRequests} a night, ${nights.length} nights`);
      for (const [index, each] of nights.entries()) print(`  night ${index + 1}            ${nightText(each)}`);
    }
    print(`  requests           made ${result.made}, minimum ${result.minimum}`);
    // Tonight first (issue 27): what the site, complete and current, cost of this sitting's requests.
    if (result.currentMade !== undefined) print(`  until the site     ${result.currentMade} requests: the current state all in (the rest is history)`);
    print(
      `  by kind            ${Object.entries(result.requestsByKind)
        .map(([kind, n]) => `${kind} ${n?.made}/${n?.minimum}`)
        .join(', ')}`,
    );
    if (result.skipped) print(`  skipped            ${result.skipped.map((entry) => `${entry.urls.length} ${entry.kind}`).join(', ')}`);
    if (result.access.length > 0) print(`  not readable       ${result.access.map((entry) => `${entry.kind} (${entry.status})`).join(', ')}`);
    print(`  wall time          ${seconds.toFixed(1)} s (crawler CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; the server runs in its own process)`);
    print(`  records/s          ${(records / seconds).toFixed(0)} (${records} records: units, changes and every other record)`);
    print(`  peak RSS (crawler) ${(peakRss / 2 ** 20).toFixed(0)} MiB (${(rssBefore / 2 ** 20).toFixed(0)} MiB before the crawl)`);
    const serverRss = await peakRssOf(child.pid);
    print(`  peak RSS (server)  ${(serverRss / 2 ** 20).toFixed(0)} MiB`);
    print(`  load average       ${loadText(loadBefore)} before, ${loadText(bench.load())} after${keep === undefined ? '' : `; snapshot kept in ${content}`}`);
    if (figures !== undefined) await writeFile(figures, `${lines.join('\n')}\n`);
    const options = `${projects.map((slug) => ` --project ${slug}`).join('')}${anonymous ? ' --anonymous' : ''}${limits === 'real' ? ' --limits real' : ''}${concurrency === 4 ? '' : ` --concurrency ${concurrency}`}${maxRequests === undefined ? '' : ` --max-requests ${maxRequests}`}`;
    await bench.record({
      input: {
        size: `${keep ?? data}${options}`,
        about: `--data ${data}${options}: ${records} records; outcome ${result.outcome}${deadline === undefined ? '' : ', a sitting ended by --minutes'}${
          nightsBefore.length === 0
            ? ''
            : `; nights 1–${nightsBefore.length} ran before (their requests and wall time counted; peak RSS and load are this run's)`
        }`,
      },
      loadStart: loadBefore,
      figures: [
        figureOf('wall time', 's', seconds),
        // Of this run only: not recorded when nights ran before it.
        figureOf('crawler CPU', 's', nightsBefore.length === 0 ? (cpu.user + cpu.system) / 1e6 : Number.NaN),
        figureOf('requests made', 'requests', maxRequests === undefined ? result.made : nights.reduce((sum, each) => sum + each.made, 0)),
        figureOf('requests, minimum', 'requests', nightsBefore.length === 0 ? result.minimum : Number.NaN),
        figureOf('requests until the site is complete and current', 'requests', nights[0]?.currentMade ?? Number.NaN),
        ...(maxRequests === undefined
          ? []
          : [figureOf('nights', 'nights', nights.length), figureOf('largest night', 'requests', Math.max(...nights.map((each) => each.made)))]),
        figureOf('records', 'records/s', records / seconds),
        figureOf('peak RSS (crawler)', 'MiB', peakRss / 2 ** 20),
        figureOf('peak RSS (server)', 'MiB', serverRss > 0 ? serverRss / 2 ** 20 : Number.NaN),
      ],
    });
    if (edited !== undefined && result.outcome !== 'failed') {
      child.kill();
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
      await nightAfterEdits(bench, { data, edited, mergedOnly, content, limits, port, projects, concurrency, token: anonymous ? undefined : token, keep });
    }
  } finally {
    child.kill();
    if (keep === undefined) await rm(content, { recursive: true, force: true });
  }
}

/**
 * The same night after edits crawled twice from one snapshot (copied first): merged from one list
 * of the changed units (crawler/tasks/changed-units.ts), then per touched translation as before.
 * The synthetic server never commits, so both read the same state.
 */
async function nightAfterEdits(
  bench: Bench,
  options: {
    data: string;
    edited: number;
    mergedOnly: boolean;
    content: string;
    limits: 'raised' | 'real';
    port: number;
    projects: string[];
    concurrency: number;
    token: string | undefined;
    keep: string | undefined;
  },
): Promise<void> {
  const { data, edited, mergedOnly, content, limits, port, projects, concurrency, keep } = options;
  const perTranslation = `${content}-per-translation`;
  await rm(perTranslation, { recursive: true, force: true });
  if (!mergedOnly) await cp(content, perTranslation, { recursive: true });
  const editedData = `${data},edited=${edited}`;
  const { url, child } = await startServer(editedData, limits, port);
  const night = async (contentDir: string, merged: boolean) => {
    const reporter = new ProgressReporter('lines', (text) => process.stderr.write(text));
    const loadBefore = bench.load();
    const started = performance.now();
    const result = await crawl({
      apiRoot: parseApiRoot(url),
      contentDir,
      projects,
      token: options.token,
      concurrency,
      maxWaitMs: 60_000,
      timeoutMs: 120_000,
      retries: 5,
      tmsnapVersion: 'bench',
      userAgent: 'tmsnap-bench',
      changedUnitsList: merged,
      onProgress: (progress) => reporter.update(progress),
    });
    return { result, seconds: (performance.now() - started) / 1000, loadBefore };
  };
  try {
    const merged = await night(content, true);
    const before = mergedOnly ? undefined : await night(perTranslation, false);
    const byKind = (result: typeof merged.result) =>
      Object.entries(result.requestsByKind)
        .map(([kind, n]) => `${kind} ${n?.made}`)
        .join(', ');
    console.log(`
a night after edits: --data ${editedData} (edited per mille of the strings), incremental on the snapshot above`);
    for (const [name, night] of [['changed list', merged], ...(before === undefined ? [] : [['per translation', before] as const])] as const) {
      console.log(
        `  ${name.padEnd(17)}  ${night.result.made} requests (${byKind(night.result)}), the site current after ${night.result.currentMade}, ${night.result.outcome}, ${night.seconds.toFixed(1)} s; load ${loadText(night.loadBefore)} before`,
      );
    }
    await bench.record({
      input: {
        size: `${keep ?? data} --edited ${edited}`,
        about: `--data ${editedData}: the night after, incremental on a complete crawl of --data ${data}; ${merged.result.outcome}/${before?.result.outcome ?? 'not crawled (--merged-only)'}`,
      },
      loadStart: merged.loadBefore,
      figures: [
        figureOf('requests of the night, changed list', 'requests', merged.result.made),
        figureOf('requests of the night, per translation', 'requests', before?.result.made ?? Number.NaN),
        figureOf('requests until the site is current, changed list', 'requests', merged.result.currentMade ?? Number.NaN),
        figureOf('requests until the site is current, per translation', 'requests', before?.result.currentMade ?? Number.NaN),
        figureOf('units requests, changed list', 'requests', merged.result.requestsByKind.units?.made ?? 0),
        figureOf('units requests, per translation', 'requests', before === undefined ? Number.NaN : (before.result.requestsByKind.units?.made ?? 0)),
        figureOf('wall time, changed list', 's', merged.seconds),
        figureOf('wall time, per translation', 's', before?.seconds ?? Number.NaN),
      ],
    });
  } finally {
    child.kill();
    await rm(perTranslation, { recursive: true, force: true });
  }
}

const { values } = parseArgs({
  options: {
    data: { type: 'string', multiple: true },
    scenario: { type: 'string', multiple: true },
    port: { type: 'string', default: '18714' },
    concurrency: { type: 'string', default: '4' },
    project: { type: 'string', multiple: true },
    anonymous: { type: 'boolean', default: false },
    limits: { type: 'string', default: 'raised' },
    minutes: { type: 'string' },
    fresh: { type: 'boolean', default: false },
    'max-requests': { type: 'string' },
    edited: { type: 'string' },
    'merged-only': { type: 'boolean', default: false },
    nights: { type: 'string' },
  },
});
if (values.limits !== 'raised' && values.limits !== 'real') throw new Error(`--limits ${values.limits}: use raised or real`);
const named = (values.scenario ?? []).map((name) => scenarioNamed(name));
const runs: { data: string; keep: string | undefined }[] = [
  ...named.map((entry) => ({ data: entry.data, keep: entry.name })),
  ...(values.data ?? []).map((data) => ({ data, keep: undefined })),
];
if (runs.length === 0) runs.push({ data: 'bundled', keep: undefined }, { data: scenarioNamed('1m').data, keep: '1m' });
const bench = startBench('crawl');
console.log(`free memory: ${gib(freemem())}`);
for (const { data, keep } of runs) {
  await scenario(bench, data, {
    concurrency: Number(values.concurrency),
    projects: values.project ?? [],
    anonymous: values.anonymous,
    limits: values.limits,
    keep,
    port: Number(values.port),
    deadline: values.minutes === undefined ? undefined : Date.now() + Number(values.minutes) * 60_000,
    fresh: values.fresh,
    maxRequests: values['max-requests'] === undefined ? undefined : Number(values['max-requests']),
    edited: values.edited === undefined ? undefined : Number(values.edited),
    mergedOnly: values['merged-only'],
    nights: values.nights === undefined ? undefined : Number(values.nights),
  });
}
