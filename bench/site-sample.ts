/**
 * `npm run bench:site-sample -- [DIST]` (default bench/results/1m/dist): the browser tests on a
 * sample of a built site too large for the suite (issue 14: the 1M site). Serves DIST on
 * 127.0.0.1 and opens it in headless Chromium over HTTP and from file://: the home page, a
 * project, a translation, a unit page at a string's permalink, that string's page in every
 * language, and search in one language and in all. Each page must load without script errors,
 * show what it is for, and have no serious or critical axe-core violation (the site tests'
 * rule, with their helpers). Prints pass or fail per page, how long each took (not asserted),
 * the machine, the load and the site's size; exits 1 if a page failed.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, posix, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, seriousViolations, serveStatic } from '../test/site/browser.ts';
import { figureOf, loadText, startBench } from './harness.ts';

const repo = resolve(import.meta.dirname, '..');
const dist = resolve(process.argv[2] ?? join(repo, 'bench/results/1m/dist'));

/** The first entry of a folder that is itself a folder, in name order (the sample is the same on every run). */
async function firstFolder(path: string, skip: (name: string) => boolean = () => false): Promise<string> {
  const entries = (await readdir(path, { withFileTypes: true })).filter((entry) => entry.isDirectory() && !skip(entry.name));
  const first = entries.map((entry) => entry.name).sort()[0];
  if (first === undefined) throw new Error(`no folder in ${path}`);
  return first;
}

/** The page kind of a file of the site, by its path (docs/site.md, "Pages"). */
export function pageKind(path: string): string {
  const parts = path.split('/');
  if (parts[0] !== 'projects') return ['changes', 'search', 'badges', 'languages', 'changes-between', 'data'].includes(parts[0]!) ? parts[0]! : 'other';
  if (parts.includes('units')) return 'unit pages';
  if (parts.includes('strings')) return 'string pages';
  if (parts[2] === 'changes' || parts.at(-1) === 'feed.xml') return 'project changes';
  if (parts.includes('file')) return 'raw files';
  return ['', '', 'project pages', 'component pages', 'translation pages'][parts.length - 1] ?? 'other';
}

interface Size {
  files: number;
  /** The files' own bytes, and what they take on disk (whole blocks, as `du` counts). */
  bytes: number;
  disk: number;
}

/** Files and bytes under `root` by page kind, walked once. */
async function siteSize(root: string): Promise<{ html: number; kinds: Map<string, Size> }> {
  let html = 0;
  const kinds = new Map<string, Size>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    if (entry.name.endsWith('.html')) html += 1;
    const full = join(entry.parentPath, entry.name);
    const info = await stat(full);
    const kind = pageKind(relative(root, full).split(sep).join('/'));
    const size = kinds.get(kind) ?? { files: 0, bytes: 0, disk: 0 };
    size.files += 1;
    size.bytes += info.size;
    size.disk += info.blocks * 512;
    kinds.set(kind, size);
  }
  return { html, kinds };
}

