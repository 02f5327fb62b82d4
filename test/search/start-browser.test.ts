/**
 * The search page's start in Chromium, over HTTP and from file://: the URL's query is searched
 * before the filter lists are filled, with the filters those lists then show.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { siteRoots, useSearchSite } from './search-site.ts';

const site = useSearchSite('tmsnap-search-start-');

async function open(root: string, query: string): Promise<{ page: Page; targets: string[]; errors: string[] }> {
  const page = await site.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${root}search/index.html${query}`);
  await page.waitForFunction(() => ['done', 'error'].includes(document.getElementById('search-status')?.dataset.state ?? ''));
  const targets = await page.$$eval('#search-results .search-hit', (items) =>
    items.map((item) => `${(item as HTMLElement).dataset.language}:${item.querySelector('.target .text')?.textContent ?? ''}`),
  );
  return { page, targets, errors };
}

describe.runIf(site.chromium).each(siteRoots(site))('search page start %s', (_, rootUrl) => {
  // An unknown filter lists nothing and says so, rather than listing more than was asked (issue 35).
  test('a language the snapshot lacks is said on the page, which lists nothing, and is not in the list', async () => {
    const all = await open(rootUrl(), '?q=save+as');
    const unknown = await open(rootUrl(), '?q=save+as&lang=xx');
    expect(new Set(all.targets.map((target) => target.split(':')[0])).size).toBeGreaterThan(1);
    expect(unknown.targets).toEqual([]);
    expect(await unknown.page.getAttribute('#search-status', 'data-state')).toBe('error');
    expect(await unknown.page.textContent('#search-status')).toContain('“xx”');
    expect(await unknown.page.inputValue('select[name="lang"]')).toBe('');
    expect([...all.errors, ...unknown.errors]).toEqual([]);
    await all.page.close();
    await unknown.page.close();
  });

  test('a known language filters the first search and shows in the list', async () => {
    const polish = await open(rootUrl(), '?q=save+as&lang=pl&in=source');
    expect(polish.targets.length).toBeGreaterThan(0);
    expect(polish.targets.every((target) => target.startsWith('pl:'))).toBe(true);
    expect(await polish.page.inputValue('select[name="lang"]')).toBe('pl');
    expect(await polish.page.isChecked('input[name="in"][value="source"]')).toBe(true);
    await polish.page.close();
  });
});
