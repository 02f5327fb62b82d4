/**
 * Writes a synthetic instance of any spec straight into a snapshot for the search bench,
 * through the benches' direct writer (bench/direct-snapshot.ts: the reference server's model
 * and record renderer, no HTTP), so the search bench can have a million units in minutes on a
 * busy two-core machine. Prints what it wrote.
 *
 *   node bench/search-snapshot.ts OUT_CONTENT_DIR [spec]
 *   (default spec: projects=4,components=5,languages=50,units=1000000,seed=1)
 */
import { writeDirectSnapshot } from './direct-snapshot.ts';
import { statusWriter } from './harness.ts';

const status = statusWriter(process.stderr);

const [out, specText = 'projects=4,components=5,languages=50,units=1000000,seed=1'] = process.argv.slice(2);
if (!out) throw new Error('usage: bench/search-snapshot.ts OUT_CONTENT_DIR [synthetic spec]');
const started = performance.now();
const result = await writeDirectSnapshot(out, `synthetic:${specText}`, (progress) => {
  if (progress.stage !== 'finishing') status(`${progress.stage} ${progress.done}/${progress.total}`);
});
console.log(
  `\nsnapshot ${result.id} in ${out}: synthetic:${specText}, ${result.units} units, ${result.changes} changes, ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
