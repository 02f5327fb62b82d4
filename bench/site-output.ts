/**
 * `npm run bench:site-output -- [SCENARIO|CONTENT] [--out DIR] [--components N] [--pages N] [--site DIR]`:
 * the bytes of the pages that grow with the strings (issue 14: ≤ 1 GB at 1M, ≤ 1 KB per string
 * at 10M), without a whole build. Runs the bulk writer (site/bulk-pages.ts: unit and string
 * pages) alone on a snapshot, as `tmsnap build` runs it after Astro, into `--out` (default: a
 * folder under the OS temp folder, removed afterwards). `--components N` writes N components
 * spread over the instance instead of all, and says so. Then it walks the output for bytes
 * per unit and per string, and splits a sample of `--pages` pages of each kind into what each
 * part of the markup costs per unit (tags and text by element), so what to cut next is
 * measured, not guessed (docs/site.md, "The 1M site against GitHub Pages' 1 GB").
 * The rest of the site (Astro's pages, the search index) is not written: a full build
 * (bench/build.ts) measures it. With `--site DIR`, a site `tmsnap build` made of that snapshot
 * is measured instead, nothing written: every part of it (unit, string, translation and list
 * pages, search index, history, feeds, badges, raw files, assets…) in bytes and bytes per
 * string (issue 36). Prints figures; asserts none.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
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

/** The part of the site a file is, by its path in the site (site-model/paths.ts). */
export function sitePart(path: string): string {
  const parts = path.split('/');
  if (path.endsWith('.xml')) return 'feeds and sitemaps';
  if (parts[0] === 'projects') {
    if (parts.includes('units')) return 'unit pages';
    if (parts.includes('strings')) return 'string pages';
    if (parts.includes('needs')) return 'lists of what needs work';
    if (parts.includes('file')) return 'raw files';
    if (parts[2] === 'changes') return 'history (changes pages)';
    return ['', '', 'project pages', 'component pages', 'translation pages'][parts.length - 1] ?? 'other';
  }
  if (parts[0] === 'languages')
    return parts.includes('changes') ? 'history (changes pages)' : parts.includes('consistency') ? 'consistency pages' : 'language pages';
  if (parts[0] === 'changes' || parts[0] === 'changes-between') return 'history (changes pages)';
  if (parts[0] === 'search') return parts.includes('shards') ? 'search index' : 'search page';
  const named: Record<string, string> = {
    badges: 'badges',
    data: 'data (status.json)',
    assets: 'assets',
    releases: 'releases',
    credits: 'credits',
    drift: 'drift pages',
  };
  return named[parts[0]!] ?? 'home, 404, favicon';
}

