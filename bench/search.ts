/**
 * Offline search figures for one snapshot, tmsnap's sharded index (MiniSearch's indexes, docs/search.md) beside Pagefind
 * indexing the same built site (issue 5). Prints what it measured, the machine and the input
 * size; asserts nothing.
 *
 *   npm run bench:search -- --content DIR [--snapshot ID] [--lang CODE] [--query TEXT] [--runs N]
 *   npm run bench:search -- --scenario 1m|10m …   (the snapshot bench/build.ts wrote, bench/scenarios.ts)
 *   npm run bench:search -- --content DIR --index-only --page-from BUILT_SITE [--out DIR]
 *   npm run bench:search -- --content DIR --index-from DIR   (an index built by an earlier --out run)
 *   … --compare DIR [--compare-label TEXT]   (another site's search, e.g. main's, measured in the same run)
 *   … --skip-keys-complete   (no keystroke to complete results: each is a whole query again)
 *
 * Steps: `tmsnap build` (the site with its search index; the build reports the index's share),
 * Pagefind over the same HTML, then Chromium over loopback with a cold cache for each run:
 * time to the first results of a one-language query, time per keystroke after that, and
 * the bytes the query fetched, sent gzip as a static host sends them (`--identity`: uncompressed).
 *
 * `--index-only` skips the site build and Pagefind (both need every page rendered, which a
 * million units take long to do on a small machine): it builds only the search index and
 * borrows the search page and stylesheet of a site built earlier from any snapshot; the page
 * does not depend on the data, the index it loads does. `--out DIR` keeps what it built there,
 * and `--index-from DIR` measures it again without building (the page's script is bundled
 * afresh, so a change to the page is measured on the same index). A folder from a full `--out`
 * run holds Pagefind's index and page too: `--index-from` measures Pagefind again beside ours.
 * `--compare DIR` serves another site folder (its `search/` with its own `app.js`, and
 * `assets/`: say, the index and page main builds) and measures it in the same browser, turn
 * about with ours, so a before and an after share the machine's load.
 *
 * Each keystroke is measured twice: to the first results on screen (the page searches in
 * slices, showing the best hits found when a slice's time is up; the next key waits for them,
 * as workers answer a key a little later, docs/search.md "Workers") and, typed again with a pause
 * after each character, to complete results. Where complete results do not come within
 * `--complete-timeout` seconds (every language of a 10M index), keystrokes are measured from
 * the first results, while shards still arrive.
 */
import { execFile } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { gzip as gzipCallback, gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { canonicalJson, openSnapshot } from '../snapshot/index.ts';
import { routesFile, type SearchManifest, type SourceShardData } from '../search/format.ts';
import { buildSearchIndex } from '../search-index/build.ts';
import { bundleApp } from '../site/search-app.ts';
import { searchRecords, siteUnitHref } from '../site-model/search-input.ts';
import { tokenize } from '../search/text.ts';
import { figureOf, loadText, median as medianOf, startBench } from './harness.ts';
import { scenarioResults } from './scenarios.ts';

const repo = resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    content: { type: 'string', default: 'content' },
    scenario: { type: 'string' },
    snapshot: { type: 'string' },
    lang: { type: 'string' },
    query: { type: 'string' },
    runs: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
    'index-only': { type: 'boolean', default: false },
    'page-from': { type: 'string' },
    out: { type: 'string' },
    'index-from': { type: 'string' },
    compare: { type: 'string' },
    'compare-label': { type: 'string', default: 'before' },
    'complete-timeout': { type: 'string', default: '300' },
    'skip-unit-bytes': { type: 'boolean', default: false },
    'skip-keys-complete': { type: 'boolean', default: false },
    identity: { type: 'boolean', default: false },
  },
});
const runs = Number(args.runs);
const completeTimeout = Number(args['complete-timeout']) * 1000;
/** Only the search index: no site build, no Pagefind. */
const indexOnly = args['index-only'] || args['index-from'] !== undefined;
/** Pagefind is measured after a full build, or in a folder a full `--out` run left. */
const withPagefind = !indexOnly || (args['index-from'] !== undefined && existsSync(join(resolve(args['index-from']), 'pagefind-bench.html')));
const contentDir = args.scenario === undefined ? resolve(args.content) : scenarioResults(args.scenario).content;

