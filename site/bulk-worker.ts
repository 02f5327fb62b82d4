// One writer of the bulk pages (site/bulk-pages.ts) in a worker thread, for the components of its
// share (`workerData.shard`), from the build input (`workerData.input`, site-model/build-input.ts):
// site/bulk-workers.ts runs one per core beside Astro's build.
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { BuildInput } from '../site-model/build-input.ts';
import { writeBulkPages } from './bulk-pages.ts';

const { input, out, shard } = workerData as { input: BuildInput; out: string; shard: Parameters<typeof writeBulkPages>[3] };
const parent = parentPort!;
// Pages are reported in batches: a message per file would cost more than the file at a million units.
let written = 0;
// This thread's heap at its largest (V8's, sampled with each batch): its part of the build's
// peak RSS, which the process's figure does not split by thread (issue 14).
let heapPeak = 0;
const report = await writeBulkPages(
  input,
  out,
  () => {
    written += 1;
    if (written === 25) {
      heapPeak = Math.max(heapPeak, getHeapStatistics().total_heap_size);
      parent.postMessage({ pages: written });
      written = 0;
    }
  },
  shard,
);
parent.postMessage({ pages: written, report: { ...report, heapPeaks: [heapPeak] } });
