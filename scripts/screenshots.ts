/**
 * Regenerates the screenshots of the README and docs/guide.md (issue 28) from the bundled demo
 * data, so they never show a site older than the code:
 *
 *   node --import tsx scripts/screenshots.ts [--out docs/images]
 *
 * Starts the reference server over the bundled catalogs, crawls it three times a day apart with
 * a reviewer's activity between the crawls (so that the history charts, string histories and
 * what-changed pages have something to show), builds the site into a temp folder, serves it on
 * 127.0.0.1 and photographs each kind of page in Debian's Chromium (`/usr/bin/chromium`, as the
 * browser tests drive it), a string's page also on a 390 px phone and with `--ui-lang ar`.
 * Writes `<out>/<page kind>.png`, and nothing else; the temp folder is removed.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import type { MemoryModel } from '../packages/reference-server/memory-model.ts';
import { crawlInto, historyServer, redate } from '../test/archive/crawl.ts';
import { buildJson } from '../test/docs/demo-build.ts';
import { bundledModel } from '../test/helpers/reference-server.ts';
import { launchChromium, serveStatic } from '../test/site/browser.ts';

const repo = resolve(import.meta.dirname, '..');

/** The translation the screenshots follow, and how many of its strings the reviewer touches. */
const subject = { project: 'django', component: 'admin', language: 'de', strings: 12 };

/** Crawl dates: the day before yesterday, yesterday and today, at 04:15 UTC like a nightly job. */
function crawlDates(now: Date): Date[] {
  const day = (back: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - back, 4, 15));
  return [day(2), day(1), day(0)];
}

/** The subject translation's translated units, first `count` in file order. */
function subjectUnits(model: MemoryModel, count: number) {
  const project = model.projects().find((row) => row.slug === subject.project);
  const component = model.components().find((row) => row.projectId === project?.id && row.slug === subject.component);
  const translation = model.translations().find((row) => row.componentId === component?.id && row.languageCode === subject.language);
  if (!translation) throw new Error(`the bundled data has no translation ${subject.project}/${subject.component}/${subject.language}`);
  return model
    .units(translation.id, 0, model.unitCount(translation.id))
    .filter((unit) => unit.state === 20)
    .slice(0, count);
}

/**
 * Three snapshots of the bundled data: as bundled; after a reviewer marked some of the subject's
 * strings for editing; after the translator saved them again. Real work, in Weblate's words,
 * rather than random text: the pages show what a user would see.
 */
async function crawlThreeDays(content: string, now: Date): Promise<{ ids: string[]; unitIds: number[] }> {
  const dates = crawlDates(now);
  let clock = dates[0]!;
  const model = await bundledModel(() => clock);
  const user = model.users()[0]?.username ?? 'admin';
  const touched = subjectUnits(model, subject.strings);
  const server = await historyServer(model);
  try {
    const ids: string[] = [];
    for (const [index, date] of dates.entries()) {
      clock = new Date(date.getTime() - 3_600_000);
      if (index === 1) for (const unit of touched) model.markForEdit(unit.id, user);
      if (index === 2) for (const unit of touched) model.translate(unit.id, unit.target, user);
      ids.push(await redate(content, await crawlInto(server, content), date));
    }
    return { ids, unitIds: touched.map((unit) => unit.id) };
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
      ready: "document.getElementById('search-status')?.dataset.state === 'done' && document.querySelectorAll('#search-results > li').length > 0",
    },
    { name: 'changes', path: 'changes/index.html' },
    { name: 'what-changed', path: `changes-between/${ids[1]}--${ids[2]}/index.html` },
  ];
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
          return [box.left + window.scrollX, box.top + window.scrollY, box.right + window.scrollX, box.bottom + window.scrollY];
        }),
      );
      if (boxes.length === 0) throw new Error(`${shot.path}: nothing matches ${shot.element}`);
      const [left, top, right, bottom] = [0, 1, 2, 3].map((side) => (side < 2 ? Math.min : Math.max)(...boxes.map((box) => box[side]!)));
      await page.screenshot({ path: file, fullPage: true, clip: { x: left!, y: top!, width: right! - left!, height: bottom! - top! } });
    } else await page.screenshot({ path: file });
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
    console.error('screenshots: crawling the bundled data three times');
    const { ids, unitIds } = await crawlThreeDays(content, new Date());
    console.error('screenshots: building the site, in English and in Arabic');
    await buildJson(content, site);
    await buildJson(content, `${site}-ar`, ['--ui-lang', 'ar']);
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
