/**
 * Regenerates the screenshots of the README and docs/guide.md (issue 28) from the bundled demo
 * data, so they never show a site older than the code:
 *
 *   node scripts/screenshots.ts [--out docs/images]
 *
 * Plays the nights of `tmsnap demo --nights 3` (cli/demo-nights.ts: the same edits, dates and
 * tags) against the reference server over the bundled catalogs on a fixed port (so that the
 * links to the server in the pictures are the same on every run), builds the site as the demo
 * does (its title, `--credits`) into a temp folder, and also with `--ui-lang ar`, serves it on
 * 127.0.0.1 and photographs each kind of page in Debian's Chromium (`/usr/bin/chromium`, as the
 * browser tests drive it); the string's page and the pages added by issue 26 also on a 390 px
 * phone and with `--ui-lang ar`.
 * Writes `<out>/<page kind>[-phone][-ar].png`, and nothing else; the temp folder is removed.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { demoTitle } from '../cli/demo.ts';
import { guideScenario, maxNights, playNights } from '../cli/demo-nights.ts';
import { raisedRateLimit } from '../packages/reference-server/rate-limit.ts';
import { startReferenceServer } from '../packages/reference-server/server.ts';
import { TEST_TOKEN } from '../test/archive/crawl.ts';
import { buildJson } from '../test/docs/demo-build.ts';
import { crawlComplete } from '../test/helpers/crawl.ts';
import { bundledModel } from '../test/helpers/reference-server.ts';
import { launchChromium, serveStatic } from '../test/site/browser.ts';

const repo = resolve(import.meta.dirname, '..');

/** The translation the pictures follow: the demo's nights' (cli/demo-nights.ts). */
const subject = guideScenario.subject;

/** The releases tagged: the second night's snapshot and the last one. */
const releases = guideScenario.releases;

/**
 * The reference server's port: Django's `runserver` default, as on a Weblate developer's machine.
 * A free port would differ on every run, and the site's links to the server with it (issue 28).
 */
const serverPort = 8000;

/** The demo's three nights into `content`: the snapshots' ids and the strings the reviewer marked. */
async function crawlThreeNights(content: string, now: Date): Promise<{ ids: string[]; unitIds: number[] }> {
  let clock = now;
  const model = await bundledModel(() => clock);
  const server = await startReferenceServer({
    model,
    host: '127.0.0.1',
    port: serverPort,
    behaviours: { tokens: [TEST_TOKEN], rateLimit: raisedRateLimit },
  }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new Error(`port ${serverPort} of 127.0.0.1 is taken: the pictures show the server's address, so it is always this one; free it and run again`);
  });
  try {
    const played = await playNights({
      model,
      scenario: guideScenario,
      nights: maxNights,
      content,
      now,
      setClock: (date) => (clock = date),
      crawlNight: async (full) => (await crawlComplete(server, content, { token: TEST_TOKEN, full })).snapshotId,
      say: (line) => console.error(`screenshots: ${line}`),
    });
    if (played === undefined) throw new Error("a night's crawl did not complete");
    return played;
  } finally {
    await server.close();
  }
}

interface Shot {
  /** The file name under the output folder, without `.png`. */
  name: string;
  /** Path under the site's root, with query and fragment. */
  path: string;
  /** Waits until the page shows what it is photographed for. */
  ready?: string;
  /** Photograph only the elements this CSS selector matches (the box around them all), not the window. */
  element?: string;
  /** Follow the first link this CSS selector matches before photographing: pages whose path only the site knows. */
  follow?: string;
  /** The site built with `--ui-lang ar` rather than the English one. */
  arabic?: boolean;
  /** A phone's window (390 px wide) rather than a desktop's. */
  phone?: boolean;
}

/** Waits for the search page's results, at least one. */
const searchDone = "document.getElementById('search-status')?.dataset.state === 'done' && document.querySelectorAll('#search-results > li').length > 0";

/** The pages photographed: one of each kind, the subject translation's where a page is one of many. */
function shots(ids: string[], unitId: number): Shot[] {
  const base = `projects/${subject.project}/${subject.component}`;
  return [
    { name: 'home', path: 'index.html' },
    { name: 'project', path: `projects/${subject.project}/index.html` },
    { name: 'component', path: `${base}/index.html` },
    { name: 'translation', path: `${base}/${subject.language}/index.html` },
    { name: 'history', path: `${base}/${subject.language}/index.html`, element: 'section.history' },
    { name: 'strings', path: `${base}/${subject.language}/units/1/index.html` },
    // The first string the reviewer touched is on the first page of strings, its row the page's :target, its history the row under it.
    {
      name: 'string-history',
      path: `${base}/${subject.language}/units/1/index.html#unit-${unitId}`,
      element: `#unit-${unitId}, #unit-${unitId} + tr.history-of`,
    },
    // A string's page, reached from its row; on a phone and in the Arabic interface too (issue 26).
    ...[
      { name: 'string', phone: false, arabic: false },
      { name: 'string-phone', phone: true, arabic: false },
      { name: 'string-ar', phone: false, arabic: true },
      { name: 'string-phone-ar', phone: true, arabic: true },
      { name: 'strings-phone', phone: true, arabic: false, page: true },
    ].map(({ name, phone, arabic, page }) => ({
      name,
      path: `${base}/${subject.language}/units/1/index.html#unit-${unitId}`,
      ...(page ? {} : { follow: `#unit-${unitId} td:last-child a` }),
      phone,
      arabic,
    })),
    { name: 'language', path: `languages/${subject.language}/index.html` },
    {
      name: 'search',
      path: 'search/index.html?q=password',
      ready: searchDone,
    },
    { name: 'changes', path: 'changes/index.html' },
    { name: 'what-changed', path: `changes-between/${ids[1]}--${ids[2]}/index.html` },
    ...newKinds().flatMap(threeWays),
  ];
}

