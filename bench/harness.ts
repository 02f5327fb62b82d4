/**
 * What every bench shares (issue 25): the machine line (CPU, cores, memory, Node, OS) with the
 * load average at the start, and `record`, which appends one JSON line per result (figures
 * with their repetitions and medians, the input size, the load at the start and the end) to
 * `bench/results/<bench>.jsonl`. Those files are tracked in git; docs/benchmarks.md is
 * generated from them (bench/report.ts). A bench prints what it measured; it never asserts.
 */
import { execFileSync } from 'node:child_process';
import { appendFile, mkdir } from 'node:fs/promises';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { type BenchResult, benchResult, type Figure, type LoadAverage, type Machine } from './result.ts';

const repo = resolve(import.meta.dirname, '..');
/** Where results are kept unless a bench is given another folder. */
export const defaultResults = join(repo, 'bench/results');

export function readMachine(): Machine {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown CPU',
    cores: Math.max(1, cpu.length),
    memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
    node: process.version,
    os: `${process.platform} ${release()} ${process.arch}`,
  };
}

export function readLoad(): LoadAverage {
  const [one = 0, five = 0, fifteen = 0] = loadavg();
  return [one, five, fifteen].map((value) => Number(value.toFixed(2))) as LoadAverage;
}

/** `2.10 1.50 0.80`: the 1, 5 and 15 minute load averages. */
export function loadText(load: LoadAverage): string {
  return load.map((value) => value.toFixed(2)).join(' ');
}

export function machineText(machine: Machine): string {
  return `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB.toFixed(1)} GiB memory, Node ${machine.node}, ${machine.os}`;
}

/**
 * The commit the bench runs at, `<hash>-dirty` when tracked files differ from it (the code that ran
 * is then not that commit's; the bench's own results and their report aside), `unknown` outside a
 * git checkout.
 */
export function readCommit(dir = repo): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const hash = git('rev-parse', '--short', 'HEAD');
    const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)bench/results', ':(exclude)docs/benchmarks.md');
    return changed === '' ? hash : `${hash}-dirty`;
  } catch {
    return 'unknown';
  }
}

export interface BenchOptions {
  /** The folder of the `<bench>.jsonl` files (default `bench/results/` of this checkout). */
  results?: string;
  /** Where the machine line and the recorded lines are printed (default stdout). */
  print?: (line: string) => void;
  /** Fixed readings, for tests; read from the system when absent. */
  machine?: Machine;
  load?: () => LoadAverage;
  now?: () => Date;
  commit?: string;
  /** How the bench was run (default: its file, relative to the checkout, and its arguments). */
  command?: string;
}

/** `bench/crawl.ts --data bundled`: this process's script and arguments. */
function readCommand(): string {
  const script = process.argv[1] === undefined ? '' : relative(repo, process.argv[1]);
  return [script, ...process.argv.slice(2)].join(' ');
}

export interface ResultInput {
  /** The input size the docs' table groups by (a scenario name or a count) and its description. */
  input: { size: string; about: string };
  /** Figures not measured in this run (`figureOf` gave `undefined`) are left out. */
  figures: readonly (Figure | undefined)[];
  /** The load when this result's measuring began, where one run measures several inputs; default the bench's start. */
  loadStart?: LoadAverage;
}

export class Bench {
  readonly machine: Machine;
  readonly loadAtStart: LoadAverage;
  readonly file: string;
  readonly #print: (line: string) => void;
  readonly #load: () => LoadAverage;
  readonly #now: () => Date;
  readonly #commit: string;
  readonly #command: string;

  readonly name: string;

  constructor(name: string, options: BenchOptions = {}) {
    this.name = name;
    if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`bench name "${name}": use lower-case letters, digits and hyphens`);
    this.machine = options.machine ?? readMachine();
    this.#load = options.load ?? readLoad;
    this.#now = options.now ?? (() => new Date());
    this.#print = options.print ?? ((line) => console.log(line));
    this.#commit = options.commit ?? readCommit();
    this.#command = options.command ?? readCommand();
    this.file = join(options.results ?? defaultResults, `${name}.jsonl`);
    this.loadAtStart = this.#load();
  }

  /** The machine line every bench prints first. */
  get machineLine(): string {
    return `machine: ${machineText(this.machine)}; load average ${loadText(this.loadAtStart)} at the start`;
  }

  /** The load average now, to pass as a later result's `loadStart`. */
  load(): LoadAverage {
    return this.#load();
  }

  /** Appends one result line to `<results>/<bench>.jsonl` and prints the load at its end. */
  async record({ input, figures, loadStart }: ResultInput): Promise<BenchResult> {
    const end = this.#load();
    const result = benchResult.parse({
      bench: this.name,
      at: this.#now().toISOString(),
      commit: this.#commit,
      command: this.#command,
      machine: this.machine,
      load: { start: loadStart ?? this.loadAtStart, end },
      input,
      figures: figures.filter((entry) => entry !== undefined),
    });
    await mkdir(join(this.file, '..'), { recursive: true });
    await appendFile(this.file, `${JSON.stringify(result)}\n`);
    this.#print(`recorded ${result.figures.length} figures for input ${input.size} in ${this.file}; load average ${loadText(end)} at the end`);
    return result;
  }
}

/** Starts a bench: reads the machine and the load, and prints the machine line. */
/**
 * A status line for long work: rewritten in place on a terminal; in a log (no TTY) one line at
 * most every `everySeconds`, so a 1M build's ~700 updates do not fill it.
 */
export function statusWriter(
  stream: { isTTY?: boolean; write: (text: string) => unknown } = process.stdout,
  everySeconds = 10,
  now: () => number = () => performance.now(),
): (text: string) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (text) => {
    if (stream.isTTY) {
      stream.write(`\r${text}   `);
      return;
    }
    const at = now();
    if (at - last < everySeconds * 1000) return;
    last = at;
    stream.write(`${text}\n`);
  };
}

export function startBench(name: string, options: BenchOptions = {}): Bench {
  const bench = new Bench(name, options);
  (options.print ?? ((line: string) => console.log(line)))(bench.machineLine);
  return bench;
}

export { type Figure, figureOf, median } from './result.ts';
