/**
 * The bench harness (bench/harness.ts): medians over repetitions, and `record`, one JSON line
 * per result appended to `<results>/<bench>.jsonl`, the lines docs/benchmarks.md is made from.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bench, readCommit, startBench, statusWriter } from '../../bench/harness.ts';
import { benchResult, figureOf, median } from '../../bench/result.ts';
import { useTempFolders } from '../helpers/temp.ts';

const folder = useTempFolders('tmsnap-bench-harness-');
const machine = { cpu: 'Test CPU @ 2.0GHz', cores: 2, memoryGiB: 23.4, node: 'v20.20.2', os: 'linux 6.1.0 x64' };

/** Load averages handed out one per reading, in order. */
function loads(...readings: [number, number, number][]) {
  return () => readings.shift() ?? [9, 9, 9];
}

describe('median', () => {
  it('takes the middle value of an odd count, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
  });

  it('takes the mean of the two middle values of an even count', () => {
    expect(median([4, 1, 3, 10])).toBe(3.5);
  });

  it('refuses no values', () => {
    expect(() => median([])).toThrow(/no values/);
  });
});

describe('figureOf', () => {
  it('keeps every repetition in order, with their median', () => {
    expect(figureOf('read', 's', [3, 1, 2])).toEqual({ name: 'read', unit: 's', runs: [3, 1, 2], median: 2 });
  });

  it('leaves out values that are not numbers, and gives nothing when none is', () => {
    expect(figureOf('read', 's', [Number.NaN, 4])).toEqual({ name: 'read', unit: 's', runs: [4], median: 4 });
    expect(figureOf('build', 's', Number.NaN)).toBeUndefined();
  });
});

describe('Bench', () => {
  it('prints the machine and the load at the start first', () => {
    const printed: string[] = [];
    startBench('crawl', { results: '/nonexistent', machine, load: loads([1.5, 1, 0.5]), commit: 'abc1234', print: (line) => printed.push(line) });
    expect(printed).toEqual(['machine: Test CPU @ 2.0GHz, 2 cores, 23.4 GiB memory, Node v20.20.2, linux 6.1.0 x64; load average 1.50 1.00 0.50 at the start']);
  });

  it('appends one schema-valid JSON line per result, with the load at its start and end', async () => {
    const results = await folder();
    const bench = new Bench('snapshot', {
      results,
      machine,
      load: loads([1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4]),
      now: () => new Date('2026-11-26T06:00:00Z'),
      commit: 'abc1234',
      command: 'bench/snapshot-store.ts 1000',
      print: () => {},
    });
    await bench.record({ input: { size: '1000 units', about: 'a small one' }, figures: [figureOf('write', 's', [2, 4, 3])] });
    const later = bench.load();
    await bench.record({
      input: { size: '2000 units', about: 'a larger one' },
      loadStart: later,
      figures: [figureOf('write', 's', 5), figureOf('skipped', 's', Number.NaN)],
    });

    const lines = (await readFile(join(results, 'snapshot.jsonl'), 'utf8')).split('\n');
    expect(lines.at(-1)).toBe('');
    const [first, second] = lines.slice(0, -1).map((line) => benchResult.parse(JSON.parse(line)));
    expect(first).toEqual({
      bench: 'snapshot',
      at: '2026-11-26T06:00:00.000Z',
      commit: 'abc1234',
      command: 'bench/snapshot-store.ts 1000',
      machine,
      load: { start: [1, 1, 1], end: [2, 2, 2] },
      input: { size: '1000 units', about: 'a small one' },
      figures: [{ name: 'write', unit: 's', runs: [2, 4, 3], median: 3 }],
    });
    expect(second?.load).toEqual({ start: [3, 3, 3], end: [4, 4, 4] });
    expect(second?.figures.map((entry) => entry.name)).toEqual(['write']);
  });

  it('refuses a result without a figure, writing nothing', async () => {
    const results = await folder();
    const bench = new Bench('snapshot', { results, machine, load: loads(), commit: 'abc1234', print: () => {} });
    await expect(bench.record({ input: { size: '1', about: '' }, figures: [figureOf('x', 's', Number.NaN)] })).rejects.toThrow();
    await expect(readFile(join(results, 'snapshot.jsonl'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('names the commit, and says when the tracked code differs from it (its results aside)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tmsnap-harness-git-'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir, encoding: 'utf8' }).trim();
    try {
      git('init', '-q');
      await mkdir(join(dir, 'bench/results'), { recursive: true });
      await writeFile(join(dir, 'code.ts'), 'export {};\n');
      await writeFile(join(dir, 'bench/results/crawl.jsonl'), '');
      git('add', '.');
      git('commit', '-qm', 'first');
      const hash = git('rev-parse', '--short', 'HEAD');
      expect(readCommit(dir)).toBe(hash);
      await writeFile(join(dir, 'bench/results/crawl.jsonl'), '{}\n');
      await writeFile(join(dir, 'untracked.ts'), '');
      expect(readCommit(dir)).toBe(hash);
      await writeFile(join(dir, 'code.ts'), 'export const changed = 1;\n');
      expect(readCommit(dir)).toBe(`${hash}-dirty`);
      expect(readCommit(tmpdir())).toBe('unknown');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bench name that cannot be a file name of its own', () => {
    expect(() => new Bench('../crawl', { machine, load: loads(), commit: 'x' })).toThrow(/bench name/);
  });
});

describe('statusWriter', () => {
  it('rewrites one line on a terminal, every update', () => {
    const written: string[] = [];
    const status = statusWriter({ isTTY: true, write: (text) => written.push(text) }, 10, () => 0);
    for (let page = 1; page <= 3; page += 1) status(`pages ${page}`);
    expect(written).toEqual(['\rpages 1   ', '\rpages 2   ', '\rpages 3   ']);
  });

  it('writes whole lines to a log, at most one per interval', () => {
    const written: string[] = [];
    let clock = 0;
    const status = statusWriter({ isTTY: false, write: (text) => written.push(text) }, 10, () => clock);
    for (let page = 1; page <= 700; page += 1) {
      status(`pages ${page}`);
      clock += 100;
    }
    // 70 s of updates, one every 0.1 s: a line at 0 s and then every 10 s.
    expect(written).toEqual(['pages 1\n', 'pages 101\n', 'pages 201\n', 'pages 301\n', 'pages 401\n', 'pages 501\n', 'pages 601\n']);
  });
});
