/**
 * How fast and how frugal `tmsnap crawl` is: requests made against the minimum, records per
 * second and peak memory, crawling a local reference server (a separate process, so its
 * memory and CPU are not counted as the crawler's).
 *
 *   npm run bench:crawl                                  # bundled data, then a 1M-unit instance
 *   npm run bench:crawl -- --data synthetic:projects=3,units=100000
 *   npm run bench:crawl -- --data bundled,all-languages   # with the 652 languages a real server lists
 *   npm run bench:crawl -- --data bundled --limits real   # 5.4's own limits (5000 an hour with the token)
 *   npm run bench:crawl -- --data bundled --project django --anonymous --limits real   # 100 a day
 *
 * It reports numbers and asserts none.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, freemem, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { crawl } from '../crawler/crawl.ts';
import { parseApiRoot } from '../crawler/links.ts';
import { ProgressReporter } from '../crawler/progress.ts';

const bin = new URL('../bin/tmsnap.js', import.meta.url).pathname;
const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`;

/** The key the bench's server accepts; the crawl sends it as `tmsnap crawl` sends WEBLATE_TOKEN. */
const token = 'wlu_bench_crawl';

/**
 * The reference server on its default profile (a real Weblate 5.4) in its own process, reading
 * `token`. `raised` limits are out of the way, so the figures measure the crawl, not the
 * throttle; `real` keeps 5.4's own (100 a day anonymous, 5000 an hour with a token).
 */
async function startServer(data: string, limits: 'raised' | 'real'): Promise<{ url: string; child: ChildProcess }> {
  const rateLimit = limits === 'raised' ? ['--rate-limit', 'anonymous=1000000,authenticated=1000000,window=3600'] : [];
  const child = spawn(process.execPath, [bin, 'reference-server', '--data', data, '--token', token, ...rateLimit], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    const url = /https?:\/\/\S+\/api\//.exec(line)?.[0];
    if (url !== undefined) return { url, child };
  }
  throw new Error(`the reference server (--data ${data}) exited before printing its URL`);
}

interface Scenario {
  concurrency: number;
  projects: string[];
  /** No token: an anonymous client. */
  anonymous: boolean;
  /** `raised` (out of the way) or `real` (5.4's: 100 a day anonymous, 5000 an hour with a token). */
  limits: 'raised' | 'real';
}

async function scenario(data: string, { concurrency, projects, anonymous, limits }: Scenario): Promise<void> {
  const { url, child } = await startServer(data, limits);
  const content = await mkdtemp(join(tmpdir(), 'tmsnap-bench-crawl-'));
  try {
    const rssBefore = process.memoryUsage().rss;
    const reporter = new ProgressReporter('lines', (text) => process.stderr.write(text));
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    const result = await crawl({
      apiRoot: parseApiRoot(url),
      contentDir: content,
      projects,
      token: anonymous ? undefined : token,
      concurrency,
      // Real limits: wait out nothing longer than a minute; a longer wait stops with an estimate.
      maxWaitMs: 60_000,
      timeoutMs: 120_000,
      retries: 5,
      tmsnapVersion: 'bench',
      userAgent: 'tmsnap-bench',
      // Long runs say how far they are, on stderr so the figures on stdout stay clean.
      onProgress: (progress) => reporter.update(progress),
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    // The process's own high-water mark (getrusage), so no short peak is missed; with several
    // scenarios in one run it is the highest so far.
    const peakRss = process.resourceUsage().maxRSS * 1024;
    const records = Object.values(result.counts).reduce((sum, n) => sum + n, 0);
    console.log(
      `\n--data ${data}${projects.map((slug) => ` --project ${slug}`).join('')} (${anonymous ? 'anonymous' : 'token'}, ${limits} limits, concurrency ${concurrency})`,
    );
    console.log(`  outcome            ${result.outcome}${result.message ? `: ${result.message}` : ''}`);
    console.log(
      `  input              ${Object.entries(result.counts)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(', ')}`,
    );
    console.log(`  requests           made ${result.made}, minimum ${result.minimum}`);
    console.log(
      `  by kind            ${Object.entries(result.requestsByKind)
        .map(([kind, n]) => `${kind} ${n?.made}/${n?.minimum}`)
        .join(', ')}`,
    );
    if (result.skipped) console.log(`  skipped            ${result.skipped.map((entry) => `${entry.urls.length} ${entry.kind}`).join(', ')}`);
    if (result.access.length > 0) console.log(`  not readable       ${result.access.map((entry) => `${entry.kind} (${entry.status})`).join(', ')}`);
    console.log(
      `  wall time          ${seconds.toFixed(1)} s (crawler CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; the server runs in its own process)`,
    );
    console.log(`  records/s          ${(records / seconds).toFixed(0)} (${records} records: units, changes and every other record)`);
    console.log(`  peak RSS (crawler) ${(peakRss / 2 ** 20).toFixed(0)} MiB (${(rssBefore / 2 ** 20).toFixed(0)} MiB before the crawl)`);
  } finally {
    child.kill();
    await rm(content, { recursive: true, force: true });
  }
}

const { values } = parseArgs({
  options: {
    data: { type: 'string', multiple: true },
    concurrency: { type: 'string', default: '4' },
    project: { type: 'string', multiple: true },
    anonymous: { type: 'boolean', default: false },
    limits: { type: 'string', default: 'raised' },
  },
});
if (values.limits !== 'raised' && values.limits !== 'real') throw new Error(`--limits ${values.limits}: use raised or real`);
const scenarios = values.data ?? ['bundled', 'synthetic:projects=10,components=10,languages=9,units=1000000'];
const cpu = cpus();
console.log(`machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${gib(totalmem())} memory (${gib(freemem())} free), node ${process.version}`);
for (const data of scenarios) {
  await scenario(data, { concurrency: Number(values.concurrency), projects: values.project ?? [], anonymous: values.anonymous, limits: values.limits });
}
