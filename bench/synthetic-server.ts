/**
 * Memory of the reference server over a large synthetic instance (issue 14): one request of
 * every kind a crawl makes (and the `q=` filters an incremental crawl may use), each followed
 * by the server's heap after a full garbage collection and its resident set. Prints what it
 * measured, the machine, the load and the input size; asserts nothing.
 *
 *   node --expose-gc bench/synthetic-server.ts [--scenario 1m|10m|SPEC]
 *
 * The server runs in this process (the client's share of the heap is one answer at a time),
 * on the default 5.4 profile with its limits raised.
 */
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { loadDataset } from '../packages/reference-server/datasets.ts';
import { raisedRateLimit } from '../packages/reference-server/rate-limit.ts';
import { startReferenceServer } from '../packages/reference-server/server.ts';
import { type Figure, figureOf, loadText, startBench } from './harness.ts';
import { scenarioData } from './scenarios.ts';

const { values } = parseArgs({ options: { scenario: { type: 'string', default: '10m' } } });
const data = scenarioData(values.scenario);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const gc = (globalThis as { gc?: () => void }).gc;

/** Heap after a full collection (when `--expose-gc` allows one) and the resident set. */
function memory(): { heap: number; rss: number } {
  gc?.();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss };
}

const bench = startBench('synthetic-server');
if (!gc) console.log('no --expose-gc: heap figures include garbage');
const started = performance.now();
const model = await loadDataset(data);
const translations = model.translations();
const units = translations.reduce((sum, row) => sum + model.unitCount(row.id), 0);
console.log(`input: --data ${data}: ${translations.length} translations, ${units} units, ${model.changeCount()} changes`);
const server = await startReferenceServer({ model, behaviours: { rateLimit: raisedRateLimit } });
const initial = memory();
console.log(`model and server up in ${((performance.now() - started) / 1000).toFixed(1)} s: heap ${mib(initial.heap)}, RSS ${mib(initial.rss)}`);

const project = model.projects().at(-1)!;
const component = model.components().at(-1)!;
const componentPath = `${project.slug}/${component.slug}`;
const language = translations.find((row) => row.languageCode !== 'en')!.languageCode;
const user = model.users()[0]!.username;
const unitPages = Math.ceil(units / 10_000);
const cutoff = model.changes(Math.floor(model.changeCount() * 0.99), 1)[0]!.timestamp;
const paths: [string, string][] = [
  ['units, first page of 10,000', 'units/?page_size=10000'],
  ['units, middle page', `units/?page_size=10000&page=${Math.ceil(unitPages / 2)}`],
  ['units, last page', `units/?page_size=10000&page=${unitPages}`],
  ['units of a project (q=project:)', `units/?page_size=10000&q=project:${project.slug}`],
  ['changes, first page of 1,000', 'changes/?page_size=1000'],
  ['changes, last page, time-bounded', `changes/?page_size=1000&timestamp_before=2100-01-01T00:00:00Z&page=last`],
  ['changes since the newest 1%', `changes/?page_size=1000&timestamp_after=${encodeURIComponent(cutoff)}`],
  ['component statistics (each translation)', `components/${componentPath}/statistics/?page_size=1000`],
  ['project statistics', `projects/${project.slug}/statistics/`],
  [`language statistics (${language})`, `languages/${language}/statistics/`],
  ['user statistics', `users/${user}/statistics/`],
  ['translation file', `translations/${componentPath}/${language}/file/`],
  ['translation units', `translations/${componentPath}/${language}/units/?page_size=1000`],
  [`units, q=state:>=20 in ${language}`, `units/?page_size=1000&q=${encodeURIComponent(`language:${language} state:>=20`)}`],
  ['units, q=changed:>= the newest 1%', `units/?page_size=1000&q=${encodeURIComponent(`changed:>=${cutoff}`)}`],
];
let peakHeap = initial.heap;
const figures: (Figure | undefined)[] = [
  figureOf('model and server up', 's', (performance.now() - started) / 1000),
  figureOf('heap, server up', 'MiB', initial.heap / 2 ** 20),
];
try {
  for (const [label, path] of paths) {
    const start = performance.now();
    const response = await request(`${server.url}${path}`, { headers: { accept: 'application/json' } });
    const body = await response.body.text();
    const seconds = (performance.now() - start) / 1000;
    const after = memory();
    peakHeap = Math.max(peakHeap, after.heap);
    figures.push(figureOf(`${label}, answer`, 's', seconds), figureOf(`${label}, heap after`, 'MiB', after.heap / 2 ** 20));
    const count = /^\{"count":(\d+)/.exec(body)?.[1];
    console.log(
      `${label.padEnd(42)} ${String(response.statusCode)} ${seconds.toFixed(1).padStart(6)} s ${(body.length / 2 ** 20).toFixed(1).padStart(6)} MiB${count ? ` count ${count}` : ''}; heap ${mib(after.heap)}, RSS ${mib(after.rss)}`,
    );
  }
} finally {
  await server.close();
}
console.log(`largest heap after a request: ${mib(peakHeap)}; peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}`);
console.log(`load average at end: ${loadText(bench.load())}`);
await bench.record({
  input: {
    size: values.scenario,
    about: `--data ${data}: ${translations.length} translations, ${units} units, ${model.changeCount()} changes${gc ? '' : '; heap figures include garbage (no --expose-gc)'}`,
  },
  figures: [
    ...figures,
    figureOf('largest heap after a request', 'MiB', peakHeap / 2 ** 20),
    figureOf('peak RSS', 'MiB', process.resourceUsage().maxRSS / 1024),
  ],
});
