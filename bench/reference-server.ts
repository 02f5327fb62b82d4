/**
 * How fast the reference server answers big pages of units (target: a page of 1000 under
 * 50 ms). Prints what it measured, the machine and the input size; asserts nothing.
 *
 *   npm run bench:reference-server [-- dataset]   (default bundled; e.g. synthetic:units=1000000)
 *
 * Client and server share this process (and its two cores with whatever else runs), so the
 * times include reading the whole answer; CPU time is printed beside wall time because it
 * is steadier on a busy machine.
 */
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { loadDataset } from '../packages/reference-server/datasets.ts';
import { raisedRateLimit } from '../packages/reference-server/rate-limit.ts';
import { startReferenceServer } from '../packages/reference-server/server.ts';
import { type Figure, figureOf, median, startBench } from './harness.ts';

const dataset = process.argv[2] ?? 'bundled';
const ROUNDS = 20;

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${median(samples).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, min ${sorted[0]!.toFixed(1)} ms`;
}

async function measure(label: string, urls: string[]): Promise<(Figure | undefined)[]> {
  // Two untimed rounds warm the JIT and the server's per-revision caches.
  for (const url of urls.slice(0, 2)) await (await request(url)).body.text();
  const wall: number[] = [];
  const cpu: number[] = [];
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const url = urls[i % urls.length]!;
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const response = await request(url, { headers: { accept: 'application/json' } });
    const body = await response.body.text();
    const used = process.cpuUsage(cpuStart);
    wall.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${body.slice(0, 200)}`);
    bytes = body.length;
  }
  console.log(`${label}\n  wall: ${summary(wall)}\n  cpu:  ${summary(cpu)}\n  answer: ${(bytes / 2 ** 20).toFixed(2)} MiB, ${ROUNDS} rounds`);
  return [figureOf(`${label}, wall`, 'ms', wall), figureOf(`${label}, CPU`, 'ms', cpu)];
}

const bench = startBench('reference-server');
const loadStart = performance.now();
const model = await loadDataset(dataset);
const translations = model.translations();
const units = translations.reduce((sum, row) => sum + model.unitCount(row.id), 0);
console.log(
  `input: --data ${dataset}: ${translations.length} translations, ${units} units, ${model.changeCount()} changes (loaded in ${(performance.now() - loadStart).toFixed(0)} ms)`,
);

// The default (5.4) profile with its limits raised: this measures answers, not throttling.
const server = await startReferenceServer({ model, behaviours: { rateLimit: raisedRateLimit } });
try {
  const largest = [...translations].sort((a, b) => model.unitCount(b.id) - model.unitCount(a.id))[0]!;
  const component = model.components().find((row) => row.id === largest.componentId)!;
  const project = model.projects().find((row) => row.id === component.projectId)!;
  const translationUnits = `${server.url}translations/${encodeURIComponent(project.slug)}/${encodeURIComponent(component.slug)}/${encodeURIComponent(largest.languageCode)}/units/`;
  const pages = (base: string, size: number, total: number) =>
    Array.from({ length: Math.max(1, Math.min(5, Math.floor(total / size))) }, (_, i) => `${base}?page_size=${size}&page=${i + 1}`);

  const figures = [
    ...(await measure(
      `GET one translation's units, page_size=1000 (${model.unitCount(largest.id)} units in it)`,
      pages(translationUnits, 1000, model.unitCount(largest.id)),
    )),
    ...(await measure('GET /api/units/, page_size=1000', pages(`${server.url}units/`, 1000, units))),
    ...(await measure('GET /api/units/, page_size=10000', pages(`${server.url}units/`, 10_000, units))),
    ...(await measure('GET /api/changes/, page_size=1000', pages(`${server.url}changes/`, 1000, model.changeCount()))),
  ];
  await bench.record({
    input: {
      size: dataset,
      about: `--data ${dataset}: ${translations.length} translations, ${units} units, ${model.changeCount()} changes; ${ROUNDS} rounds each`,
    },
    figures,
  });
} finally {
  await server.close();
}