const run = promisify(execFile);
const gzip = promisify(gzipCallback);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const median = (values: number[]) => (values.length === 0 ? Number.NaN : medianOf(values));

async function treeBytes(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
    files++;
  }
  return { bytes, files };
}

/**
 * Serves a folder as a static host does (GitHub Pages sends text files gzip, with
 * `Content-Encoding`), and counts, per request, the bytes sent compressed. Each file is
 * compressed once and kept; `warm` compresses a folder's files before the runs, as a host
 * holds them compressed already: a first request is not held back while its file is
 * compressed. `--identity` sends files as they are on disk (still counting their gzip size).
 */
async function serve(root: string, identity: boolean) {
  const gzipped = new Map<string, Promise<Buffer>>();
  // Pagefind's index and fragments are gzip already (its script inflates them): sent as they are.
  const compressed = (file: string) => /\/pagefind\/.*\.pf_/.test(file);
  const gzipOf = (file: string) => {
    let data = gzipped.get(file);
    if (!data) gzipped.set(file, (data = readFile(file).then(gzip)));
    return data;
  };
  const sizeOf = async (file: string) => (compressed(file) ? (await stat(file)).size : (await gzipOf(file)).length);
  // Files sent per URL path since the last take, so a run can count what arrived before a moment.
  let byPath = new Map<string, string[]>();
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    let file = normalize(join(root, decodeURIComponent(path)));
    if (!file.startsWith(root + sep)) return void response.writeHead(403).end();
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      await stat(file);
      byPath.set(path, [...(byPath.get(path) ?? []), file]);
      const types: Record<string, string> = {
        '.html': 'text/html; charset=utf-8',
        '.js': 'text/javascript',
        '.css': 'text/css',
        '.json': 'application/json',
        '.wasm': 'application/wasm',
      };
      const type = types[extname(file)] ?? 'application/octet-stream';
      if (identity || compressed(file) || !/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
        response.writeHead(200, { 'Content-Type': type });
        createReadStream(file).pipe(response);
        return;
      }
      const data = await gzipOf(file);
      response.writeHead(200, { 'Content-Type': type, 'Content-Encoding': 'gzip', 'Content-Length': data.length, Vary: 'Accept-Encoding' });
      response.end(data);
    } catch {
      response.writeHead(404).end();
    }
  };
  // Every failure is answered inside `answer` (403, 404): nothing is left to reject.
  const server = createServer((request, response) => void answer(request, response));
  const total = async (paths: Iterable<string>, sent: Map<string, string[]>) => {
    let bytes = 0;
    for (const path of new Set(paths)) for (const file of sent.get(path) ?? []) bytes += await sizeOf(file);
    return bytes;
  };
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    /** Bytes sent since the last take. */
    takeSent: async () => {
      const sent = byPath;
      byPath = new Map();
      return total(sent.keys(), sent);
    },
    /** Bytes sent for these URL paths since the last take. */
    sentFor: (paths: Iterable<string>) => total(paths, byPath),
    /** Compresses every file under these folders now (zlib's threads), not on its first request. */
    warm: async (folders: string[]) => {
      const files: string[] = [];
      for (const folder of folders)
        for (const entry of await readdir(join(root, folder), { withFileTypes: true, recursive: true }))
          if (entry.isFile() && !compressed(join(entry.parentPath, entry.name))) files.push(join(entry.parentPath, entry.name));
      // Four at a time (zlib's thread pool): a 10M index is too large to read at once.
      const next = async (): Promise<void> => {
        const file = files.pop();
        if (file === undefined) return;
        await gzipOf(file);
        return next();
      };
      await Promise.all([next(), next(), next(), next()]);
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** One cold query on the search page: first results, complete results, and keystrokes after. */
interface OurRun {
  /** Page load to the first result on screen, and the gzip bytes of the files that had arrived by then. */
  first: number;
  firstBytes: number;
  /** Page load to complete results (the page's `tmsnap-search-done` mark), and every byte fetched by then. */
  done: number;
  doneBytes: number;
  results: number;
  /** The page's marks: its script started, and the manifest and routes were in (NaN for a page without them). */
  started: number;
  indexed: number;
  /** Resource timing of the shard files in by the first results: the first asked for, the last arrived. */
  shardsAsked: number;
  shardsArrived: number;
  keys: number[];
  /** Per character typed with a pause after it: from the keystroke to complete results. */
  keysDone: number[];
}

/**
 * Waits until `condition` (an expression) holds in the page, checked by a timer in the page.
 * Not `page.waitForFunction`: its first call injects Playwright's own script into the page, a
 * compile of 12–290 ms on the page's thread (traced at load 16–20) while the shards it waits for
 * arrive, which a reader's browser never does.
 */
async function pageCondition(page: Page, condition: string, timeout: number): Promise<boolean> {
  return page.evaluate(
    `new Promise((resolve) => { const started = performance.now(); const check = () => (${condition}) ? resolve(true) : performance.now() - started > ${timeout} ? resolve(false) : setTimeout(check, 10); check(); })`,
  ) as Promise<boolean>;
}

async function measureOurs(browser: Browser, server: Awaited<ReturnType<typeof serve>>, path: string): Promise<OurRun> {
  // Cold: a fresh browser context starts with an empty cache.
  const context = await browser.newContext();
  const page = await context.newPage();
  // Notes when the first result appears and which files had arrived: the page streams results
  // as shards arrive, so first results can come long before complete ones.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if ((document.getElementById('search-results')?.children.length ?? 0) === 0) return;
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const loaded = entries.map((entry) => new URL(entry.name).pathname);
      // When the first shards were asked for and when the last of them had arrived.
      const shards = entries.filter((entry) => entry.name.includes('/shards/'));
      (window as unknown as { benchFirst: unknown }).benchFirst = {
        at: performance.now(),
        loaded: [location.pathname, ...loaded],
        asked: Math.min(...shards.map((entry) => entry.startTime)),
        arrived: Math.max(...shards.map((entry) => entry.responseEnd)),
      };
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await server.takeSent();
  // Not until "load": shard scripts added while the page loads hold that event back.
  await page.goto(`${server.url}${path}`, { waitUntil: 'domcontentloaded' });
  const complete = await pageCondition(page, `document.getElementById('search-status')?.dataset.state === 'done'`, completeTimeout);
  if (!complete && !(await pageCondition(page, 'window.benchFirst !== undefined', 300_000))) throw new Error('no first results within 300 s');
  const done = complete ? await page.evaluate(() => performance.getEntriesByName('tmsnap-search-done')[0]?.startTime ?? Number.NaN) : Number.NaN;
  const first = await page.evaluate(() => (window as unknown as { benchFirst?: { at: number; loaded: string[]; asked: number; arrived: number } }).benchFirst);
  const firstBytes = await server.sentFor(first?.loaded ?? []);
  const [started = Number.NaN, indexed = Number.NaN] = await page.evaluate(() =>
    ['tmsnap-search-start', 'tmsnap-search-index'].map((name) => performance.getEntriesByName(name)[0]?.startTime ?? Number.NaN),
  );
  const doneBytes = await server.takeSent();
  // While shards still load, the status names parts as well as results: no count then.
  const results = complete
    ? // "1,158 strings, 57,900 translations": the translations found, the status's last number.
      await page.evaluate(() =>
        Number.parseInt(
          ((document.getElementById('search-status')?.textContent ?? '').match(/\d[\d,.\u00a0\u202f]*/g) ?? []).at(-1)?.replace(/\D/g, '') ?? '',
          10,
        ),
      )
    : Number.NaN;
  await page.evaluate(() => performance.clearMeasures('tmsnap-search'));
  const query = await page.inputValue('#search-q');
  await page.fill('#search-q', '');
  // Each key waits for its own first results (the `tmsnap-search` measure): a page that searches
  // in workers draws them an answer later, and a next key before that would drop its search.
  for (const [at, character] of [...query].entries()) {
    await page.locator('#search-q').pressSequentially(character);
    await pageCondition(page, `performance.getEntriesByName('tmsnap-search').length > ${at}`, 10_000);
  }
  const keys = await page.evaluate(() => performance.getEntriesByName('tmsnap-search').map((entry) => entry.duration));
  const keysDone: number[] = [];
  // `--skip-keys-complete`: each keystroke to complete results is a whole query again, minutes at 1M on a loaded machine.
  if (complete && !args['skip-keys-complete']) {
    for (let length = 1; length <= query.length; length++) {
      const took = await page.evaluate(
        // No named functions in here: a transform that keeps names (tsx, esbuild) would wrap them in a helper the page does not have.
        async (text) => {
          const input = document.getElementById('search-q') as HTMLInputElement;
          const started = performance.now();
          performance.clearMarks('tmsnap-search-done');
          input.value = text;
          input.dispatchEvent(new Event('input', { bubbles: true }));
          while (performance.getEntriesByName('tmsnap-search-done').length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
          return performance.getEntriesByName('tmsnap-search-done')[0]!.startTime - started;
        },
        query.slice(0, length),
      );
      keysDone.push(took);
    }
  }
  await context.close();
  return {
    first: first?.at ?? Number.NaN,
    firstBytes,
    done,
    doneBytes,
    results,
    started,
    indexed,
    shardsAsked: first?.asked ?? Number.NaN,
    shardsArrived: first?.arrived ?? Number.NaN,
    keys,
    keysDone,
  };
}

const bench = startBench('search');
const snapshot = await openSnapshot(contentDir, args.snapshot);
const translations = await snapshot.translations();
const languages = new Set(translations.map((translation) => translation.record.language_code));
let unitCount = 0;
let unitBytes = 0;
// Unit data as canonical JSON, the bytes a reader decodes: format 2 stores them in compressed
// chunks, so their size on disk is no longer the yardstick for the index (docs/snapshot-format.md).
// `--skip-unit-bytes` counts units from the translations' totals instead (10M units take
// minutes to read twice).
for (const translation of translations) {
  if (args['skip-unit-bytes']) {
    unitCount += translation.record.total;
    unitBytes = Number.NaN;
    continue;
  }
  const units = await snapshot.units(translation.path);
  unitCount += units.length;
  unitBytes += Buffer.byteLength(canonicalJson(units));
}

const browserVersion = (await run('/usr/bin/chromium', ['--version'])).stdout.trim();
console.log(`browser: ${browserVersion}`);
console.log(
  `input: snapshot ${snapshot.id} of ${snapshot.manifest.server.base_url}: ${unitCount} units in ${translations.length} translations, ${languages.size} languages; unit lists ${megabytes(unitBytes)} as canonical JSON`,
);

const work = await mkdtemp(join(tmpdir(), 'tmsnap-bench-search-'));
const dist = resolve(args['index-from'] ?? args.out ?? join(work, 'dist'));
try {
  let buildMs = Number.NaN;
  let indexMs: number;
  let pagefindMs = Number.NaN;
  let pagefind = { bytes: Number.NaN, files: 0 };
  if (args['index-from']) {
    await bundleApp(join(dist, 'search/app.js'));
    indexMs = Number.NaN;
    // Pagefind's index from the full run that built this folder (its build time is that run's).
    if (withPagefind) pagefind = await treeBytes(join(dist, 'pagefind'));
  } else if (args['index-only']) {
    if (!args['page-from']) throw new Error('--index-only needs --page-from DIR, a site built earlier (its search page and stylesheet are reused)');
    for (const path of ['search/index.html', 'assets']) await cp(join(resolve(args['page-from']), path), join(dist, path), { recursive: true });
    const started = performance.now();
    await buildSearchIndex(snapshot, dist, { records: await searchRecords(snapshot), unitHref: siteUnitHref });
    indexMs = performance.now() - started;
    // The page's script is not borrowed: it must be the one that reads this index.
    await bundleApp(join(dist, 'search/app.js'));
  } else {
    // 1. The site build, which writes the search index last and says how long that took.
    const buildStarted = performance.now();
    const build = await run(
      process.execPath,
      // --verbose: Astro's log, where the search integration says how long the index took.
      [join(repo, 'bin/tmsnap.js'), 'build', '--verbose', '--content', contentDir, ...(args.snapshot ? ['--snapshot', args.snapshot] : []), '--out', dist],
      {
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    buildMs = performance.now() - buildStarted;
    // Astro's logger (the search integration's line) writes to stdout.
    const indexLine = /search index of .*, ([\d.]+) s$/m.exec(build.stdout + build.stderr);
    if (!indexLine) throw new Error(`tmsnap build did not report its search index:\n${(build.stdout + build.stderr).slice(-2000)}`);
    indexMs = Number(indexLine[1]) * 1000;

    // 2. Pagefind over the same HTML.
    const pagefindStarted = performance.now();
    await run(join(repo, 'node_modules/.bin/pagefind'), ['--site', dist, '--output-subdir', 'pagefind', '--silent'], { maxBuffer: 64 * 1024 * 1024 });
    pagefindMs = performance.now() - pagefindStarted;
    pagefind = await treeBytes(join(dist, 'pagefind'));
    await writeFile(
      join(dist, 'pagefind-bench.html'),
      `<!doctype html><html lang="en"><meta charset="utf-8"><title>pagefind bench</title><script type="module">
const pagefind = await import('./pagefind/pagefind.js');
await pagefind.options({ excerptLength: 20 });
window.pagefindQuery = async (text) => {
  const started = performance.now();
  const search = await pagefind.search(text);
  const first = await Promise.all(search.results.slice(0, 10).map((result) => result.data()));
  return { ms: performance.now() - started, count: search.results.length, first: first.length };
};
// Like the search page, a query in the URL runs at once: the cold figure is page load to results.
const query = new URLSearchParams(location.search).get('q');
if (query) {
  const cold = await window.pagefindQuery(query);
  window.pagefindCold = { ...cold, at: performance.now() };
}
window.pagefindReady = true;
</script></html>`,
    );
  }
  const onDisk = await treeBytes(join(dist, 'search'));
  const routes = await readFile(join(dist, 'search', routesFile));

  // 3. The query: a word from the middle of the source strings, in one language.
  const manifestText = await readFile(join(dist, 'search/manifest.js'), 'utf8');
  let manifest: SearchManifest | undefined;
  let sources: SourceShardData | undefined;
  const capture = (target: 'manifest' | 'sources') => (_: string, data: unknown) => {
    if (target === 'manifest') manifest = data as SearchManifest;
    else sources = data as SourceShardData;
  };
  new Function('tmsnapSearch', manifestText)(capture('manifest'));
  if (!manifest) throw new Error('search/manifest.js registered nothing');
  // A language with units: the manifest also names languages no translation uses.
  const withUnits = new Set(manifest.targets.map((target) => target.language));
  const language =
    args.lang ??
    manifest.languages.find((entry, position) => !['en', 'en_US'].includes(entry.code) && withUnits.has(position))?.code ??
    manifest.languages[0]!.code;
  new Function('tmsnapSearch', await readFile(join(dist, 'search', manifest.buckets.find((bucket) => bucket.sources)!.sources!.file), 'utf8'))(
    capture('sources'),
  );
  const words = (sources?.texts ?? []).flatMap((forms) => tokenize(forms[0] ?? '')).filter((word) => word.length >= 5);
  const query = args.query ?? words[Math.floor(words.length / 2)] ?? 'file';
  console.log(`query: "${query}" in language ${language}, then in all languages (typed one character at a time after the first results)`);

  const server = await serve(dist, args.identity);
  if (!args.identity) {
    const warming = performance.now();
    await server.warm(['search', 'assets']);
    console.log(`served gzip (Content-Encoding), the search index and assets compressed before the runs in ${seconds(performance.now() - warming)}`);
  } else console.log('served as on disk (--identity): bytes counted as gzip, sent uncompressed');
  const compared = args.compare === undefined ? undefined : await serve(resolve(args.compare), args.identity);
  if (compared && !args.identity) await compared.warm(['search', 'assets']);
  const browser = await launch();
  const scopes = [
    { label: `${language} only`, params: `&lang=${encodeURIComponent(language)}` },
    { label: 'all languages', params: '' },
  ];
  // With --compare, each scope is measured on the other site right after ours.
  const ours = scopes.flatMap((scope) => [
    { ...scope, server, runs: [] as OurRun[] },
    ...(compared ? [{ ...scope, label: `${args['compare-label']}: ${scope.label}`, server: compared, runs: [] as OurRun[] }] : []),
  ]);
  const theirFirst: number[] = [];
  const theirBytes: number[] = [];
  const theirKeys: number[] = [];
  let theirResults = 0;
  try {
    for (let attempt = 0; attempt < runs; attempt++) {
      // Turn about: with --compare, odd runs measure the other site first, as the first of a pair started later at high load.
      const turn = compared && attempt % 2 === 1 ? ours.flatMap((_, at) => (at % 2 === 0 ? [ours[at + 1]!, ours[at]!] : [])) : ours;
      for (const scope of turn) scope.runs.push(await measureOurs(browser, scope.server, `search/index.html?q=${encodeURIComponent(query)}${scope.params}`));
      if (!withPagefind) continue;

      const theirContext = await browser.newContext();
      const theirPage = await theirContext.newPage();
      await server.takeSent();
      await theirPage.goto(`${server.url}pagefind-bench.html?q=${encodeURIComponent(query)}`);
      await theirPage.waitForFunction(() => (window as unknown as { pagefindReady?: boolean }).pagefindReady === true, undefined, { timeout: 120_000 });
      const cold = await theirPage.evaluate(() => (window as unknown as { pagefindCold: { at: number; count: number } }).pagefindCold);
      theirFirst.push(cold.at);
      theirBytes.push(await server.takeSent());
      theirResults = cold.count;
      for (let length = 1; length <= query.length; length++) {
        const step = await theirPage.evaluate(
          async (text) => (window as unknown as { pagefindQuery: (q: string) => Promise<{ ms: number }> }).pagefindQuery(text),
          query.slice(0, length),
        );
        theirKeys.push(step.ms);
      }
      await theirContext.close();
    }
  } finally {
    await browser.close();
    await server.close();
    await compared?.close();
  }

  const siteShare = (ms: number) =>
    Number.isNaN(buildMs) ? '' : ` (+${((ms / (buildMs - indexMs)) * 100).toFixed(1)}% on the ${seconds(buildMs - indexMs)} site build)`;
  const skipped = 'not run (--index-only)';
  const theirs = (value: () => string) => (withPagefind ? value() : skipped);
  const stat = (values: number[], format: (value: number) => string) => `median ${format(median(values))}`;
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const rows: [string, string, string][] = [
    [
      'index build',
      `${seconds(indexMs)}${siteShare(indexMs)}`,
      theirs(() => (Number.isNaN(pagefindMs) ? 'built by an earlier run' : `${seconds(pagefindMs)}${siteShare(pagefindMs)}`)),
    ],
    [
      'index on disk',
      `${megabytes(onDisk.bytes)} in ${onDisk.files} files (${((onDisk.bytes / unitBytes) * 100).toFixed(1)}% of unit data)`,
      theirs(() => `${megabytes(pagefind.bytes)} in ${pagefind.files} files (${((pagefind.bytes / unitBytes) * 100).toFixed(1)}%)`),
    ],
    ['routing table (routes.js)', `${megabytes(routes.length)}, ${megabytes(gzipSync(routes).length)} gzip`, ''],
    ['pagefind: results', '', theirs(() => `${theirResults} pages (all languages; top 10 loaded)`)],
    [
      'pagefind: cold first results',
      '',
      theirs(() => `median ${median(theirFirst).toFixed(0)} ms of ${runs}, ${megabytes(median(theirBytes))} fetched (gzip)`),
    ],
    [
      'pagefind: per keystroke',
      '',
      theirs(() => `median ${median(theirKeys).toFixed(1)} ms, max ${Math.max(...theirKeys).toFixed(1)} ms (${theirKeys.length})`),
    ],
  ];
  // Ours against Pagefind's cold query (to its count and its first ten results) and its keystrokes, as a ratio.
  const versus = (ours: number, theirs: number[]) =>
    withPagefind && theirs.length > 0 ? `${(ours / median(theirs)).toFixed(2)} × pagefind's ${median(theirs).toFixed(0)} ms` : '';
  for (const scope of ours) {
    const pick = (key: 'first' | 'firstBytes' | 'done' | 'doneBytes' | 'started' | 'indexed' | 'shardsAsked' | 'shardsArrived') =>
      scope.runs.map((entry) => entry[key]);
    const keys = scope.runs.flatMap((entry) => entry.keys);
    const keysDone = scope.runs.flatMap((entry) => entry.keysDone);
    rows.push(
      [`${scope.label}: results`, `${scope.runs.at(-1)?.results ?? 0}`, ''],
      [
        `${scope.label}: first results`,
        `${stat(pick('first'), ms)} of ${runs} (${pick('first').map(ms).join(', ')}), ${stat(pick('firstBytes'), megabytes)} fetched (gzip)`,
        versus(median(pick('first')), theirFirst),
      ],
      // Where the start went: at this machine's loads the spread of first results is mostly here.
      [
        `${scope.label}: script started, index in`,
        `${stat(pick('started'), ms)}, ${stat(pick('indexed'), ms)}; first shards asked for ${stat(pick('shardsAsked'), ms)}, in ${stat(pick('shardsArrived'), ms)}`,
        '',
      ],
      [`${scope.label}: complete`, `${stat(pick('done'), ms)}, ${stat(pick('doneBytes'), megabytes)} fetched (gzip)`, versus(median(pick('done')), theirFirst)],
      [
        `${scope.label}: per keystroke`,
        `median ${median(keys).toFixed(1)} ms, max ${Math.max(...keys).toFixed(1)} ms (${keys.length})`,
        versus(median(keys), theirKeys),
      ],
      [
        `${scope.label}: keystroke to complete`,
        keysDone.length === 0
          ? args['skip-keys-complete']
            ? 'not measured (--skip-keys-complete)'
            : `not measured (complete results not within ${args['complete-timeout']} s)`
          : `median ${median(keysDone).toFixed(1)} ms, max ${Math.max(...keysDone).toFixed(1)} ms (${keysDone.length})`,
        '',
      ],
    );
  }
  const width = Math.max(...rows.map(([, value]) => value.length));
  const labelWidth = Math.max(...rows.map(([label]) => label.length)) + 2;
  console.log(
    `\n${''.padEnd(labelWidth)}${'tmsnap (MiniSearch shards)'.padEnd(width + 2)}pagefind ${(await run(join(repo, 'node_modules/.bin/pagefind'), ['--version'])).stdout.trim()}`,
  );
  for (const [label, ourValue, theirValue] of rows) console.log(`${label.padEnd(labelWidth)}${ourValue.padEnd(width + 2)}${theirValue}`);
  console.log(`load average at the end: ${loadText(bench.load())} (at the start: ${loadText(bench.loadAtStart)})`);
  if (!indexOnly) console.log(`site build total ${seconds(buildMs)} (Astro + search index)`);

  const results = join(repo, 'bench/results');
  await mkdir(results, { recursive: true });
  const record = {
    snapshot: snapshot.id,
    units: unitCount,
    unitBytes,
    language,
    query,
    buildMs,
    indexMs,
    pagefindMs,
    ours: { ...onDisk, routeBytes: routes.length, scopes: ours.map(({ label, runs }) => ({ label, runs })) },
    compare: args.compare ?? null,
    pagefind: { ...pagefind, first: theirFirst, bytes: theirBytes, keys: theirKeys, results: theirResults },
  };
  await writeFile(join(results, `search-${snapshot.id}.json`), `${JSON.stringify(record, null, 2)}\n`);
  await bench.record({
    input: {
      size: args.scenario ?? `${unitCount} units`,
      about: `snapshot ${snapshot.id}: ${unitCount} units, ${translations.length} translations, ${languages.size} languages; "${query}" in ${language}; ${runs} cold runs in ${browserVersion}${args.identity ? ', uncompressed' : ', gzip'}`,
    },
    figures: [
      figureOf('search index build', 's', indexMs / 1000),
      figureOf('search index on disk', 'MB', onDisk.bytes / 1e6),
      figureOf('site build with the index', 's', buildMs / 1000),
      figureOf('pagefind index build', 's', pagefindMs / 1000),
      figureOf('pagefind index on disk', 'MB', pagefind.bytes / 1e6),
      figureOf('pagefind: cold first results', 'ms', theirFirst),
      figureOf(
        'pagefind: cold fetched (gzip)',
        'MB',
        theirBytes.map((bytes) => bytes / 1e6),
      ),
      figureOf('pagefind: per keystroke', 'ms', theirKeys),
      ...ours.flatMap((scope) => [
        figureOf(
          `${scope.label}: cold first results`,
          'ms',
          scope.runs.map((entry) => entry.first),
        ),
        figureOf(
          `${scope.label}: fetched by first results (gzip)`,
          'MB',
          scope.runs.map((entry) => entry.firstBytes / 1e6),
        ),
        figureOf(
          `${scope.label}: complete`,
          'ms',
          scope.runs.map((entry) => entry.done),
        ),
        figureOf(
          `${scope.label}: per keystroke`,
          'ms',
          scope.runs.flatMap((entry) => entry.keys),
        ),
        figureOf(
          `${scope.label}: keystroke to complete`,
          'ms',
          scope.runs.flatMap((entry) => entry.keysDone),
        ),
      ]),
    ],
  });
} finally {
  if (args.keep || args.out || args['index-from']) console.log(`kept ${dist}`);
  else await rm(work, { recursive: true, force: true });
}
