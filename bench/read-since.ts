/**
 * Reading speed now against then (issue 11: "site build and search read speed not worse than
 * today"; today was the day the issue was filed, when every snapshot was format 1): the same
 * reads (bench/read-workloads.ts: every unit, a site build's reads, the search index built) by
 * an older checkout of tmsnap on a format-1 copy of a snapshot, and by this one on the snapshot
 * as stored (format 4, through its deltas). Each run is a fresh process, then and now in turns,
 * so both see the same load; each process reads twice, the first pass cold (compiling, as a
 * `tmsnap build` does) and the second warm. Asserts nothing.
 *
 *   git worktree add /tmp/tmsnap-then dcd16d1 && ln -s "$PWD/node_modules" /tmp/tmsnap-then/
 *   npm run bench:read-formats -- --days 7 --edits 300 --keep /tmp/days     # 7 days of deltas
 *   npm run bench:read-since -- --then /tmp/tmsnap-then --content /tmp/days [--rounds 3]
 *
 * dcd16d1 is the last commit before format 2 (345e004); its package.json is this one's, so the
 * worktree can share node_modules. Without --content: the 100k scenario's snapshot.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openSnapshot } from '../snapshot/index.ts';
import { writeFormat1Copy } from '../test/snapshot/format1.ts';
import { figureOf, loadText, median, startBench } from './harness.ts';
import { scenarioResults } from './scenarios.ts';

const { values } = parseArgs({
  options: {
    then: { type: 'string' },
    content: { type: 'string', default: scenarioResults('100k').content },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string', default: 'store,site,search' },
  },
});
if (values.then === undefined)
  throw new Error('--then DIR: a checkout of the older tmsnap to compare with (see the comment at the top of bench/read-since.ts)');
const now = resolve(import.meta.dirname, '..');
const then = resolve(values.then);

interface Pass {
  cpu: number;
  wall: number;
  units: number;
}

/** One workload in a fresh process, with the modules of `root`. */
function run(root: string, content: string, id: string, workload: string): Pass[] {
  const out = execFileSync(
    process.execPath,
    // An older checkout's modules may use parameter properties, which only Node's transform (not its stripping) runs.
    [
      '--experimental-transform-types',
      '--no-warnings=ExperimentalWarning',
      join(now, 'bench/read-workloads.ts'),
      '--root',
      root,
      '--content',
      content,
      '--snapshot',
      id,
      '--workload',
      workload,
    ],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!) as Pass[];
}

const bench = startBench('read-since');
const load = () => loadText(bench.load());
const newest = await openSnapshot(values.content);
const counts = newest.manifest.counts;
console.log(
  `input: ${values.content}, snapshot ${newest.id} (format ${newest.manifest.format}): ${counts.unit ?? 0} units, ${counts.translation ?? 0} translations, ${counts.change ?? 0} changes`,
);
console.log(
  `then: ${then} (${execFileSync('git', ['-C', then, 'log', '-1', '--format=%h %ad', '--date=short'], { encoding: 'utf8' }).trim()}), reading a format-1 copy; now: ${now}`,
);
const scratch = await mkdtemp(join(tmpdir(), 'tmsnap-bench-read-since-'));
try {
  const format1 = join(scratch, 'format1');
  await writeFormat1Copy(values.content, newest.id, format1);
  const figures = new Map<string, Pass[][]>();
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const workload of values.only.split(',')) {
      const order: ['then' | 'now', string, string][] = [
        ['then', then, format1],
        ['now', now, values.content],
      ];
      if (round % 2 === 0) order.reverse();
      for (const [which, root, content] of order) {
        const passes = run(root, content, newest.id, workload);
        const key = `${workload}, ${which}`;
        figures.set(key, [...(figures.get(key) ?? []), passes]);
        console.log(
          `round ${round}, ${key}: ${passes[0]!.units} units; CPU s ${passes.map((pass) => pass.cpu.toFixed(2)).join(' then ')}, wall s ${passes.map((pass) => pass.wall.toFixed(2)).join(' then ')} (load ${load()})`,
        );
      }
    }
  }
  const range = (list: number[]) => `${Math.min(...list).toFixed(2)}-${Math.max(...list).toFixed(2)}`;
  /** One workload's figures of one measure over the rounds: the cold passes, then the warm ones. */
  const byPass = (workload: string, which: string, measure: 'cpu' | 'wall') => {
    const runs = figures.get(`${workload}, ${which}`) ?? [];
    return [0, 1].map((pass) => runs.map((passes) => passes[pass]?.[measure] ?? NaN));
  };
  // CPU (every thread) is the yardstick that load on a shared machine disturbs least; wall time is
  // the speed a user sees, where the work V8 does on the second core (compiling, collecting) is free.
  for (const measure of ['cpu', 'wall'] as const) {
    console.log(`${measure === 'cpu' ? 'CPU' : 'Wall'} seconds, min-max over rounds (cold pass / warm pass), and now/then of the medians:`);
    for (const workload of values.only.split(',')) {
      const then = byPass(workload, 'then', measure);
      const now = byPass(workload, 'now', measure);
      const ratios = [0, 1].map((pass) => (median(now[pass]!) / median(then[pass]!)).toFixed(2));
      console.log(`  ${workload}: then ${then.map(range).join(' / ')}, now ${now.map(range).join(' / ')}; now/then ${ratios.join(' / ')}`);
    }
  }
  const thenCommit = execFileSync('git', ['-C', then, 'log', '-1', '--format=%h'], { encoding: 'utf8' }).trim();
  await bench.record({
    input: {
      size: `${counts.unit ?? 0} units`,
      about: `snapshot ${newest.id} (format ${newest.manifest.format}) against a format-1 copy read by ${thenCommit}; ${values.rounds} rounds, a fresh process each`,
    },
    figures: values.only.split(',').flatMap((workload) =>
      (['then', 'now'] as const).flatMap((which) =>
        (['cpu', 'wall'] as const).flatMap((measure) => {
          const [cold = [], warm = []] = byPass(workload, which, measure);
          const label = `${workload}, ${which}, ${measure === 'cpu' ? 'CPU' : 'wall'}`;
          return [figureOf(`${label}, cold pass`, 's', cold), figureOf(`${label}, warm pass`, 's', warm)];
        }),
      ),
    ),
  });
} finally {
  await rm(scratch, { recursive: true, force: true });
}
