/**
 * The search page's status line on a cold query (docs/search.md, "Start-up"): no number
 * format is made before the first results are on screen (the first one loads the engine's
 * locale data on the page's thread, while the first shards arrive), and the counts follow.
 * Over HTTP, where the page's shard requests can be held.
 */
import type { Route } from 'playwright-core';
import { expect, test } from 'vitest';
import { useSearchSite } from './search-site.ts';

const site = useSearchSite('tmsnap-search-status-');

// Notes, for each number format the page makes, whether results were on screen by then.
const watchNumberFormats = `(() => {
  const Original = Intl.NumberFormat;
  window.numberFormatsMade = [];
  Intl.NumberFormat = function (...args) {
    window.numberFormatsMade.push((document.getElementById('search-results')?.children.length ?? 0) > 0);
    return new Original(...args);
  };
})();`;

test.runIf(site.chromium)('while the first shards load the status says so, without counts, and no number format is made', async () => {
  const page = await site.browser.newPage();
  await page.addInitScript(watchNumberFormats);
  // The shards are held until the status was read with none of them in.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  await page.route('**/search/shards/*.js', async (route: Route) => {
    asked++;
    await held;
    await route.continue();
  });
  // Not until "load": the held shard scripts hold that event back.
  await page.goto(`${site.server.url}search/index.html?q=save+as&lang=pl`, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => document.querySelector('#search-form select[name="lang"]')?.querySelectorAll('option').length! > 1);
  await expect.poll(() => asked).toBeGreaterThan(0);
  expect(await page.textContent('#search-status')).toBe('Loading the search index…');
  expect(await page.evaluate(() => (window as unknown as { numberFormatsMade: boolean[] }).numberFormatsMade)).toEqual([]);
  release();

  await page.waitForFunction(() => document.getElementById('search-status')?.dataset.state === 'done');
  // A group per source string, a row per translation: both counted.
  const strings = await page.locator('#search-results > li').count();
  const translations = await page.locator('#search-results .search-hit').count();
  expect(strings).toBeGreaterThan(0);
  expect(translations).toBeLessThan(50);
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  expect(await page.textContent('#search-status')).toBe(`${plural(strings, 'string')}, ${plural(translations, 'translation')}`);
  const made = await page.evaluate(() => (window as unknown as { numberFormatsMade: boolean[] }).numberFormatsMade);
  expect(made.length).toBeGreaterThan(0);
  expect(made.every(Boolean)).toBe(true);
  await page.close();
});
