/**
 * The bulk pages (site/bulk-pages.ts) written by worker threads, one share of the components
 * each, while Astro builds its pages in the main thread: the machine's cores busy at once rather
 * than Astro's build, then one writer (docs/site.md, "Pages written outside Astro"). Threads, not
 * processes: the build's peak RSS is one process's, every thread counted.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BulkReport, Shard } from './bulk-pages.ts';
import type { BuildInput } from '../site-model/build-input.ts';
import { siblingModule } from './sibling-module.ts';

/**
 * Writers at once: one per core, at most two. Each holds its own copy of the snapshot's tree
 * and one component's strings; more than two would raise the peak RSS (issue 14 counts it) for
 * cores this 2-core target does not have.
 */
export const bulkWriters = (): number => Math.max(1, Math.min(2, availableParallelism()));

function sumReports(reports: readonly BulkReport[], seconds: number): BulkReport {
  const sum = (key: Exclude<keyof BulkReport, 'seconds' | 'heapPeaks'>) => reports.reduce((total, report) => total + report[key], 0);
  return {
    unitPages: sum('unitPages'),
    stringPages: sum('stringPages'),
    translationPages: sum('translationPages'),
    otherFiles: sum('otherFiles'),
    bytes: sum('bytes'),
    seconds,
    heapPeaks: reports.flatMap((report) => report.heapPeaks ?? []),
  };
}

export interface BulkWriters {
  /** The writers' figures summed, once all have finished; rejects when one fails (the others are stopped). */
  report: Promise<BulkReport>;
  /** Stops every writer (when the rest of the build failed). */
  stop(): Promise<void>;
}

/** Starts `count` writers of `input`'s pages into `out` (an absolute path); `onPages` gets each batch's count. */
export function startBulkWriters(input: BuildInput, out: string, count: number, onPages: (pages: number) => void): BulkWriters {
  const started = performance.now();
  const workers: Worker[] = [];
  const stop = async () => {
    await Promise.all(workers.map((worker) => worker.terminate()));
  };
  const one = (shard: Shard) =>
    new Promise<BulkReport>((done, fail) => {
      const worker = new Worker(siblingModule('bulk-worker', import.meta.url), { workerData: { input, out, shard } });
      workers.push(worker);
      let report: BulkReport | undefined;
      worker.on('message', (message: { pages: number; report?: BulkReport }) => {
        onPages(message.pages);
        if (message.report) report = message.report;
      });
      worker.on('error', fail);
      worker.on('exit', (code) =>
        report !== undefined && code === 0 ? done(report) : fail(new Error(`bulk page writer ${shard.index + 1} of ${shard.count} exited with code ${code}`)),
      );
    });
  const all = Promise.all(Array.from({ length: count }, (_, index) => one({ index, count })));
  const report = all.then(
    (reports) => sumReports(reports, (performance.now() - started) / 1000),
    async (error: unknown) => {
      await stop();
      throw error;
    },
  );
  // Awaited by the build once Astro's pages are done; until then a failure must not go unhandled.
  report.catch(() => {});
  return { report, stop };
}
