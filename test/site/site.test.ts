/**
 * The built site in a real browser: over HTTP and from file://, navigation, figures against
 * the snapshot, hostile strings, RTL, sorting/filtering, accessibility, screenshots.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLinks } from '../../site/link-check.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { buildWithCli, hasChromium, launchChromium, scratch, screenshot, seriousViolations, serveStatic } from './browser.ts';
import { fixtureUnits, hostile, writeFixtureSnapshot } from './fixture.ts';
import { useTempFolders } from '../helpers/temp.ts';

const chromium = hasChromium();

let work: string;
let content: string;
let dist: string;
let server: Awaited<ReturnType<typeof serveStatic>>;
let browser: Browser;
/** Script errors on any page: the site's own script must never fail. */
const pageErrors: string[] = [];

const tempFolder = useTempFolders('tmsnap-site-', 'all', scratch);
beforeAll(async () => {
  work = await tempFolder();
  content = join(work, 'content');
  dist = join(work, 'dist');
  await writeFixtureSnapshot(content);
  await buildWithCli(['--content', content, '--out', dist]);
  server = await serveStatic(dist);
  if (chromium) browser = await launchChromium();
  // The build takes ~20 s alone, minutes when the whole suite shares two cores.
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openPage(url: string): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  await page.goto(url);
  return page;
}

/** Nothing injected ran, and no link can run script. */
async function expectInert(page: Page): Promise<void> {
  expect(pageErrors).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  const hrefs = await page.$$eval('[href], [src], [action]', (elements) =>
    elements.map((e) => e.getAttribute('href') ?? e.getAttribute('src') ?? e.getAttribute('action') ?? ''),
  );
  expect(hrefs.filter((href) => /^\s*(javascript|data|vbscript):/i.test(href))).toEqual([]);
  expect(await page.$$('img[onerror], [onerror], [onclick]')).toHaveLength(0);
}

async function walk(startUrl: string, shots: boolean): Promise<void> {
  const snapshot = await openSnapshot(content);
  const german = (await snapshot.translations()).find((t) => t.path === 'api/translations/demo/core/de/');
  if (!german) throw new Error('fixture lacks the German translation');
  const page = await openPage(startUrl);

  // Home: the totals and the project row.
  const translations = await snapshot.translations();
  const total = translations.reduce((sum, t) => sum + t.record.total, 0);
  expect(await page.locator('dl.meta').innerText()).toContain(`of ${total.toLocaleString('en')} translated`);
  await expectInert(page);
  if (shots) await screenshot(page, 'site-home');

  await page.getByRole('link', { name: 'Demo', exact: true }).click();
  expect((await page.locator('h1').innerText()).trim()).toBe('Demo');
  expect((await page.locator('.instructions strong').innerText()).trim()).toBe('this');
  expect(await page.locator('.instructions').innerText()).toContain(hostile.script);
  expect(await page.locator('.instructions a').getAttribute('href')).toBe('https://docs.example.org/');
  await expectInert(page);
  if (shots) await screenshot(page, 'site-project');

  await page.getByRole('rowheader', { name: 'Core' }).getByRole('link').click();
  expect((await page.locator('h1').innerText()).trim()).toBe('Core');
  expect(await page.locator('dl.meta').innerText()).toContain('po/*.po');
  await expectInert(page);
  if (shots) await screenshot(page, 'site-component');

  await page.locator('#translations-table').getByRole('link', { name: 'German' }).click();
  expect((await page.locator('h1').innerText()).trim()).toBe('Core — German');
  const r = german.record;
  expect(await page.locator('[data-figure=translated]').innerText()).toContain(`${r.translated} of ${r.total} strings`);
  expect(await page.locator('[data-figure=fuzzy]').innerText()).toContain(`${r.fuzzy} strings`);
  // A row per unit page, its strings counted by state (docs/site.md, "Translation pages").
  expect(await page.locator('#unit-pages tbody tr').count()).toBe(2);
  expect((await page.locator('#unit-pages tfoot td').first().innerText()).trim()).toBe(String(fixtureUnits().de.length));
  await expectInert(page);
  if (shots) await screenshot(page, 'site-translation');
  const translationUrl = page.url();

  await page.locator('#unit-pages tbody tr').first().getByRole('link').click();
  expect(page.url()).toMatch(/units\/1\/index\.html$/);
  const unit = page.locator('#unit-2001');
  expect((await unit.locator('td[lang=de]').innerText()).trim()).toBe(hostile.script);
  expect(await unit.innerText()).toContain(hostile.attribute);
  expect(await unit.getByRole('link', { name: 'src/app.c:42' }).getAttribute('href')).toBe('https://git.example.org/demo/blob/main/src/app.c#L42');
  expect((await unit.locator('td').first().innerText()).trim()).toBe('translated');
  // The editor link is on the string's page, one per string (issue 14).
  expect(await unit.getByRole('link', { name: 'open in the editor' }).count()).toBe(0);
  await expectInert(page);
  if (shots) await screenshot(page, 'site-unit');

  await page.goBack();
  expect(page.url()).toBe(translationUrl);
  await page.goBack();
  expect((await page.locator('h1').innerText()).trim()).toBe('Core');
  await page.close();
}

describe('the built site', () => {
  it.runIf(chromium)('navigates home → project → component → translation → unit and back over HTTP', async () => {
    await walk(server.url, true);
  });

  it.runIf(chromium)('works opened from disk (file://)', async () => {
    await walk(`file://${join(dist, 'index.html')}`, false);
  });

  it.runIf(chromium)('labels plural forms with example counts and renders right-to-left languages right to left', async () => {
    const page = await openPage(`${server.url}projects/demo/core/ar/units/1/index.html`);
    const unit = page.locator('#unit-3002');
    expect(await unit.locator('.text[dir=rtl][lang=ar]').count()).toBe(6);
    expect(await unit.innerText()).toContain('Form 4 (n = 3, 4, 5, 6, 7…)');
    expect(await unit.innerText()).toContain('Form 6 (n = 100, 101, 102, 200, 201…)');
    expect(await unit.innerText()).toContain('Form 2 (n = 1)');
    await expectInert(page);
    await screenshot(page, 'site-unit-rtl');
    const translation = await openPage(`${server.url}projects/demo/core/ar/index.html`);
    expect((await translation.locator('#unit-pages tfoot td').first().innerText()).trim()).toBe('3');
    await translation.close();
    await page.close();
  });

  it.runIf(chromium)('links a string to the same string in the other languages', async () => {
    const page = await openPage(`${server.url}projects/demo/core/de/units/1/index.html`);
    // Through the string's page in every language (one link per string, issue 14).
    await page.locator('#unit-2002').getByRole('link', { name: 'All languages' }).click();
    // One editor link for the string (Weblate's editor lists its other languages), none per row.
    expect(await page.getByRole('link', { name: 'open in the editor' }).getAttribute('href')).toMatch(/^http:\/\/weblate\.test\/translate\//);
    expect(await page.locator('table.strings a[href^="http"]').count()).toBe(0);
    await page.getByRole('link', { name: 'Arabic', exact: true }).click();
    expect(page.url()).toMatch(/\/projects\/demo\/core\/ar\/units\/1\/index\.html#unit-3002$/);
    const english = await openPage(`${server.url}projects/demo/core/de/units/2/index.html`);
    expect(await english.locator('#unit-2150').isVisible()).toBe(true);
    await english.locator('#unit-2150').getByRole('link', { name: 'All languages' }).click();
    await english.getByRole('link', { name: 'English', exact: true }).click();
    expect(english.url()).toMatch(/\/en\/units\/2\/index\.html#unit-1150$/);
    await english.close();
    await page.close();
  });

  it.runIf(chromium)('counts strings by state on each unit page and sorts those pages and the translations without a server', async () => {
    const page = await openPage(`${server.url}projects/demo/core/de/index.html`);
    const units = fixtureUnits().de;
    const translated = units.filter((u) => u.state === 20);
    const column = (await page.locator('#unit-pages thead th').allTextContents()).findIndex((label) => label.trim() === 'translated');
    expect(
      (
        await page
          .locator('#unit-pages tfoot td')
          .nth(column - 1)
          .innerText()
      ).trim(),
    ).toBe(String(translated.length));
    // Page 2 (strings 101–150) has fewer translated strings: first when sorted by that count.
    expect(translated.filter((u) => u.position > 100).length).toBeLessThan(translated.filter((u) => u.position <= 100).length);
    await page.locator('#unit-pages').getByRole('button', { name: 'translated', exact: true }).click();
    expect(await page.locator('#unit-pages tbody th a').allTextContents()).toEqual(['Strings page 2', 'Strings page 1']);
    await page.close();

    const component = await openPage(`${server.url}projects/demo/core/index.html`);
    const languages = () => component.locator('#translations-table tbody tr td:first-child a').allTextContents();
    await component.getByRole('button', { name: 'Translated' }).click();
    expect(await languages()).toEqual(['German', 'Arabic', 'English']);
    await component.getByRole('button', { name: 'Translated' }).click();
    expect(await languages()).toEqual(['English', 'Arabic', 'German']);
    await component.close();
  });

  it.runIf(chromium)('shows hostile project and component fields as text', async () => {
    const page = await openPage(`${server.url}index.html`);
    expect(await page.getByRole('link', { name: `Evil ${hostile.attribute}` }).isVisible()).toBe(true);
    await page.getByRole('link', { name: `Evil ${hostile.attribute}` }).click();
    await expectInert(page);
    await page.getByRole('rowheader').getByRole('link').click();
    expect((await page.locator('h1').innerText()).trim()).toBe(`X ${hostile.script}`);
    await expectInert(page);
    await page.close();
  });

  it.runIf(chromium)('lists changes newest first with unknown action codes raw, and an Atom feed', async () => {
    const page = await openPage(`${server.url}changes/index.html`);
    const rows = page.locator('#changes tbody tr');
    // 1502 and 1501 name their strings (test/site/publishing.test.ts follows those links).
    expect(await rows.nth(2).innerText()).toContain('change 1500');
    expect(await rows.nth(3).innerText()).toContain('action 999');
    expect(await rows.nth(3).innerText()).toContain(hostile.script);
    expect(await rows.nth(4).innerText()).toContain('change 130');
    expect(await rows.count()).toBe(100);
    await page.getByRole('link', { name: 'Older' }).click();
    expect(await rows.count()).toBe(34);
    expect(await rows.first().innerText()).toContain('change 34');
    expect(await page.locator('#changes tbody tr').last().innerText()).toContain('change 1');
    await expectInert(page);
    await screenshot(page, 'site-changes');
    await page.close();
    const feed = await readFile(join(dist, 'changes/feed.xml'), 'utf8');
    expect(feed).toContain('<title>action 999: Core — German</title>');
    expect(feed.indexOf('change 1500')).toBeLessThan(feed.indexOf('action 999'));
    expect(feed).not.toContain('<script>');
  });

  it('publishes badges and the archived raw file, and never the notification subscriptions', async () => {
    const svg = await readFile(join(dist, 'badges/demo/core/de.svg'), 'utf8');
    const de = fixtureUnits().de;
    const percent = Math.floor((de.filter((u) => u.state >= 20).length / de.length) * 1000) / 10;
    expect(svg).toContain(`>${percent}%<`);
    expect(await readFile(join(dist, 'projects/demo/core/de/file/de.po'), 'utf8')).toContain('msgstr');
    const files = await readdir(dist, { recursive: true });
    for (const file of files.filter((name) => /\.(html|xml|svg|js)$/.test(name))) {
      expect(await readFile(join(dist, file), 'utf8'), file).not.toContain('SecretSubscription');
    }
  });

  it('has no broken links: every relative href and src of every page names a file of the site', async () => {
    expect(await checkLinks(dist)).toEqual([]);
  });

  it.runIf(chromium)('passes axe-core without serious or critical violations on every page kind', async () => {
    const pages = [
      'index.html',
      'projects/demo/index.html',
      'projects/demo/core/index.html',
      'projects/demo/core/de/index.html',
      'projects/demo/core/de/units/1/index.html',
      'projects/demo/core/ar/units/1/index.html',
      'languages/index.html',
      'languages/ar/index.html',
      'changes/index.html',
    ];
    for (const path of pages) {
      const page = await openPage(server.url + path);
      expect(await seriousViolations(page), path).toEqual([]);
      if (path === 'languages/ar/index.html') await screenshot(page, 'site-language');
      await page.close();
    }
  });

  it.runIf(chromium)('fits a phone screen', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await page.goto(`${server.url}projects/demo/core/de/units/1/index.html`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'site-unit-phone');
    await page.close();
  });
});

describe('tmsnap build --hide-authors', () => {
  it('replaces every user name with a neutral label', async () => {
    const hidden = join(work, 'dist-hidden');
    await buildWithCli(['--content', content, '--out', hidden, '--hide-authors']);
    const files = await readdir(hidden, { recursive: true });
    let checked = 0;
    for (const file of files.filter((name) => /\.(html|xml)$/.test(name))) {
      const text = await readFile(join(hidden, file), 'utf8');
      expect(text, file).not.toMatch(/jane/i);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(10);
    expect(await readFile(join(hidden, 'projects/demo/core/de/index.html'), 'utf8')).toContain('by a contributor');
    expect(await readFile(join(dist, 'projects/demo/core/de/index.html'), 'utf8')).toContain('by Jane Translator');
  }, 600_000);
});