/** Every file of `out` by part; `index.html` files of the unit, string and list pages kept for the samples. */
async function walk(out: string): Promise<Map<string, Kind>> {
  const kinds = new Map<string, Kind>();
  for (const entry of await readdir(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue;
    const file = join(entry.parentPath, entry.name);
    const part = sitePart(relative(out, file).split(sep).join('/'));
    const kind = kinds.get(part) ?? { pages: 0, bytes: 0, files: [] };
    kinds.set(part, kind);
    kind.pages += 1;
    kind.bytes += (await stat(file)).size;
    if (['unit pages', 'string pages', 'lists of what needs work'].includes(part)) kind.files.push(file);
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
  if (units === 0) return;
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
const site = option('--site');
const givenOut = option('--out');
const out = site !== undefined ? resolve(site) : givenOut === undefined ? await mkdtemp(join(tmpdir(), 'tmsnap-site-output-')) : resolve(givenOut);

const bench = startBench('site-output');
console.log(`bench:site-output: snapshot ${snapshotId} in ${content}`);
console.log(
  `  input: ${tree.components.length} of ${all} components${tree.components.length < all ? ' (a sample spread over the instance)' : ''}, ${units} units (components' totals)`,
);
const report = site === undefined ? await writeBulkPages(buildInput, out) : undefined;
const kinds = await walk(out);
const none: Kind = { pages: 0, bytes: 0, files: [] };
const unit = kinds.get('unit pages') ?? none;
const string = kinds.get('string pages') ?? none;
const lists = kinds.get('lists of what needs work') ?? none;
const bytes = unit.bytes + string.bytes;
const total = [...kinds.values()].reduce((sum, kind) => sum + kind.bytes, 0);
if (report) console.log(`  written: ${report.unitPages} unit pages, ${report.stringPages} string pages in ${report.seconds.toFixed(1)} s into ${out}`);
else console.log(`  measured: the site in ${out}, as built (nothing written)`);
console.log(
  `  unit pages ${(unit.bytes / 1e6).toFixed(1)} MB (${(unit.bytes / units).toFixed(1)} B per unit), string pages ${(string.bytes / 1e6).toFixed(1)} MB (${(string.bytes / units).toFixed(1)} B per unit, ${(string.bytes / Math.max(1, string.pages)).toFixed(0)} B per page); together ${(bytes / units).toFixed(1)} B per unit`,
);
console.log(`  every part${report ? ' the bulk writer wrote' : ''}: ${(total / 1e6).toFixed(1)} MB, ${(total / units).toFixed(1)} B per string`);
for (const [part, kind] of [...kinds].sort((a, b) => b[1].bytes - a[1].bytes))
  console.log(
    `    ${part.padEnd(26)} ${String(kind.pages).padStart(7)} files ${(kind.bytes / 1e6).toFixed(1).padStart(8)} MB ${(kind.bytes / units).toFixed(1).padStart(7)} B per string`,
  );
const unitSample = await breakdown(spread(unit.files, samplePages), (page) => page.split(' id="unit-').length - 1);
printParts(`unit pages, ${Math.min(samplePages, unit.pages)} sampled`, unitSample, 'unit');
const stringSample = await breakdown(spread(string.files, samplePages), (page) => page.split('<tr').length - 2);
printParts(`string pages, ${Math.min(samplePages, string.pages)} sampled`, stringSample, 'row (a unit)');
const listSample = await breakdown(spread(lists.files, samplePages), (page) => page.split('<tr><th><a ').length - 1);
printParts(`lists of what needs work, ${Math.min(samplePages, lists.pages)} sampled`, listSample, 'listed string');
console.log(`  load ${loadText(bench.load())} after`);
const perUnit = (sample: { units: number; frame: number; parts: Map<string, number> }) =>
  (sample.frame + [...sample.parts.values()].reduce((a, b) => a + b, 0)) / sample.units;
await bench.record({
  input: {
    size: `${input in scenarios ? input : `${units} units`}${tree.components.length < all ? `, ${tree.components.length} of ${all} components` : ''}${site ? ', built site' : ''}`,
    about: `snapshot ${snapshotId}: ${tree.components.length} of ${all} components, ${units} units; ${site ? `every part of the site tmsnap build made in ${out}` : 'what the bulk writer writes'}`,
  },
  figures: [
    figureOf('bulk writer', 's', report?.seconds ?? Number.NaN),
    figureOf('unit pages', 'MB', unit.bytes / 1e6),
    figureOf('string pages', 'MB', string.bytes / 1e6),
    figureOf('unit and string pages per unit', 'B', bytes / units),
    figureOf('unit pages, sampled, per unit', 'B', perUnit(unitSample)),
    figureOf('string pages, sampled, per row', 'B', perUnit(stringSample)),
    ...[...kinds].filter(([part]) => part !== 'unit pages' && part !== 'string pages').map(([part, kind]) => figureOf(part, 'MB', kind.bytes / 1e6)),
    figureOf(site ? 'site per string' : 'bulk writer output per string', 'B', total / units),
  ],
});
if (site === undefined && givenOut === undefined) await rm(out, { recursive: true, force: true });
