/**
 * The search page in Chromium, over HTTP and from file://: queries in several scripts, filters,
 * shareable URLs, lazy shard loading, inert hostile strings, links to the unit pages.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { screenshot, seriousViolations } from '../site/browser.ts';
import { hostileTarget, unitId } from './fixture.ts';
import { siteRoots, useSearchSite } from './search-site.ts';

const site = useSearchSite('tmsnap-search-browser-');
const pageErrors: string[] = [];

interface Hit {
  language: string;
  target: string;
  source: string;
  href: string;
}

async function openSearch(root: string, query: string): Promise<{ page: Page; requested: string[] }> {
  const page = await site.browser.newPage();
  const requested: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(`${root}search/index.html${query}`);
  return { page, requested };
}

/** Waits until every shard the query needs is loaded and searched. */
async function results(page: Page): Promise<Hit[]> {
  await page.waitForFunction(() => ['done', 'idle'].includes(document.getElementById('search-status')?.dataset.state ?? ''));
  // A row per translation, under its source string's group (grouped-browser.test.ts).
  return page.$$eval('#search-results .search-hit', (items) =>
    items.map((item) => ({
      language: (item as HTMLElement).dataset.language ?? '',
      target: item.querySelector('.target .text')?.textContent ?? '',
      source: item.closest('.search-group')?.querySelector('.source .text')?.textContent ?? '',
      href: item.querySelector('a.unit-link')?.getAttribute('href') ?? '',
    })),
  );
}

async function type(page: Page, text: string): Promise<Hit[]> {
  await page.fill('#search-q', text);
  return results(page);
}

const shardFiles = (requested: string[]) =>
  requested
    .filter((url) => url.includes('/search/shards/'))
    .map((url) => url.replace(/^.*\/search\//, ''))
    .sort();

describe.runIf(site.chromium).each(siteRoots(site))('search page %s', (_, rootUrl) => {
  test('finds units in Latin with diacritics, Cyrillic, Arabic and Japanese', async () => {
    const { page } = await openSearch(rootUrl(), '');
    expect(await results(page)).toEqual([]);
    expect((await type(page, 'otworz')).map((hit) => hit.target)).toEqual(['Otwórz plik']);
    expect((await type(page, 'schliessen')).map((hit) => hit.target)).toEqual(['Fenster schließen']);
    expect((await type(page, 'файлов')).map((hit) => `${hit.language}:${hit.target}`)).toEqual(['ru:%d файл']);
    const arabic = await type(page, 'ملف');
    expect(arabic.map((hit) => hit.target).sort()).toEqual(['فتح ملف', 'لا ملفات'].sort());
    expect(await page.$eval('#search-results .search-hit[data-language="ar"] .target', (element) => element.getAttribute('dir'))).toBe('rtl');
    expect((await type(page, '保存')).filter((hit) => hit.language === 'ja').map((hit) => hit.target)).toEqual([
      '保存',
      '名前を付けて保存…',
      '名前を付けて保存…',
      'すべてのファイルを新しいテンプレートとして保存',
    ]);
    if (rootUrl() === site.server.url) {
      await screenshot(page, 'search-japanese');
      expect(await seriousViolations(page)).toEqual([]);
    }
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  test('filters narrow the results and the URL carries query and filters', async () => {
    const { page } = await openSearch(rootUrl(), '');
    const all = await type(page, 'save');
    // Four source strings hold `save`, in five languages besides their source language.
    expect(all).toHaveLength(20);
    await page.selectOption('select[name="lang"]', 'de');
    expect((await results(page)).map((hit) => hit.target)).toEqual([
      'Speichern',
      'Speichern unter…',
      'Speichern unter…',
      'Alle Dateien als neue Vorlage speichern',
    ]);
    await page.selectOption('select[name="project"]', 'web');
    expect((await results(page)).map((hit) => hit.target)).toEqual(['Speichern unter…']);
    await page.selectOption('select[name="project"]', '');
    await page.selectOption('select[name="component"]', 'office/dialogs');
    expect((await results(page)).map((hit) => hit.target)).toEqual(['Speichern']);
    await page.selectOption('select[name="component"]', '');
    await page.selectOption('select[name="lang"]', '');
    await page.fill('#search-q', 'menu');
    await page.selectOption('select[name="state"]', '10');
    expect((await results(page)).map((hit) => `${hit.language}:${hit.target}`)).toEqual(['pl:Menu kawiarni']);
    await page.check('input[name="in"][value="target"]');
    expect((await results(page)).map((hit) => `${hit.language}:${hit.target}`)).toEqual(['pl:Menu kawiarni']);
    expect(new URL(page.url()).search).toBe('?q=menu&state=10&in=target');
    await page.close();
  });

  test('a URL with a query and filters reproduces the results', async () => {
    const { page } = await openSearch(rootUrl(), '?q=save+as&lang=pl');
    const hits = await results(page);
    expect(hits.map((hit) => hit.target)).toEqual(['Zapisz jako…', 'Zapisz jako…', 'Zapisz wszystkie pliki jako nowy szablon']);
    expect(await page.inputValue('#search-q')).toBe('save as');
    expect(await page.inputValue('select[name="lang"]')).toBe('pl');
    await page.close();
  });

  test('loads only the shards a query needs, when it needs them', async () => {
    const { page, requested } = await openSearch(rootUrl(), '');
    await results(page);
    expect(shardFiles(requested)).toEqual([]);
    await page.selectOption('select[name="lang"]', 'pl');
    await type(page, 'plik');
    expect(shardFiles(requested)).toEqual(['shards/s-0.js', 'shards/t-0-4.js']);
    await page.close();
  });

  test('the search box of every page leads to the results', async () => {
    const page = await site.browser.newPage();
    await page.goto(`${rootUrl()}index.html`);
    await page.fill('#site-search-q', 'open file');
    await page.press('#site-search-q', 'Enter');
    await page.waitForURL(/search\/index\.html\?q=open\+file$/);
    expect((await results(page)).map((hit) => hit.language)).toEqual(['ar', 'de', 'ja', 'pl', 'ru']);
    await page.close();
  });

  test('hostile strings stay text and result links open the unit', async () => {
    const { page } = await openSearch(rootUrl(), '?q=welcome&lang=de');
    const [hit] = await results(page);
    expect(hit?.target).toBe(hostileTarget);
    expect(await page.$$('#search-results img, [onerror]')).toHaveLength(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    await page.click('#search-results a.unit-link');
    await page.waitForURL(/units\/1\/index\.html#unit-/);
    expect(new URL(page.url()).hash).toBe(`#unit-${unitId(2, 'de', 1)}`);
    expect(await page.locator(`#unit-${unitId(2, 'de', 1)}`).count()).toBe(1);
    await page.close();
  });
});
