/**
 * Strings by state, check or component on the search page (issue 26, docs/search.md, "The
 * page"): without text, a state, a flag or a component lists its strings, and the count is
 * the snapshot's; a text narrows by the same filters; the filters live in the URL. Over HTTP
 * and from file://, on the search fixture built as a site.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { openSnapshot, type StoredUnit } from '../../snapshot/index.ts';
import { screenshot, seriousViolations } from '../site/browser.ts';
import { siteRoots, useSearchSite } from './search-site.ts';

const site = useSearchSite('tmsnap-search-by-state-');
const pageErrors: string[] = [];
/** Every unit of the snapshot with its language, English (the source language) left out as search leaves it out. */
let translated: { language: string; unit: StoredUnit }[];

beforeAll(async () => {
  const snapshot = await openSnapshot(join(site.work, 'content'));
  translated = [];
  for (const { path, record } of await snapshot.translations())
    if (!record.is_source) for (const unit of await snapshot.units(path)) translated.push({ language: record.language_code, unit });
});

/** How many translations the snapshot holds that pass `test`. */
const inSnapshot = (test: (entry: (typeof translated)[number]) => boolean) => translated.filter(test).length;

interface Listing {
  page: Page;
  status: string;
  rows: string[];
  shards: string[];
}

async function list(root: string, query: string): Promise<Listing> {
  const page = await site.browser.newPage();
  const requested: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(`${root}search/index.html${query}`);
  return { page, ...(await read(page, requested)) };
}