/** The sample: site paths found in DIST (first project, component and language by name), and search words taken from the unit page. */
async function pickSample() {
  const project = await firstFolder(join(dist, 'projects'));
  const component = await firstFolder(join(dist, 'projects', project), (name) => name === 'changes');
  const language = await firstFolder(join(dist, 'projects', project, component), (name) => name === 'strings');
  const translation = `projects/${project}/${component}/${language}/`;
  const unitPage = `${translation}units/1/index.html`;
  const units = await readFile(join(dist, unitPage), 'utf8');
  const unitId = /<tr id="(unit-\d+)"/.exec(units)?.[1];
  if (unitId === undefined) throw new Error(`${unitPage} holds no unit row`);
  const row = units.slice(units.indexOf(`id="${unitId}"`));
  const stringHref = /<a href="?([^"\s>]*\/strings\/[^"\s>]*)/.exec(row.slice(0, row.indexOf('<tr', 1)))?.[1];
  // A word of a translated text in the sampled language, and of a source text (a unit row's
  // third and fourth cells, src/utils/unit-html.ts): what a reader would search for.
  const texts = (cell: 1 | 2) =>
    [...units.matchAll(/<tr id="unit-\d+"><th>[^<]*<td[^>]*>[^<]*(?:<span[^>]*>[^<]*<\/span>)*<td[^>]*>([^<]+)<td(?! class="muted")[^>]*>([^<]+)<td>/g)].map(
      (match) => match[cell]!,
    );
  const words = (list: string[]) => list.flatMap((text) => text.split(/[\s%{}:.,…|()]+/)).filter((word) => word.length >= 4 && !word.includes('&'));
  const targetWord = words(texts(2))[0];
  const sourceWord = words(texts(1))[0];
  return {
    project,
    language,
    home: 'index.html',
    projectPage: `projects/${project}/index.html`,
    translationPage: `${translation}index.html`,
    permalink: `${unitPage}#${unitId}`,
    unitId,
    stringPage: stringHref ? posix.normalize(posix.join(posix.dirname(unitPage), stringHref.replaceAll('&amp;', '&'))) : undefined,
    targetWord,
    sourceWord,
  };
}

type Sample = Awaited<ReturnType<typeof pickSample>>;

interface Check {
  name: string;
  path: string;
  /** What the page must show beyond loading: throws when it does not. */
  expect: (page: Page) => Promise<string>;
}

function checks(sample: Sample): Check[] {
  const heading = async (page: Page) => `h1 "${(await page.locator('h1').innerText()).trim()}"`;
  const searched = (expected: string) => async (page: Page) => {
    // Results come grouped by source string: a group per string, a .search-hit row per translation.
    await page.locator('#search-results .search-hit').first().waitFor({ timeout: 180_000 });
    const groups = await page.locator('#search-results > li').count();
    const hits = await page.locator('#search-results .search-hit').count();
    return `${hits} translations in ${groups} strings shown (${expected})`;
  };
  const list: Check[] = [
    { name: 'home', path: sample.home, expect: heading },
    { name: 'project', path: sample.projectPage, expect: heading },
    {
      name: 'translation',
      path: sample.translationPage,
      expect: async (page) => `${await heading(page)}, ${await page.locator('#strings ~ * a[href*="units/"]').count()} unit page links`,
    },
    {
      name: 'unit page (permalink)',
      path: sample.permalink,
      expect: async (page) => {
        const target = page.locator(`#${sample.unitId}:target`);
        if ((await target.count()) !== 1) throw new Error(`#${sample.unitId} is not the page's :target`);
        return `#${sample.unitId} is the :target`;
      },
    },
  ];
  if (sample.stringPage)
    list.push({
      name: 'string page',
      path: sample.stringPage,
      expect: async (page) => `${await heading(page)}, ${await page.locator('tbody tr').count()} languages`,
    });
  if (sample.targetWord)
    list.push({
      name: `search, one language (${sample.language})`,
      path: `search/index.html?q=${encodeURIComponent(sample.targetWord)}&lang=${encodeURIComponent(sample.language)}`,
      expect: searched(`"${sample.targetWord}" in ${sample.language}`),
    });
  if (sample.sourceWord)
    list.push({
      name: 'search, all languages',
      path: `search/index.html?q=${encodeURIComponent(sample.sourceWord)}`,
      expect: searched(`"${sample.sourceWord}" in all`),
    });
  return list;
}

/** One axe violation line (`id: ["target"] ["target"] …`) as its rule, node count and first node. */
function summary(violation: string): string {
  const [rule = '', targets = ''] = violation.split(/: (.*)/s);
  const nodes = targets.split('] [');
  return `${rule} on ${nodes.length} node(s), first ${nodes[0]!.replace(/^\[/, '').slice(0, 120)}`;
}

