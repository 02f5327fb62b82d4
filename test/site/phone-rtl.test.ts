/**
 * The site on a 390 px phone and in a right-to-left interface (issue 26; docs/site.md,
 * "Interface languages" and "Phones"): no page kind scrolls sideways, a string's words stay
 * whole, its history sits below it across the table, and with `--ui-lang ar` ranges keep their
 * order, URLs their slashes and English instructions their direction. The fixture is built in
 * English and Arabic from two snapshots, so one string has a history, and that string's newest
 * translation holds a long word and a long URL. Screenshots go to test/artifacts/.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, seriousViolations } from './browser.ts';
import { useFixtureSites } from './fixture-sites.ts';

const phone = { width: 390, height: 844 };
const longWord = 'Donaudampfschifffahrtsgesellschaft';
const longUrl = 'https://docs.example.org/guide/translating/placeholders-and-plural-forms/index.html';
const story = `Die ${longWord} liegt unter ${longUrl} und bleibt unverändert im Archiv`;

const sites = useFixtureSites('tmsnap-phone-rtl-', ['en', 'ar'], [new Map(), new Map([[2004, { target: [story], state: 20 }]])]);
const { urls } = sites;

/** One page of each kind the site has (docs/guide.md), the string page reached from its unit. */
const pageKinds = {
  home: 'index.html',
  project: 'projects/demo/index.html',
  component: 'projects/demo/core/index.html',
  translation: 'projects/demo/core/de/index.html',
  strings: 'projects/demo/core/de/units/1/index.html',
  language: 'languages/de/index.html',
  search: 'search/index.html?q=string',
  changes: 'changes/index.html',
};

async function open(lang: 'en' | 'ar', path: string, viewport = phone): Promise<Page> {
  const page = await sites.browser.newPage({ viewport });
  await page.goto(`${urls[lang]}${path}`);
  return page;
}

async function stringPagePath(lang: 'en' | 'ar'): Promise<string> {
  const page = await open(lang, pageKinds.strings);
  const href = await page.locator('#unit-2004 td:last-child a').first().getAttribute('href');
  await page.close();
  return new URL(href!, `${urls[lang]}${pageKinds.strings}`).pathname.slice(1);
}

/**
 * The words of the string cells that a line break cuts in two: each word up to 30 characters
 * (longer tokens, URLs, may break where the line ends) whose characters lie on more than one line.
 */
function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((cells) => {
    const broken: string[] = [];
    for (const cell of cells) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          if (match[0].length > 30) continue;
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}

/** The left edges, in order, of the first occurrence of each text inside the element's text nodes. */
function leftEdges(element: Locator, texts: string[]): Promise<number[]> {
  return element.first().evaluate((element, wanted) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const edges: number[] = [];
    for (const text of wanted) {
      walker.currentNode = element;
      let edge = Number.NaN;
      for (let node = walker.nextNode(); node !== null && Number.isNaN(edge); node = walker.nextNode()) {
        const at = (node.textContent ?? '').indexOf(text);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + text.length);
        edge = range.getBoundingClientRect().left;
      }
      edges.push(edge);
    }
    return edges;
  }, texts);
}

