/**
 * `npm run bench:site-output -- [SCENARIO|CONTENT] [--out DIR] [--components N] [--pages N]`:
 * the bytes of the pages that grow with the strings (issue 14: ≤ 1 GB at 1M, ≤ 1 KB per string
 * at 10M), without a whole build. Runs the bulk writer (site/bulk-pages.ts: unit and string
 * pages) alone on a snapshot, as `tmsnap build` runs it after Astro, into `--out` (default: a
 * folder under the OS temp folder, removed afterwards). `--components N` writes N components
 * spread over the instance instead of all, and says so. Then it walks the output for bytes
 * per unit and per string, and splits a sample of `--pages` pages of each kind into what each
 * part of the markup costs per unit (tags and text by element), so what to cut next is
 * measured, not guessed (docs/site.md, "The 1M site against GitHub Pages' 1 GB").
 * The rest of the site (Astro's pages, the search index) is not written: a full build
 * (bench/build.ts) measures it. Prints figures; asserts none.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeBulkPages } from '../site/bulk-pages.ts';
import type { BuildInput } from '../site-model/build-input.ts';
import { defaultPageSettings } from '../site-model/page-settings.ts';
import { listSnapshots } from '../snapshot/index.ts';
import { provideBuildInput } from '../src/data/build-input.ts';
import { siteTree } from '../src/data/tree.ts';
import { figureOf, loadText, startBench } from './harness.ts';
import { scenarioResults, scenarios } from './scenarios.ts';

const args = process.argv.slice(2);
function option(name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}
const positional = args.filter((arg, index) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--'));
const input = positional[0] ?? '1m';
const content = input in scenarios ? scenarioResults(input).content : resolve(input);
const sampleComponents = option('--components') === undefined ? undefined : Number(option('--components'));
const samplePages = Number(option('--pages') ?? 200);

/** Bytes of a page's content by part: each element's tags (with attributes) and the text directly inside it. */
export function markupParts(page: string): Map<string, number> {
  const parts = new Map<string, number>();
  const add = (key: string, bytes: number) => parts.set(key, (parts.get(key) ?? 0) + bytes);
  const open: string[] = [];
  for (const match of page.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*>|[^<]+/g)) {
    const token = match[0];
    const bytes = Buffer.byteLength(token);
    const name = match[2]?.toLowerCase();
    if (name === undefined) {
      add(`text in <${open.at(-1) ?? 'page'}>`, bytes);
      continue;
    }
    add(`<${name}> tags`, bytes);
    if (match[1]) {
      const at = open.lastIndexOf(name);
      if (at !== -1) open.length = at;
    } else if (!['br', 'img', 'input', 'meta', 'link', 'hr'].includes(name)) open.push(name);
  }
  return parts;
}

/** The part of a page inside the frame: from the end of `<h1>` to `</main>` (src/layouts/frame.ts). */
export function pageContent(page: string): string {
  const from = page.indexOf('</h1>');
  const to = page.lastIndexOf('</main>');
  return from === -1 || to === -1 ? page : page.slice(from + '</h1>'.length, to);
}

interface Kind {
  pages: number;
  bytes: number;
  files: string[];
}

async function walk(out: string): Promise<Record<'unit' | 'string', Kind>> {
  const kinds = { unit: { pages: 0, bytes: 0, files: [] as string[] }, string: { pages: 0, bytes: 0, files: [] as string[] } };
  for (const entry of await readdir(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== 'index.html') continue;
    const file = join(entry.parentPath, entry.name);
    const kind = file.includes('/units/') ? kinds.unit : file.includes('/strings/') ? kinds.string : undefined;
    if (kind === undefined) continue;
    kind.pages += 1;
    kind.bytes += (await stat(file)).size;
    kind.files.push(file);
  }
  return kinds;
}

/** Every `step`-th file, sorted, up to `count`: the same sample on every run. */
function spread(files: string[], count: number): string[] {
  const sorted = [...files].sort();
  const step = Math.max(1, Math.floor(sorted.length / count));
  return sorted.filter((_, index) => index % step === 0).slice(0, count);
}

async function breakdown(files: string[], perPage: (page: string) => number): Promise<{ units: number; frame: number; parts: Map<string, number> }> {
  const parts = new Map<string, number>();
  let units = 0;
  let frame = 0;
  for (const file of files) {
    const page = await readFile(file, 'utf8');
    const inner = pageContent(page);
    units += perPage(page);
    frame += Buffer.byteLength(page) - Buffer.byteLength(inner);
    for (const [key, bytes] of markupParts(inner)) parts.set(key, (parts.get(key) ?? 0) + bytes);
  }
  return { units, frame, parts };
}

