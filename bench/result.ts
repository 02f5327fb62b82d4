/**
 * One bench result, as a line of `bench/results/<bench>.jsonl` (issue 25): what was measured,
 * on which machine, under which load and at which input size. docs/benchmarks.md is generated
 * from these lines (bench/report.ts), so a figure in the docs is always one a bench measured.
 */
import { z } from 'zod';

export const machine = z.object({
  cpu: z.string(),
  cores: z.number().int().positive(),
  memoryGiB: z.number().positive(),
  /** `process.version`, e.g. `v20.20.2`. */
  node: z.string(),
  /** Platform, kernel release and architecture, e.g. `linux 6.1.0 x64`. */
  os: z.string(),
});
export type Machine = z.infer<typeof machine>;

/** The load average over 1, 5 and 15 minutes (`os.loadavg()`). */
export const loadAverage = z.tuple([z.number(), z.number(), z.number()]);
export type LoadAverage = z.infer<typeof loadAverage>;

export const figure = z.object({
  name: z.string().min(1),
  /** What the values count: `s`, `ms`, `MiB`, `requests`, `units/s`… */
  unit: z.string(),
  /** Every repetition's value, in the order measured. */
  runs: z.array(z.number()).min(1),
  median: z.number(),
});
export type Figure = z.infer<typeof figure>;

export const benchResult = z.object({
  /** The bench's name: its `npm run bench:<name>` script, or its file name. */
  bench: z.string().regex(/^[a-z0-9-]+$/),
  /** When the result was recorded (ISO 8601, UTC). */
  at: z.iso.datetime(),
  /** The commit the bench ran at (`git rev-parse --short HEAD`, `-dirty` when tracked code differed; `unknown` outside a checkout). */
  commit: z.string(),
  /** How it was run: the bench's file and its arguments, e.g. `bench/snapshot-store.ts 100000`. */
  command: z.string(),
  machine,
  load: z.object({ start: loadAverage, end: loadAverage }),
  input: z.object({
    /** The input size the docs' table groups by: a scenario name or a count, e.g. `100k`, `200000 units`. */
    size: z.string().min(1),
    /** The input in words, printed beside the figures. */
    about: z.string(),
  }),
  figures: z.array(figure).min(1),
});
export type BenchResult = z.infer<typeof benchResult>;

/** The median: the middle value, or the mean of the two middle values of an even count. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * A figure from its repetitions; `undefined` when none of them is a number (a step a run
 * skipped prints NaN and is not recorded).
 */
export function figureOf(name: string, unit: string, values: number | readonly number[]): Figure | undefined {
  const runs = (typeof values === 'number' ? [values] : values).filter((value) => Number.isFinite(value));
  if (runs.length === 0) return undefined;
  return { name, unit, runs, median: median(runs) };
}
