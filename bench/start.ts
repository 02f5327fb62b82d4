/**
 * How fast a command starts (issue 39): in one run, `node -e 0`, `tmsnap --help` and `tmsnap
 * snapshots` on the bundled demo's archive, each in a fresh process of this Node, interleaved
 * so that they share the machine's load; the medians and their ratios to `node -e 0`, checked
 * against the targets (`--help` at most 2×, `snapshots` at most 3×). One warm-up run of each
 * first fills Node's compile cache, as any earlier command would have (bin/tmsnap.js). Prints
 * what it measured and whether the targets hold; asserts nothing.
 *
 *   npm run bench:start                          # crawls the bundled data into a temporary archive
 *   npm run bench:start -- --content tmsnap-demo/content --runs 11
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { raisedRateLimit, startReferenceServer } from '@tmsnap/reference-server';
import { loadDataset } from '@tmsnap/reference-server/datasets';
import { figureOf, loadText, median, startBench } from './harness.ts';

const repo = resolve(import.meta.dirname, '..');
const tmsnap = join(repo, 'bin', 'tmsnap.js');
const targets = { help: 2, snapshots: 3 };

const { values } = parseArgs({ options: { content: { type: 'string' }, runs: { type: 'string', default: '7' } } });
const runs = Number(values.runs);

/** Wall-clock milliseconds of one fresh process; a failed command stops the bench. */
function timed(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

/** The bundled demo's archive: crawled from the reference server into a temporary folder, as `tmsnap demo` does. */
async function demoArchive(dir: string): Promise<string> {
  const token = `wlu_bench_${randomBytes(16).toString('hex')}`;
  const server = await startReferenceServer({
    model: await loadDataset('bundled'),
    host: '127.0.0.1',
    port: 0,
    behaviours: { tokens: [token], rateLimit: raisedRateLimit },
  });
  try {
    const content = join(dir, 'content');
    // Not a synchronous call: the server answers from this process's event loop.
    await promisify(execFile)(process.execPath, [tmsnap, 'crawl', '--url', server.url, '--content', content], {
      env: { ...process.env, WEBLATE_TOKEN: token },
      maxBuffer: 64 * 1024 * 1024,
    });
    return content;
  } finally {
    await server.close();
  }
}

const bench = startBench('start');
const scratch = values.content === undefined ? await mkdtemp(join(tmpdir(), 'tmsnap-bench-start-')) : undefined;
try {
  const content = values.content === undefined ? await demoArchive(scratch!) : resolve(values.content);
  const commands = {
    node: ['-e', '0'],
    help: [tmsnap, '--help'],
    snapshots: [tmsnap, 'snapshots', '--content', content],
  };
  for (const args of Object.values(commands)) timed(args);
  const loadStart = bench.load();
  const times = { node: [] as number[], help: [] as number[], snapshots: [] as number[] };
  for (let run = 0; run < runs; run++) for (const [name, args] of Object.entries(commands)) times[name as keyof typeof times].push(timed(args));
  const ratio = (name: 'help' | 'snapshots') => median(times[name]) / median(times.node);
  console.log(`Node ${process.version}; ${runs} runs each, interleaved, after one warm-up run; load average ${loadText(bench.load())} now`);
  console.log(`node -e 0          ${median(times.node).toFixed(0)} ms (median)`);
  for (const name of ['help', 'snapshots'] as const) {
    const label = name === 'help' ? 'tmsnap --help' : 'tmsnap snapshots';
    const verdict = ratio(name) <= targets[name] ? 'meets' : 'MISSES';
    console.log(`${label.padEnd(18)} ${median(times[name]).toFixed(0)} ms, ${ratio(name).toFixed(2)}× node -e 0: ${verdict} the target of ${targets[name]}×`);
  }
  await bench.record({
    input: { size: 'bundled demo', about: `the bundled demo's archive (tmsnap snapshots); ${runs} runs of each command, interleaved` },
    loadStart,
    figures: [
      figureOf('node -e 0', 'ms', times.node),
      figureOf('tmsnap --help', 'ms', times.help),
      figureOf('tmsnap snapshots', 'ms', times.snapshots),
      figureOf('--help / node -e 0 (target ≤ 2)', '×', ratio('help')),
      figureOf('snapshots / node -e 0 (target ≤ 3)', '×', ratio('snapshots')),
    ],
  });
} finally {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
}
