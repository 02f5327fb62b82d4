/**
 * The whole flow the site depends on: the reference server (tiny fixture rows with hostile
 * strings injected) → the crawler → a snapshot → `tmsnap build` → a browser over HTTP.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlComplete } from '../helpers/crawl.ts';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import { startReferenceServer, type ReferenceServer } from '../../packages/reference-server/server.ts';
import { checkLinks } from '../../site/link-check.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { buildWithCli, hasChromium, launchChromium, scratch, serveStatic } from './browser.ts';
import { hostile } from './fixture.ts';
import { useTempFolders } from '../helpers/temp.ts';

const chromium = hasChromium();

let work: string;
let content: string;
let dist: string;
let reference: ReferenceServer;
let site: Awaited<ReturnType<typeof serveStatic>>;
let browser: Browser;

/** The fixture rows, with hostile text where the site shows server data. */
function hostileRows() {
  const rows = fixtureRows();
  const hello = rows.projects.find((p) => p.slug === 'hello');
  if (hello) hello.instructions += `\r\n\r\n${hostile.script} [x](${hostile.link})`;
  const czech = rows.translations.find((t) => t.componentId === 1 && t.languageCode === 'cs');
  const firstCzech = rows.units.find((u) => u.translationId === czech?.id && u.position === 1);
  if (firstCzech) firstCzech.target = [hostile.script];
  const thirdCzech = rows.units.find((u) => u.translationId === czech?.id && u.position === 3);
  if (thirdCzech) thirdCzech.target = [hostile.attribute];
  return rows;
}

const tempFolder = useTempFolders('tmsnap-pipeline-', 'all', scratch);
beforeAll(async () => {
  work = await tempFolder();
  content = join(work, 'content');
  dist = join(work, 'dist');
  // With a token, as a Weblate 5.4 server shows users' notification subscriptions only to one:
  // the site must leave them out even when the crawl archived them.
  reference = await startReferenceServer({
    model: new MemoryModel(hostileRows()),
    host: '127.0.0.1',
    port: 0,
    behaviours: { changesNewestFirst: true, tokens: ['site-test'] },
  });
  await crawlComplete(reference, content, { concurrency: 2, token: 'site-test' });
  // A keyed crawl's site leaves the repository fields and private projects out unless opted in
  // (site-model/privacy.ts); the location links below need repoweb and branch, the figures every project.
  await buildWithCli(['--content', content, '--out', dist, '--publish', 'repository,private-projects']);
  site = await serveStatic(dist);
  if (chromium) browser = await launchChromium();
  // Crawl and build: minutes when the whole suite shares two cores.
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await reference?.close();
});

describe('a crawled reference server, built and browsed', () => {
  it.runIf(chromium)('shows the figures of the snapshot, keeps hostile strings inert and renders Arabic right to left', async () => {
    const snapshot = await openSnapshot(content);
    const translations = await snapshot.translations();
    const czech = translations.find((t) => t.path === 'api/translations/hello/po/cs/')?.record;
    if (!czech) throw new Error('the crawl lacks hello/po/cs');
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const inert = async () => {
      expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
      const hrefs = await page.$$eval('[href]', (elements) => elements.map((e) => e.getAttribute('href') ?? ''));
      expect(hrefs.filter((href) => /^\s*javascript:/i.test(href))).toEqual([]);
    };

    await page.goto(`${site.url}index.html`);
    const total = translations.reduce((sum, t) => sum + t.record.total, 0);
    expect(await page.locator('dl.meta').innerText()).toContain(`of ${total.toLocaleString('en')} translated`);
    await page.getByRole('link', { name: 'Hello', exact: true }).click();
    expect(await page.locator('.instructions').innerText()).toContain(hostile.script);
    await inert();
    await page.getByRole('rowheader', { name: 'Messages' }).getByRole('link').click();
    await page.locator('#translations-table').getByRole('link', { name: 'Czech' }).click();
    expect(await page.locator('[data-figure=translated]').innerText()).toContain(`${czech.translated} of ${czech.total} strings`);
    await page.locator('#unit-pages tbody tr').first().getByRole('link').click();
    const first = page.locator('tr[id^="unit-"]').first();
    expect(await first.locator('td[lang=cs]').innerText()).toBe(hostile.script);
    expect(await page.locator('tr[id^="unit-"]').nth(2).locator('td[lang=cs]').innerText()).toBe(hostile.attribute);
    // The location is the string's: on its page in every language, not repeated by each unit.
    expect(await first.getByRole('link', { name: 'src/hello.c:12' }).count()).toBe(0);
    await inert();
    await first.getByRole('link', { name: 'All languages' }).click();
    expect(await page.getByRole('link', { name: 'src/hello.c:12' }).getAttribute('href')).toBe('https://git.example.org/hello/blob/main/src/hello.c#L12');
    await page.getByRole('link', { name: 'Arabic', exact: true }).click();
    await page.waitForURL(/\/ar\/units\/1\/index\.html#unit-\d+$/);
    await page.waitForLoadState('load');
    expect(await page.locator('tr[id^="unit-"]:target td[dir=rtl][lang=ar]').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('has no broken links on a crawled instance', async () => {
    expect(await checkLinks(dist)).toEqual([]);
  });

  it('never publishes the notification subscriptions the crawl archived', async () => {
    const snapshot = await openSnapshot(content);
    expect([...snapshot.paths().keys()].some((path) => path.endsWith('/notifications/'))).toBe(true);
    for (const file of (await readdir(dist, { recursive: true })).filter((name) => name.endsWith('.html'))) {
      const text = await readFile(join(dist, file), 'utf8');
      expect(text, file).not.toContain('NewTranslationNotificaton');
    }
  });
});
