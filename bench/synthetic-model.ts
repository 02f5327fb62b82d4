/**
 * How fast the lazy synthetic dataset computes rows. Prints what it measured, the machine
 * and the input size; asserts nothing.
 *
 *   node bench/synthetic-model.ts [spec]   (default units=1000000)
 */
import { performance } from 'node:perf_hooks';
import { createSyntheticModel, parseSyntheticSpec } from '../packages/reference-server/synthetic/index.ts';
import { type Figure, figureOf, startBench } from './harness.ts';

const specText = process.argv[2] ?? 'projects=4,components=5,languages=20,units=1000000,seed=1';
const spec = parseSyntheticSpec(specText);

const figures: (Figure | undefined)[] = [];

/** Wall time, and CPU time (steadier when other work shares the cores). */
function time<T>(label: string, run: () => T): T {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const result = run();
  const cpu = process.cpuUsage(cpuStart);
  const wall = performance.now() - start;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(`${label.padEnd(58)} ${wall.toFixed(1).padStart(9)} ms wall ${cpuMs.toFixed(1).padStart(9)} ms cpu`);
  figures.push(figureOf(`${label}, wall`, 'ms', wall), figureOf(`${label}, CPU`, 'ms', cpuMs));
  return result;
}

const bench = startBench('synthetic-model');
console.log(`input: synthetic:${specText} → ${spec.units} units`);

const heapBefore = process.memoryUsage().heapUsed;
const model = time('create the model', () => createSyntheticModel(spec));
const translations = model.translations();
const last = translations.at(-1);
if (!last) throw new Error('no translations');
const lastCount = model.unitCount(last.id);
const pageSize = Math.min(1000, lastCount);

time(`units: last ${pageSize} of the last translation, with hashes (cold)`, () =>
  model.units(last.id, lastCount - pageSize, pageSize).forEach((unit) => unit.idHash),
);
time(`units: same ${pageSize} again, with hashes (warm string cache)`, () =>
  model.units(last.id, lastCount - pageSize, pageSize).forEach((unit) => unit.idHash),
);
const neighbour = translations.at(-2);
if (neighbour && neighbour.componentId === last.componentId) {
  time(`units: ${pageSize} of the same strings in another language`, () =>
    model.units(neighbour.id, lastCount - pageSize, pageSize).forEach((unit) => unit.idHash),
  );
}
time('unit(id): 1000 scattered ids, with hashes', () => {
  for (let n = 0; n < 1000; n++) model.unit(1 + ((n * 7919 * 104_729) % spec.units))?.idHash;
});
time('changes: last 1000', () => model.changes(model.changeCount() - 1000, 1000));

const scanned = Math.min(spec.units, 200_000);
let seen = 0;
time(`scan ${scanned} units in id order, as statistics do`, () => {
  for (const translation of translations) {
    for (let offset = 0; offset < model.unitCount(translation.id) && seen < scanned; offset += 5000) {
      seen += model.units(translation.id, offset, Math.min(5000, scanned - seen)).length;
    }
    if (seen >= scanned) break;
  }
});
time(`scan all ${model.changeCount()} changes, as the server's change index does`, () => {
  for (let offset = 0; offset < model.changeCount(); offset += 5000) model.changes(offset, 5000);
});
const heapGrowth = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
console.log(`heap growth: ${heapGrowth.toFixed(1)} MiB`);
await bench.record({
  input: { size: `${spec.units} units`, about: `synthetic:${specText}` },
  figures: [...figures, figureOf('heap growth', 'MiB', heapGrowth)],
});