/** The pages issue 26 added, each photographed three ways (`threeWays`). */
function newKinds(): Shot[] {
  const translation = `projects/${subject.project}/${subject.component}/${subject.language}`;
  return [
    { name: 'help-needed', path: `languages/${subject.language}/index.html`, element: '#help-needed, #help-intro, #help' },
    { name: 'needs', path: `${translation}/needs/needs-editing/index.html` },
    { name: 'search-state', path: `search/index.html?lang=${subject.language}&state=needs-editing`, ready: searchDone },
    { name: 'consistency', path: `languages/${subject.language}/consistency/index.html` },
    { name: 'releases', path: 'releases/index.html' },
    { name: 'release', path: `releases/${releases.at(-1)}/index.html` },
    { name: 'drift', path: `drift/${subject.language}/index.html` },
    { name: 'credits', path: 'credits/index.html' },
  ];
}

/** A page on a desktop, on a 390 px phone, and in the Arabic interface: `<name>.png`, `<name>-phone.png`, `<name>-ar.png`. */
function threeWays(shot: Shot): Shot[] {
  return [shot, { ...shot, name: `${shot.name}-phone`, phone: true }, { ...shot, name: `${shot.name}-ar`, arabic: true }];
}

/** Pixels of the page kept around the elements a picture is clipped to. */
const margin = 8;

/** The window down to just below the footer when the page is shorter than the window: no empty half picture. */
async function shortPage(page: Page): Promise<{ x: number; y: number; width: number; height: number } | undefined> {
  const { width, height } = page.viewportSize()!;
  const end = await page.evaluate(() =>
    document.documentElement.scrollHeight > window.innerHeight ? undefined : document.querySelector('footer')?.getBoundingClientRect().bottom,
  );
  return end === undefined ? undefined : { x: 0, y: 0, width, height: Math.min(height, Math.ceil(end) + 2 * margin) };
}

async function photograph(browser: Browser, root: string, shot: Shot, out: string): Promise<void> {
  const page = await browser.newPage({ viewport: shot.phone ? { width: 390, height: 844 } : { width: 1280, height: 800 } });
  try {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(new URL(shot.path, root).href);
    if (!response?.ok()) throw new Error(`${shot.path} answered ${response?.status()}`);
    if (shot.follow) {
      const href = await page.locator(shot.follow).first().getAttribute('href');
      if (href === null) throw new Error(`${shot.path}: no link ${shot.follow}`);
      await page.goto(new URL(href, page.url()).href);
    }
    if (shot.ready) await page.waitForFunction(shot.ready, undefined, { timeout: 60_000 });
    if (errors.length > 0) throw new Error(`${shot.path}: ${errors.join('; ')}`);
    const file = join(out, `${shot.name}.png`);
    if (shot.element) {
      const boxes = await page.locator(shot.element).evaluateAll((elements) =>
        elements.map((element) => {
          const box = element.getBoundingClientRect();
          let [left, right] = [box.left, box.right];
          // Only the part a reader sees: a table wider than its scrolling wrapper is cut at the wrapper's edge.
          for (let outer = element.parentElement; outer; outer = outer.parentElement) {
            if (getComputedStyle(outer).overflowX === 'visible') continue;
            const clip = outer.getBoundingClientRect();
            [left, right] = [Math.max(left, clip.left), Math.min(right, clip.right)];
          }
          return [left + window.scrollX, box.top + window.scrollY, right + window.scrollX, box.bottom + window.scrollY];
        }),
      );
      if (boxes.length === 0) throw new Error(`${shot.path}: nothing matches ${shot.element}`);
      const [left, top, right, bottom] = [0, 1, 2, 3].map((side) => (side < 2 ? Math.min : Math.max)(...boxes.map((box) => box[side]!)));
      // A little of the page around them, so that no letter touches the picture's edge.
      const [x, y] = [Math.max(0, left! - margin), Math.max(0, top! - margin)];
      const width = Math.min(right! + margin, page.viewportSize()!.width) - x;
      await page.screenshot({ path: file, fullPage: true, clip: { x, y, width, height: bottom! + margin - y } });
    } else {
      const clip = await shortPage(page);
      await page.screenshot({ path: file, ...(clip ? { clip } : {}) });
    }
  } finally {
    await page.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string', default: join(repo, 'docs', 'images') } } });
  const out = resolve(values.out);
  const work = await mkdtemp(join(tmpdir(), 'tmsnap-screenshots-'));
  try {
    const content = join(work, 'content');
    const site = join(work, 'site');
    console.error('screenshots: the nights of `tmsnap demo --nights 3`');
    const { ids, unitIds } = await crawlThreeNights(content, new Date());
    console.error('screenshots: building the site as the demo does, in English and in Arabic');
    await buildJson(content, site, ['--credits', '--title', demoTitle]);
    await buildJson(content, `${site}-ar`, ['--credits', '--title', demoTitle, '--ui-lang', 'ar']);
    const servers = await Promise.all([serveStatic(site), serveStatic(`${site}-ar`)]);
    const browser = await launchChromium();
    try {
      await mkdir(out, { recursive: true });
      for (const shot of shots(ids, unitIds[0]!)) {
        await photograph(browser, servers[shot.arabic ? 1 : 0]!.url, shot, out);
        console.error(`screenshots: ${join(out, `${shot.name}.png`)}`);
      }
    } finally {
      await browser.close();
      await Promise.all(servers.map((server) => server.close()));
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
