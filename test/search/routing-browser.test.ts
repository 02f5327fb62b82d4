/**
 * The search page routes a query in all languages to the shards that can match it, over HTTP
 * and from file://: it counts the shard scripts the page loads, checks that a near miss is
 * still found, and that an index of another format is told apart.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { searchFormat } from '../../search/format.ts';
import { siteRoots, useSearchSite } from './search-site.ts';

const site = useSearchSite('tmsnap-search-routing-browser-');
const pageErrors: string[] = [];

/** Opens the search page and notes every search file it requests. */
async function open(root: string, query: string): Promise<{ page: Page; loaded: () => string[] }> {
  const page = await site.browser.newPage();
  const requested: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(`${root}search/index.html${query}`);
  const loaded = () =>
    requested
      .filter((url) => url.includes('/search/shards/'))
      .map((url) => url.replace(/^.*\/search\//, ''))
      .sort();
  return { page, loaded };
}

async function finished(page: Page): Promise<{ state: string; status: string; targets: string[] }> {
  await page.waitForFunction(() => ['done', 'idle', 'error'].includes(document.getElementById('search-status')?.dataset.state ?? ''));
  return page.evaluate(() => ({
    state: document.getElementById('search-status')?.dataset.state ?? '',
    status: document.getElementById('search-status')?.textContent ?? '',
    targets: [...document.querySelectorAll('#search-results .search-hit')].map(
      (item) => `${(item as HTMLElement).dataset.language}:${item.querySelector('.target .text')?.textContent}`,
    ),
  }));
}

describe.runIf(site.chromium).each(siteRoots(site))('routing on the search page %s', (_, rootUrl) => {
  test('a word of one language, searched in all, loads that language’s shard and the sources only', async () => {
    // Languages are numbered ar, de, en, ja, pl, ru: t-0-1.js is German.
    const { page, loaded } = await open(rootUrl(), '?q=schliessen');
    expect((await finished(page)).targets).toEqual(['de:Fenster schließen']);
    expect(loaded()).toEqual(['shards/s-0.js', 'shards/t-0-1.js']);
    // One edit away, and still found: fuzzy terms are routed by the pairs they keep.
    await page.fill('#search-q', 'schliesen');
    expect((await finished(page)).targets).toEqual(['de:Fenster schließen']);
    expect(loaded()).toEqual(['shards/s-0.js', 'shards/t-0-1.js']);
    // A source word reaches every language.
    await page.fill('#search-q', 'window');
    expect(new Set((await finished(page)).targets.map((target) => target.split(':')[0]))).toEqual(new Set(['ar', 'de', 'ja', 'pl', 'ru']));
    // Every translation's table: English, the source language, has no shard of its own (issue 28).
    expect(loaded()).toEqual(['shards/s-0.js', ...[0, 1, 3, 4, 5].map((language) => `shards/t-0-${language}.js`)]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  test('a query nothing can match loads no shard', async () => {
    const { page, loaded } = await open(rootUrl(), '?q=zzzz+qqqq');
    const result = await finished(page);
    expect(result.state).toBe('done');
    expect(result.targets).toEqual([]);
    expect(loaded()).toEqual([]);
    await page.close();
  });

  test('Japanese pairs route to the Japanese shard', async () => {
    const { page, loaded } = await open(rootUrl(), '?q=%E9%96%89%E3%81%98');
    expect((await finished(page)).targets).toEqual(['ja:ウィンドウを閉じる']);
    expect(loaded()).toEqual(['shards/s-0.js', 'shards/t-0-3.js']);
    await page.close();
  });
});

test.runIf(site.chromium)('an index of another format is told apart, not misread', async () => {
  const old = join(site.work, 'old');
  await cp(site.dist, old, { recursive: true });
  const manifest = join(old, 'search/manifest.js');
  const text = await readFile(manifest, 'utf8');
  expect(text).toContain(`\\"format\\":${searchFormat}`);
  // Format 3's manifest named the same files, whose indexes this page cannot read.
  await writeFile(manifest, text.replace(`\\"format\\":${searchFormat}`, '\\"format\\":3'));
  const { page, loaded } = await open(pathToFileURL(old).href + '/', '?q=save');
  const result = await finished(page);
  expect(result.state).toBe('error');
  expect(result.status).toContain('format 3');
  expect(loaded()).toEqual([]);
  await page.close();
});