function printParts(title: string, sample: { units: number; frame: number; parts: Map<string, number> }, per: string): void {
  const { units, frame, parts } = sample;
  const total = frame + [...parts.values()].reduce((a, b) => a + b, 0);
  console.log(`  ${title}: ${(total / units).toFixed(1)} B per ${per} (frame ${(frame / units).toFixed(1)} B)`);
  const rows = [...parts].sort((a, b) => b[1] - a[1]);
  for (const [key, bytes] of rows.slice(0, 16)) console.log(`    ${(bytes / units).toFixed(1).padStart(7)} B  ${key}`);
}

const snapshotId = (await listSnapshots(content)).find((summary) => summary.complete)?.id;
if (snapshotId === undefined) throw new Error(`no complete snapshot in ${content}`);
// The public view, as `tmsnap build` builds it without --publish.
const buildInput: BuildInput = { content, snapshot: snapshotId, hideAuthors: false, publish: [], settings: defaultPageSettings };
provideBuildInput(buildInput);
const tree = await siteTree();
const all = tree.components.length;
if (sampleComponents !== undefined && sampleComponents < all) {
  // A sample spread over the instance: the bulk writer walks `tree.components`, read once per build input.
  const step = all / sampleComponents;
  const chosen = Array.from({ length: sampleComponents }, (_, index) => tree.components[Math.floor(index * step)]!);
  tree.components.splice(0, all, ...chosen);
}
const units = tree.components.reduce((sum, component) => sum + component.totals.total, 0);
const givenOut = option('--out');
const out = givenOut === undefined ? await mkdtemp(join(tmpdir(), 'tmsnap-site-output-')) : resolve(givenOut);

const bench = startBench('site-output');
console.log(`bench:site-output: snapshot ${snapshotId} in ${content}`);
console.log(
  `  input: ${tree.components.length} of ${all} components${tree.components.length < all ? ' (a sample spread over the instance)' : ''}, ${units} units (components' totals)`,
);
const report = await writeBulkPages(buildInput, out);
const kinds = await walk(out);
const bytes = kinds.unit.bytes + kinds.string.bytes;
console.log(`  written: ${report.unitPages} unit pages, ${report.stringPages} string pages in ${report.seconds.toFixed(1)} s into ${out}`);
console.log(
  `  unit pages ${(kinds.unit.bytes / 1e6).toFixed(1)} MB (${(kinds.unit.bytes / units).toFixed(1)} B per unit), string pages ${(kinds.string.bytes / 1e6).toFixed(1)} MB (${(kinds.string.bytes / units).toFixed(1)} B per unit, ${(kinds.string.bytes / Math.max(1, kinds.string.pages)).toFixed(0)} B per page); together ${(bytes / units).toFixed(1)} B per unit`,
);
const unitSample = await breakdown(spread(kinds.unit.files, samplePages), (page) => page.split(' id="unit-').length - 1);
printParts(`unit pages, ${Math.min(samplePages, kinds.unit.pages)} sampled`, unitSample, 'unit');
const stringSample = await breakdown(spread(kinds.string.files, samplePages), (page) => page.split('<tr').length - 2);
printParts(`string pages, ${Math.min(samplePages, kinds.string.pages)} sampled`, stringSample, 'row (a unit)');
console.log(`  load ${loadText(bench.load())} after`);
const perUnit = (sample: { units: number; frame: number; parts: Map<string, number> }) =>
  (sample.frame + [...sample.parts.values()].reduce((a, b) => a + b, 0)) / sample.units;
await bench.record({
  input: {
    size: `${input in scenarios ? input : `${units} units`}${tree.components.length < all ? `, ${tree.components.length} of ${all} components` : ''}`,
    about: `snapshot ${snapshotId}: ${tree.components.length} of ${all} components, ${units} units; unit and string pages only`,
  },
  figures: [
    figureOf('bulk writer', 's', report.seconds),
    figureOf('unit pages', 'MB', kinds.unit.bytes / 1e6),
    figureOf('string pages', 'MB', kinds.string.bytes / 1e6),
    figureOf('unit and string pages per unit', 'B', bytes / units),
    figureOf('unit pages, sampled, per unit', 'B', perUnit(unitSample)),
    figureOf('string pages, sampled, per row', 'B', perUnit(stringSample)),
  ],
});
if (givenOut === undefined) await rm(out, { recursive: true, force: true });
