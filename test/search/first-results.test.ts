/**
 * The search page's first results (docs/search.md, "Routing"): until a query has searched its
 * first shard, only that shard's files and its bucket's sources load, so nothing else is
 * parsed before the first results show; a first shard that fails to load holds nothing back.
 * Over HTTP, where the page's requests can be held and answered one by one.
 */
import type { Page, Route } from 'playwright-core';
import { expect, test } from 'vitest';
import { useSearchSite } from './search-site.ts';

const site = useSearchSite('tmsnap-search-first-results-');

const shardFile = (url: string) => url.replace(/^.*\/search\//, '');
const resultsShown = (page: Page) => page.evaluate(() => (document.getElementById('search-results')?.children.length ?? 0) > 0);
/** Waits for the status to reach `state` with at least `hits` results on screen. */
const reach = (page: Page, state: string, hits: number) =>
  page.waitForFunction(
    ([state, hits]) =>
      document.getElementById('search-status')?.dataset.state === state && document.querySelectorAll('#search-results .search-hit').length >= hits,
    [state, hits] as const,
  );

test.runIf(site.chromium)('files beyond the first shard are asked for only once the first results are on screen', async () => {
  const page = await site.browser.newPage();
  // Each shard request notes whether results were showing when the page asked for it.
  const asked: { file: string; shown: boolean }[] = [];
  await page.route('**/search/shards/*.js', async (route: Route) => {
    asked.push({ file: shardFile(route.request().url()), shown: await resultsShown(page) });
    await route.continue();
  });
  // "window" is a source word: every language's table loads.
  await page.goto(`${site.server.url}search/index.html?q=window`);
  await reach(page, 'done', 5);
  // A shard that can match by its targets comes first (German's: its hostile target names `window`): its table and
  // the sources, asked for before anything else and before any result showed.
  const first = asked.slice(0, 2);
  const rest = asked.slice(2);
  const language = /^shards\/t-0-(\d)\.js$/.exec(first.map((entry) => entry.file).find((file) => file.startsWith('shards/t-')) ?? '')?.[1];
  expect(first.map((entry) => entry.file).sort()).toEqual(['shards/s-0.js', `shards/t-0-${language}.js`]);
  expect(first.every((entry) => !entry.shown)).toBe(true);
  // Everything else once results were on screen: every other language's table among them.
  expect(rest.filter((entry) => !entry.shown)).toEqual([]);
  expect(rest.filter((entry) => entry.file.startsWith('shards/t-'))).toHaveLength(4);
  await page.close();
});

test.runIf(site.chromium)('a first shard that fails to load does not hold the others back', async () => {
  const page = await site.browser.newPage();
  const asked: string[] = [];
  await page.route('**/search/shards/*.js', async (route: Route) => {
    const file = shardFile(route.request().url());
    asked.push(file);
    // The first table asked for is the first shard's.
    if (file.startsWith('shards/t-') && !asked.some((other) => other !== file && other.startsWith('shards/t-'))) await route.abort();
    else await route.continue();
  });
  await page.goto(`${site.server.url}search/index.html?q=window`);
  // The four other languages answer (English, the source language, has no shard); the page says one part could not be loaded.
  await reach(page, 'error', 4);
  expect(asked.filter((file) => file.startsWith('shards/t-')).sort()).toEqual([0, 1, 3, 4, 5].map((language) => `shards/t-0-${language}.js`));
  await page.close();
});