async function read(page: Page, requested: string[] = []): Promise<Omit<Listing, 'page'>> {
  await page.waitForFunction(() => ['done', 'idle'].includes(document.getElementById('search-status')?.dataset.state ?? ''));
  const rows = await page.$$eval('#search-results .search-hit', (items) =>
    items.map((item) => `${(item as HTMLElement).dataset.language}:${item.querySelector('.target .text')?.textContent}`),
  );
  const shards = requested.filter((url) => url.includes('/search/shards/')).map((url) => url.replace(/^.*\/search\//, ''));
  return { status: (await page.textContent('#search-status')) ?? '', rows, shards: [...new Set(shards)].sort() };
}

const translationsIn = (status: string) => Number(/(\d+) translations?$/.exec(status)?.[1]);

describe.runIf(site.chromium).each(siteRoots(site))('strings by state %s', (_, rootUrl) => {
  test('a state without text lists exactly the strings in that state, as many as the snapshot holds', async () => {
    for (const [state, code] of [
      ['translated', 20],
      ['approved', 30],
      ['needs-editing', 10],
      ['0', 0],
    ] as const) {
      const { page, status, rows } = await list(rootUrl(), `?state=${state}`);
      const expected = inSnapshot(({ unit }) => unit.state === code);
      expect(translationsIn(status), `${state}: ${status}`).toBe(expected);
      expect(rows).toHaveLength(expected);
      expect(await page.$$eval('#search-results .search-hit', (items) => items.map((item) => (item as HTMLElement).dataset.state))).toEqual(
        rows.map(() => String(code)),
      );
      await page.close();
    }
  });

  test('"needs editing in Polish" as a link: the named state, one language, only its shard loaded', async () => {
    const { page, status, rows, shards } = await list(rootUrl(), '?lang=pl&state=needs-editing');
    expect(rows).toEqual(['pl:Menu kawiarni']);
    expect(status).toBe('1 string, 1 translation');
    // Languages are numbered ar, de, en, ja, pl, ru: the Polish unit table and the sources, no index.
    expect(shards).toEqual(['shards/s-0.js', 'shards/t-0-4.js']);
    expect(await page.inputValue('select[name="state"]')).toBe('10');
    await page.close();

    const checks = await list(rootUrl(), '?has=check');
    if (rootUrl().startsWith('http')) {
      await screenshot(checks.page, 'search-by-state');
      expect(await seriousViolations(checks.page)).toEqual([]);
    }
    await checks.page.close();
  });

  test('failing checks and suggestions, alone or with a state or a component', async () => {
    const checks = await list(rootUrl(), '?has=check');
    expect(checks.rows.sort()).toEqual(['ar:هل أنت متأكد؟', 'de:Fenster schließen', 'ru:Вы уверены?']);
    expect(translationsIn(checks.status)).toBe(inSnapshot(({ unit }) => unit.has_failing_check));
    // Each row says what it has, in words.
    expect(await checks.page.$$eval('#search-results .search-hit', (items) => items.map((item) => item.querySelector('.flag')?.textContent))).toEqual(
      checks.rows.map(() => 'failing check'),
    );
    // Only the shards holding a unit with a failing check.
    expect(checks.shards).toEqual(['shards/s-0.js', 'shards/t-0-0.js', 'shards/t-0-1.js', 'shards/t-0-5.js']);
    await checks.page.close();

    const suggestions = await list(rootUrl(), '?has=suggestion&lang=pl');
    expect(suggestions.rows).toEqual(['pl:', 'pl:Menu kawiarni']);
    await suggestions.page.close();

    const empty = await list(rootUrl(), '?has=suggestion&state=0');
    expect(empty.rows).toEqual(['pl:']);
    await empty.page.close();

    const component = await list(rootUrl(), '?component=office/dialogs&lang=de');
    expect(component.rows).toEqual(['de:Speichern', 'de:Sind Sie sicher?']);
    expect(translationsIn(component.status)).toBe(2);
    await component.page.close();
  });

  test('a state in the site’s words lists as its number does; an unknown filter is said, not dropped (issue 35)', async () => {
    const untranslated = await list(rootUrl(), '?state=untranslated');
    const empty = await list(rootUrl(), '?state=0');
    expect(untranslated.rows).toHaveLength(inSnapshot(({ unit }) => unit.state === 0));
    expect(untranslated.rows.length).toBeGreaterThan(0);
    expect([untranslated.rows, untranslated.status]).toEqual([empty.rows, empty.status]);
    expect(await untranslated.page.inputValue('select[name="state"]')).toBe('0');
    await Promise.all([untranslated.page.close(), empty.page.close()]);

    // With a project that lists strings, a mistyped state listed the whole project before.
    const page = await site.browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    await page.goto(`${rootUrl()}search/index.html?project=office&state=untranslatd`);
    await page.waitForFunction(() => document.getElementById('search-status')?.dataset.state === 'error');
    expect(await page.textContent('#search-status')).toBe(
      'This link asks for State “untranslatd”, which this search does not have: choose from the lists above.',
    );
    expect(await page.$$eval('#search-results .search-hit', (items) => items.length)).toBe(0);
    // Choosing in the form searches again, as ever.
    await page.selectOption('select[name="state"]', '0');
    expect((await read(page)).rows.length).toBeGreaterThan(0);
    expect(new URL(page.url()).search).toBe('?project=office&state=0');
    await page.close();
  });

  test('a text narrows a listing, and the URL keeps the filters chosen in the form', async () => {
    const { page, rows } = await list(rootUrl(), '?has=check');
    expect(rows).toHaveLength(3);
    await page.fill('#search-q', 'sure');
    expect((await read(page)).rows.sort()).toEqual(['ar:هل أنت متأكد؟', 'ru:Вы уверены?']);
    await page.selectOption('select[name="lang"]', 'ru');
    expect((await read(page)).rows).toEqual(['ru:Вы уверены?']);
    await page.fill('#search-q', '');
    await page.selectOption('select[name="has"]', '');
    await page.selectOption('select[name="state"]', '30');
    expect((await read(page)).rows).toEqual(['ru:Закрыть окно']);
    expect(new URL(page.url()).search).toBe('?lang=ru&state=30');
    // A language alone lists nothing: the page asks for a text.
    await page.selectOption('select[name="state"]', '');
    const idle = await read(page);
    expect([idle.rows, await page.getAttribute('#search-status', 'data-state')]).toEqual([[], 'idle']);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});

/**
 * Issue 35: on a phone a row's "·" stays on the line of the word after it, never ending a line
 * alone, and the state carries the colour mark strings have everywhere else (class `s<state>`).
 */
test.runIf(site.chromium)('keeps each "·" with the state or flag after it, and marks the state with its colour, from file://', async () => {
  const root = siteRoots(site).find(([name]) => name === 'from file://')![1]();
  const page = await site.browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${root}search/index.html?has=check`);
  await page.waitForFunction(() => document.getElementById('search-status')?.dataset.state === 'done');
  for (const width of [390, 330, 280, 240]) {
    await page.setViewportSize({ width, height: 844 });
    const separators = await page.locator('#search-results .search-hit .meta').evaluateAll((lines) =>
      lines.flatMap((line) =>
        [...line.childNodes]
          .filter((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.includes('·'))
          .map((node) => {
            const range = document.createRange();
            const at = node.textContent!.indexOf('·');
            range.setStart(node, at);
            range.setEnd(node, at + 1);
            const dot = range.getBoundingClientRect();
            // The word after it starts on the dot's line (their boxes overlap), to its right.
            const next = (node.nextSibling as Element).getClientRects()[0]!;
            return { word: node.nextSibling!.textContent, sameLine: dot.top < next.bottom && next.top < dot.bottom && next.left >= dot.right - 1 };
          }),
      ),
    );
    expect(separators.filter((separator) => separator.word === 'failing check')).toHaveLength(3);
    for (const separator of separators) expect(separator, `${width} px`).toMatchObject({ sameLine: true });
  }
  const marks = await page.locator('#search-results .search-hit .state').evaluateAll((states) =>
    states.map((state) => {
      const mark = getComputedStyle(state, '::before');
      return {
        code: (state.closest('.search-hit') as HTMLElement).dataset.state,
        classes: state.className,
        content: mark.content,
        colour: mark.backgroundColor,
      };
    }),
  );
  expect(marks).toHaveLength(3);
  for (const mark of marks) {
    expect(mark.classes.split(' ')).toContain(`s${mark.code}`);
    expect(mark.content).toBe('""');
    expect(mark.colour).not.toBe('rgba(0, 0, 0, 0)');
  }
  await page.close();
});
