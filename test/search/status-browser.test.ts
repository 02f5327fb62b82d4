/**
 * The search page's status line on a cold query (docs/search.md, "Start-up"): no number
 * format is made before the first results are on screen (the first one loads the engine's
 * locale data on the page's thread, while the first shards arrive), and the counts follow.
 * Over HTTP, where the page's shard requests can be held; and from file://, where the shard
 * script elements are (issue 35: the status counts the languages searched).
 */
import { pathToFileURL } from 'node:url';
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

/**
 * Issue 35: results from the first languages beside "Loading the search index…" read as the only
 * matches. From file://, each shard file held until the test lets it in (the page adds them as
 * script elements), the status never says so beside results, and says how many of the languages
 * the query reaches are searched.
 */
const holdShards = `(() => {
  const append = HTMLHeadElement.prototype.append;
  const held = [];
  window.statuses = [];
  HTMLHeadElement.prototype.append = function (...nodes) {
    const [node] = nodes;
    if (nodes.length === 1 && node instanceof HTMLScriptElement && node.src.includes('/shards/')) return void held.push(node);
    return append.apply(this, nodes);
  };
  // Lets the next held file in; resolves once it ran and the page had a frame and a task after it.
  window.releaseShard = () =>
    new Promise((resolve) => {
      const node = held.shift();
      if (!node) return resolve(false);
      const settle = () => requestAnimationFrame(() => setTimeout(() => resolve(true)));
      node.addEventListener('load', settle);
      node.addEventListener('error', settle);
      append.call(document.head, node);
    });
  document.addEventListener('DOMContentLoaded', () => {
    const status = document.getElementById('search-status');
    const results = document.getElementById('search-results');
    const note = () => window.statuses.push({ text: status.textContent, results: results.children.length });
    new MutationObserver(note).observe(status, { childList: true, characterData: true, subtree: true });
    new MutationObserver(note).observe(results, { childList: true });
  });
})();`;

test.runIf(site.chromium)('counts the languages searched while shards arrive, never "loading the index" beside results, from file://', async () => {
  const root = `${pathToFileURL(site.dist).href}/`;
  const page = await site.browser.newPage();
  await page.addInitScript(holdShards);
  await page.goto(`${root}search/index.html?q=file`);
  const state = () => page.evaluate(() => document.getElementById('search-status')!.dataset.state);
  const seen: string[] = [];
  while ((await state()) !== 'done') {
    const released = await page.evaluate(() => (window as unknown as { releaseShard: () => Promise<boolean> }).releaseShard());
    seen.push((await page.textContent('#search-status')) ?? '');
    // Nothing held: the page is between two files (it adds the next once one has run).
    if (!released)
      await page.waitForFunction(() => document.getElementById('search-status')?.dataset.state === 'done', null, { timeout: 1_000 }).catch(() => {});
  }
  const statuses = await page.evaluate(() => (window as unknown as { statuses: { text: string; results: number }[] }).statuses);
  expect(statuses.filter((status) => status.results > 0 && status.text === 'Loading the search index…')).toEqual([]);
  // The fixture's five languages: some of them searched, then all.
  const partial = seen.map((text) => /^(\d) of 5 languages searched… \d+ strings?, \d+ translations? so far\.$/.exec(text)).filter((match) => match !== null);
  expect(partial.length, seen.join('\n')).toBeGreaterThan(0);
  expect(partial.every((match) => Number(match[1]) < 5)).toBe(true);
  expect(seen.at(-1)).toMatch(/^\d+ strings?, \d+ translations?$/);
  await page.close();
});