async function runCheck(browser: Browser, root: string, check: Check): Promise<{ ok: boolean; line: string; seconds: number }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const started = performance.now();
  try {
    const response = await page.goto(`${root}${check.path}`, { waitUntil: 'load', timeout: 120_000 });
    if (response && !response.ok()) throw new Error(`HTTP ${response.status()}`);
    const shown = await check.expect(page);
    const seconds = (performance.now() - started) / 1000;
    const violations = await seriousViolations(page);
    if (violations.length > 0) throw new Error(`axe: ${violations.map(summary).join('; ')}`);
    if (errors.length > 0) throw new Error(`script errors: ${errors.join('; ')}`);
    return { ok: true, line: `pass  ${check.name}: ${shown}; ${seconds.toFixed(2)} s to show, no serious axe violation`, seconds };
  } catch (error) {
    return {
      ok: false,
      line: `FAIL  ${check.name} (${check.path}): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      seconds: Number.NaN,
    };
  } finally {
    await page.close();
  }
}

const bench = startBench('site-sample');
console.log(`site sample of ${dist}`);
const build = await readFile(join(dist, '..', 'build.json'), 'utf8')
  .then((text) => (JSON.parse(text) as { report: string }).report)
  .catch(() => undefined);
if (build) console.log(`built as: ${build.split('\n').slice(0, 2).join('; ')}`);
const { html, kinds } = await siteSize(dist);
const all = [...kinds.values()].reduce((sum, size) => ({ files: sum.files + size.files, bytes: sum.bytes + size.bytes, disk: sum.disk + size.disk }), {
  files: 0,
  bytes: 0,
  disk: 0,
});
// The build report's input line (bench/build.ts): `input: 27829 units, …`.
const units = /input: (\d+) units/.exec(build ?? '')?.[1];
console.log(
  `input: ${html} HTML pages, ${all.files} files, ${(all.bytes / 1e6).toFixed(1)} MB (${(all.disk / 1e6).toFixed(1)} MB on disk)${units ? `, ${(all.bytes / Number(units)).toFixed(0)} B per unit` : ''}`,
);
for (const [kind, size] of [...kinds].sort((a, b) => b[1].bytes - a[1].bytes))
  console.log(
    `  ${kind.padEnd(18)} ${String(size.files).padStart(6)} files ${(size.bytes / 1e6).toFixed(1).padStart(8)} MB ${(size.disk / 1e6).toFixed(1).padStart(8)} MB on disk ${(size.bytes / size.files / 1e3).toFixed(1).padStart(7)} KB a file`,
  );
const sample = await pickSample();
const server = await serveStatic(dist, 0);
const browser = await launchChromium();
let failed = 0;
let passed = 0;
const shown = new Map<string, number[]>();
try {
  for (const [how, root] of [
    ['over HTTP', server.url],
    ['from file://', `${pathToFileURL(dist).href}/`],
  ] as const) {
    console.log(`\n${how} (${root})`);
    for (const check of checks(sample)) {
      const result = await runCheck(browser, root, check);
      const { ok, line, seconds } = result;
      if (ok) passed += 1;
      else failed += 1;
      shown.set(check.name, [...(shown.get(check.name) ?? []), seconds]);
      console.log(`  ${line}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`\n${failed === 0 ? 'all pages passed' : `${failed} page(s) failed`}; load average after: ${loadText(bench.load())}`);
await bench.record({
  input: {
    size: units ? `${units} units` : `${html} pages`,
    about: `${dist}: ${html} HTML pages, ${all.files} files, ${(all.bytes / 1e6).toFixed(1)} MB; each page over HTTP and from file://`,
  },
  figures: [
    figureOf('pages passed', 'pages', passed),
    figureOf('pages failed', 'pages', failed),
    figureOf('site', 'MB', all.bytes / 1e6),
    ...[...shown].map(([name, seconds]) => figureOf(`${name}, to show`, 's', seconds)),
  ],
});
process.exitCode = failed === 0 ? 0 : 1;