describe.runIf(sites.chromium)('on a 390 px phone', () => {
  for (const lang of ['en', 'ar'] as const) {
    it(`no page kind scrolls sideways (${lang})`, async () => {
      const paths = { ...pageKinds, string: await stringPagePath(lang) };
      for (const [kind, path] of Object.entries(paths)) {
        const page = await open(lang, path);
        if (kind === 'search') await expect.poll(() => page.locator('#search-status').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
        const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
        expect(width, `${lang} ${kind}: ${path}`).toBeLessThanOrEqual(phone.width);
        await page.close();
      }
    });
  }

  for (const lang of ['en', 'ar'] as const) {
    it(`scrolls a wide table in its own box and keeps its first column in view (${lang})`, async () => {
      const page = await open(lang, pageKinds.language);
      const kept = await page.locator('.table-wrap').evaluateAll((boxes) =>
        boxes
          .filter((box) => box.scrollWidth > box.clientWidth)
          .map((box) => {
            // To the far end: right in a left-to-right page, left (negative) in a right-to-left one.
            box.scrollLeft = getComputedStyle(box).direction === 'rtl' ? -box.scrollWidth : box.scrollWidth;
            const cell = box.querySelector('tbody > tr > :first-child')!.getBoundingClientRect();
            const frame = box.getBoundingClientRect();
            return box.scrollLeft !== 0 && cell.left >= frame.left - 1 && cell.right <= frame.right + 1;
          }),
      );
      expect(kept.length, 'a table wider than the phone').toBeGreaterThan(0);
      expect(kept.every(Boolean)).toBe(true);
      await page.close();
    });
  }

  it('keeps the words of a page of strings whole, the long word too, and breaks only the URL', async () => {
    const page = await open('en', `${pageKinds.strings}#unit-2004`);
    const cells = 'table.units > tbody > tr > td:nth-child(3), table.units > tbody > tr > td:nth-child(4):not(.muted)';
    const styles = await page
      .locator(cells)
      .evaluateAll((list) => [...new Set(list.map((cell) => `${getComputedStyle(cell).wordBreak} ${getComputedStyle(cell).overflowWrap}`))]);
    expect(styles).toEqual(['normal break-word']);
    expect(await brokenWords(page, cells)).toEqual([]);
    // The long word fits the phone's line whole; the URL, wider than the line, wraps inside the screen.
    const word = await page.locator('#unit-2004 td:nth-child(4)').evaluate((cell, text) => {
      const node = [...cell.childNodes].find((child) => child.textContent?.includes(text))!;
      const range = document.createRange();
      const at = node.textContent!.indexOf(text);
      range.setStart(node, at);
      range.setEnd(node, at + text.length);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    }, longWord);
    expect(word).toBe(1);
    expect(await page.locator('#unit-2004 td:nth-child(4)').evaluate((cell) => cell.getBoundingClientRect().right)).toBeLessThanOrEqual(phone.width);
    // Stacked, the table is still a table to assistive technology: its head hidden, not removed.
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator('#unit-2004').scrollIntoViewIfNeeded();
    await screenshot(page, 'site-phone-strings');
    await page.close();
  });

  it("shows a string's history below it, on a phone and across the table on a desktop", async () => {
    for (const viewport of [phone, { width: 1100, height: 800 }]) {
      const page = await open('en', pageKinds.strings, viewport);
      const unit = (await page.locator('#unit-2004').boundingBox())!;
      const history = (await page.locator('#unit-2004 + tr.history-of table.history').boundingBox())!;
      const table = (await page.locator('table.units').boundingBox())!;
      expect(history.y, `${viewport.width} px`).toBeGreaterThanOrEqual(unit.y + unit.height - 1);
      // Across the table, less the cell's padding, not a column of it.
      expect(history.width, `${viewport.width} px`).toBeGreaterThan(table.width * 0.9);
      expect(await page.locator('#unit-2004 + tr.history-of table.history tbody tr').count()).toBe(2);
      if (viewport !== phone) {
        // On a desktop the table fits its frame: a URL in a string or a note breaks rather than
        // push the last columns (the history's "By") out of sight.
        const frame = (await page.locator('table.units').evaluate((table) => table.parentElement!.clientWidth)) + 1;
        expect(table.width, `${viewport.width} px`).toBeLessThanOrEqual(frame);
      }
      await page.close();
    }
  });

  it("keeps a string page's translations whole, one language after another", async () => {
    const page = await open('en', await stringPagePath('en'));
    expect(await brokenWords(page, 'table.strings > tbody > tr > td:nth-child(3)')).toEqual([]);
    await screenshot(page, 'site-phone-string');
    await page.close();
  });
});

describe.runIf(sites.chromium)('right to left (--ui-lang ar)', () => {
  it('shows the range of a page of strings as 1–100, left to right', async () => {
    const page = await open('ar', pageKinds.strings);
    const [one, hundred] = await leftEdges(page.locator('h1'), ['1', '100']);
    expect(one).toBeLessThan(hundred!);
    // The table of a translation's pages of strings: "1–100" in a number cell.
    const translation = await open('ar', pageKinds.translation);
    const cell = translation.locator('td.num', { hasText: /^\s*1\s*–\s*100\s*$/ });
    expect(await cell.count()).toBe(1);
    const [first, last] = await leftEdges(cell, ['1', '100']);
    expect(first).toBeLessThan(last!);
    await translation.close();
    await screenshot(page, 'site-phone-strings-ar');
    await page.close();
  });

  it('keeps a URL whole, its slash at the end, and English instructions left to right', async () => {
    const page = await open('ar', pageKinds.project);
    const link = page.locator('a[href="https://example.org/"]');
    expect(await link.innerText()).toBe('https://example.org/');
    const [h, slash] = await leftEdges(link, ['https', '.org/']);
    expect(h).toBeLessThan(slash!);
    // "Read this." starts at the left edge of its paragraph, as a left-to-right paragraph does.
    const paragraph = page.locator('.instructions p').first();
    expect(await paragraph.innerText()).toBe('Read this.');
    const box = (await paragraph.boundingBox())!;
    const [read] = await leftEdges(paragraph, ['Read']);
    expect(read! - box.x).toBeLessThan(2);
    await page.close();
  });

  it('keeps the English source left to right on the string page, its words whole', async () => {
    const page = await open('ar', await stringPagePath('ar'));
    expect(await page.locator('dl.meta dd.text').first().getAttribute('dir')).toBe('ltr');
    expect(await brokenWords(page, 'table.strings > tbody > tr > td:nth-child(3), dl.meta dd')).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'site-phone-string-ar');
    await page.close();
  });
});
