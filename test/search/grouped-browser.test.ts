/**
 * Search results grouped by source string (issue 28, docs/search.md, "The page"): the source
 * once, a row per translation, a count of strings and translations, `<mark>` around exact,
 * prefix and fuzzy matches, and hostile strings kept as text.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { buildWithCli, screenshot, seriousViolations } from '../site/browser.ts';
import { hostileTarget } from './fixture.ts';
import { siteRoots, useSearchSite } from './search-site.ts';

const site = useSearchSite('tmsnap-search-grouped-');
const pageErrors: string[] = [];

interface Group {
  source: string;
  component: string;
  /** The source's marked words. */
  marks: string[];
  rows: { language: string; target: string; href: string; marks: string[] }[];
}

async function search(root: string, query: string): Promise<{ page: Page; groups: Group[]; status: string }> {
  const page = await site.browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  await page.goto(`${root}search/index.html${query}`);
  await page.waitForFunction(() => ['done', 'idle'].includes(document.getElementById('search-status')?.dataset.state ?? ''));
  const groups = await page.$$eval('#search-results > li', (items) =>
    items.map((item) => ({
      source: [...item.querySelectorAll('.source .text')].map((text) => text.textContent).join('|'),
      component: item.querySelector('.component')?.textContent ?? '',
      marks: [...item.querySelectorAll('.source mark')].map((mark) => mark.textContent ?? ''),
      rows: [...item.querySelectorAll('.search-translations > li')].map((row) => ({
        language: (row as HTMLElement).dataset.language ?? '',
        target: [...row.querySelectorAll('.target .text')].map((text) => text.textContent).join('|'),
        href: row.querySelector('a.unit-link')?.getAttribute('href') ?? '',
        marks: [...row.querySelectorAll('.target mark')].map((mark) => mark.textContent ?? ''),
      })),
    })),
  );
  return { page, groups, status: (await page.textContent('#search-status')) ?? '' };
}

describe.runIf(site.chromium).each(siteRoots(site))('grouped search results %s', (_, rootUrl) => {
  test('a source found in every language shows once, with a row per language, and counts truthfully', async () => {
    const { page, groups, status } = await search(rootUrl(), '?q=open+file');
    expect(groups).toHaveLength(1);
    const [group] = groups;
    expect(group!.source).toBe('Open file');
    expect(await page.locator('#search-results .source').count()).toBe(1);
    // English is the components' source language: the group's head, no row of its own (issue 28).
    expect(group!.rows.map((row) => row.language)).toEqual(['ar', 'de', 'ja', 'pl', 'ru']);
    expect(group!.rows.find((row) => row.language === 'pl')?.target).toBe('Otwórz plik');
    expect(group!.rows.every((row) => /units\/\d+\/index\.html#unit-/.test(row.href))).toBe(true);
    // The source is no hit: one string, five translations.
    expect(status).toBe('1 string, 5 translations');
    expect(group!.marks).toEqual(['Open', 'file']);
    expect(await page.locator('#search-results > li').first().locator('.state').count()).toBe(5);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  test('sources shared by languages and components: a group per component, every language under it', async () => {
    const { page, groups, status } = await search(rootUrl(), '?q=sav');
    if (rootUrl() === site.server.url) await screenshot(page, 'search-grouped');
    // "Save as…" lives in two components: two groups. Four strings in five languages.
    expect(groups.map((group) => group.source).sort()).toEqual(['Save', 'Save all files as a new template', 'Save as…', 'Save as…']);
    expect(new Set(groups.filter((group) => group.source === 'Save as…').map((group) => group.component)).size).toBe(2);
    for (const group of groups) expect(group.rows.map((row) => row.language).sort()).toEqual(['ar', 'de', 'ja', 'pl', 'ru']);
    expect(status).toBe('4 strings, 20 translations');
    // A prefix match: `sav` marks the whole word it begins.
    expect(groups.map((group) => group.marks)).toEqual(groups.map(() => ['Save']));
    await page.close();
  });

  test('exact, prefix and fuzzy matches are marked in the translations', async () => {
    const fuzzy = await search(rootUrl(), '?q=schliesen');
    expect(fuzzy.groups.map((group) => group.source)).toEqual(['Close window']);
    expect(fuzzy.groups[0]!.marks).toEqual([]);
    expect(fuzzy.groups[0]!.rows.map((row) => [row.language, row.target, row.marks])).toEqual([['de', 'Fenster schließen', ['schließen']]]);
    await fuzzy.page.close();

    // Exact once folded: `otworz` is `Otwórz`.
    const exact = await search(rootUrl(), '?q=otworz&lang=pl');
    expect(exact.groups.map((group) => group.rows.map((row) => row.marks))).toEqual([[['Otwórz']]]);
    expect(exact.status).toBe('1 string, 1 translation');
    await exact.page.close();

    const prefix = await search(rootUrl(), '?q=speich&lang=de&in=target');
    expect(prefix.groups.flatMap((group) => group.rows.map((row) => `${row.target}: ${row.marks.join(' ')}`)).sort()).toEqual([
      'Alle Dateien als neue Vorlage speichern: speichern',
      'Speichern unter…: Speichern',
      'Speichern unter…: Speichern',
      'Speichern: Speichern',
    ]);
    // Searching translations only, the source's words are not marked.
    expect(prefix.groups.flatMap((group) => group.marks)).toEqual([]);
    await prefix.page.close();

    const japanese = await search(rootUrl(), '?q=保存&lang=ja');
    expect(japanese.groups.flatMap((group) => group.rows.map((row) => row.marks))).toEqual(japanese.groups.map(() => ['保存']));
    await japanese.page.close();
  });

  test('a string with HTML in it stays text, its matched word marked', async () => {
    const { page, groups } = await search(rootUrl(), '?q=onerror&lang=de');
    expect(groups).toHaveLength(1);
    expect(groups[0]!.rows.map((row) => [row.target, row.marks])).toEqual([[hostileTarget, ['onerror']]]);
    expect(await page.$$('#search-results img, [onerror]')).toHaveLength(0);
    // Only text and the `<mark>` around it inside the target.
    expect(await page.$$eval('#search-results .target .text *', (nodes) => nodes.map((node) => node.nodeName))).toEqual(['MARK']);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    if (rootUrl() === site.server.url) expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});

test.runIf(site.chromium)(
  'in the Arabic interface, opened from file://, groups read right to left and stay axe clean',
  async () => {
    // The same snapshot built again with the Arabic interface.
    const dist = join(site.work, 'dist-ar');
    await buildWithCli(['--content', join(site.work, 'content'), '--out', dist, '--ui-lang', 'ar']);
    const { page, groups, status } = await search(pathToFileURL(dist).href + '/', '?q=open+file');
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await screenshot(page, 'search-grouped-ar');
    expect(groups.map((group) => [group.source, group.marks, group.rows.length])).toEqual([['Open file', ['Open', 'file'], 5]]);
    // Numbers and inserted words come isolated (FSI … PDI) in a right-to-left interface.
    expect(status.replace(/[\u2066-\u2069]/g, '')).toBe('نص واحد، 5 ترجمات');
    expect(await page.getAttribute('#search-results .search-hit[data-language="ar"] .target', 'dir')).toBe('rtl');
    expect(await page.getAttribute('#search-results .source', 'dir')).toBe('auto');
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  },
  120_000,
);
