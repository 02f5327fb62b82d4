/**
 * Issue 35, the translator on a phone and in Arabic (docs/site.md, "Phones" and "Interface
 * languages"): at 390 px a language page shows where help is needed before the language's facts,
 * and every count of it, and of a release page, is on screen with its label; with `--ui-lang ar`
 * a language's name sits by its label, "n = 1, 21…" keeps its ellipsis after its last count, and
 * the consistency page keeps its colons and commas by the words they follow and each slug on one
 * line. The reference server's fixture instance, crawled twice with translator activity between
 * and both crawls tagged; its Glossary renamed `terms-and-glossary`, and its "banana" made a
 * second "Open", translated into Czech as one of Messages' two and unlike the other (a consistency
 * row with two places).
 * Opened from file:// in Chromium.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomActivity } from '../archive/activity.ts';
import { TEST_TOKEN, historyServer, redate } from '../archive/crawl.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { fixtureModel } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { buildWithCli, hasChromium, launchChromium, scratch, screenshot } from './browser.ts';

const chromium = hasChromium();
const phone = { width: 390, height: 844 };
const tempFolder = useTempFolders('tmsnap-phone-counts-', 'all', scratch);
const sites = { en: '', ar: '' };
let browser: Browser;

beforeAll(async () => {
  const work = await tempFolder();
  const content = join(work, 'content');
  const model = fixtureModel();
  const glossary = model.components().find((component) => component.slug === 'glossary')!;
  // A slug with places to break a line at (its hyphens and the slash before it).
  glossary.slug = 'terms-and-glossary';
  // Czech: "Otevřít" in Messages and the glossary, "Otevřete" for Messages' other "Open"; set
  // again before each crawl, as the activity between them may touch these strings.
  const czech = (component: number) => model.translations().find((row) => row.componentId === component && row.languageCode === 'cs')!;
  const units = (translation: { id: number }) => model.units(translation.id, 0, 100);
  const glossaryOpen = model
    .translations()
    .filter((translation) => translation.componentId === glossary.id)
    .flatMap(units)
    .filter((row) => row.source[0] === 'banana');
  const messagesOpen = units(czech(1)).find((row) => row.source[0] === 'Open' && row.target[0] === '')!;
  const translateOpen = () => {
    for (const row of glossaryOpen) {
      const cs = row.translationId === czech(glossary.id).id;
      Object.assign(row, { source: ['Open'], target: [cs ? 'Otevřít' : 'Open'], state: cs ? 20 : row.state });
    }
    Object.assign(messagesOpen, { target: ['Otevřete'], state: 20 });
  };
  const server = await historyServer(model);
  const crawl = async (day: number) =>
    redate(content, (await crawlComplete(server, content, { token: TEST_TOKEN, full: true })).snapshotId, new Date(Date.UTC(2026, 10, day, 4, 15)));
  const ids: string[] = [];
  try {
    translateOpen();
    ids.push(await crawl(10));
    randomActivity(model, 41, { unitMutations: 6, structural: false });
    translateOpen();
    ids.push(await crawl(11));
  } finally {
    await server.close();
  }
  for (const [tag, id] of [
    ['v1.0', ids[0]!],
    ['v2.0', ids[1]!],
  ]) {
    expect((await tmsnap(['tag', tag!, id!, '--content', content])).code).toBe(0);
  }
  for (const lang of ['en', 'ar'] as const) {
    const out = join(work, lang);
    await buildWithCli(['--content', content, '--out', out, '--ui-lang', lang]);
    sites[lang] = `${pathToFileURL(out).href}/`;
  }
  if (chromium) browser = await launchChromium();
}, 900_000);

afterAll(async () => {
  await browser?.close();
});

async function open(lang: 'en' | 'ar', path: string, viewport = phone): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto(`${sites[lang]}${path}`);
  return page;
}

/** Each element's box, and the label its stacked row shows above it (the `::before` text). */
function boxes(cells: Locator): Promise<Array<{ left: number; right: number; label: string; text: string }>> {
  return cells.evaluateAll((list) =>
    list.map((cell) => {
      const box = cell.getBoundingClientRect();
      const label = getComputedStyle(cell, '::before').content;
      return { left: box.left, right: box.right, label: label === 'none' ? '' : JSON.parse(label.replace(/^'|'$/g, '"')), text: cell.textContent ?? '' };
    }),
  );
}

/** The column heads of a table, by position: what a stacked cell is labelled. */
function heads(page: Page, table: string): Promise<string[]> {
  return page.locator(`${table} thead th`).evaluateAll((list) => list.map((th) => th.textContent?.trim() ?? ''));
}

/** The box of the first occurrence of `text` in the element's text nodes (the range's rects: one per line). */
function textRects(element: Locator, text: string, occurrence = 0): Promise<Array<{ left: number; right: number; top: number }>> {
  return element.evaluate(
    (node, [wanted, nth]) => {
      const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      let seen = 0;
      for (let current = walker.nextNode(); current !== null; current = walker.nextNode()) {
        const value = current.textContent ?? '';
        for (let at = value.indexOf(wanted); at >= 0; at = value.indexOf(wanted, at + 1)) {
          if (seen++ < nth) continue;
          const range = document.createRange();
          range.setStart(current, at);
          range.setEnd(current, at + wanted.length);
          return [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => ({ left: rect.left, right: rect.right, top: rect.top }));
        }
      }
      return [];
    },
    [text, occurrence] as const,
  );
}

describe.runIf(chromium)('on a 390 px phone, the work first and every count on screen (issue 35)', () => {
  for (const lang of ['en', 'ar'] as const) {
    it(`puts where help is needed before the language's facts (${lang})`, async () => {
      const page = await open(lang, 'languages/cs/index.html');
      const help = (await page.locator('#help-needed').boundingBox())!;
      // The facts: the row of the language's code, whatever the interface language calls it.
      const code = (await page.locator('dd:has(> code)', { hasText: /^cs$/ }).boundingBox())!;
      expect(help.y).toBeLessThan(code.y);
      await page.close();
    });

    it(`shows every count of where help is needed inside the screen, under its label (${lang})`, async () => {
      const page = await open(lang, 'languages/cs/index.html');
      const labels = await heads(page, '#help');
      const cells = await boxes(page.locator('#help td[data-need]'));
      const links = await boxes(page.locator('#help td[data-need] a'));
      expect(links.length).toBeGreaterThan(0);
      for (const box of [...cells, ...links]) {
        expect(box.left, box.text).toBeGreaterThanOrEqual(0);
        expect(box.right, box.text).toBeLessThanOrEqual(phone.width);
      }
      // Each count says what it counts: its column's head, which the phone hides.
      const first = await boxes(page.locator('#help tbody tr').first().locator('td'));
      for (const [at, cell] of first.entries()) expect(cell.label, cell.text).toBe(at < 2 ? '' : labels[at]);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(phone.width);
      await page.locator('#help-needed').scrollIntoViewIfNeeded();
      await screenshot(page, `site-phone-help-needed-${lang}`);
      await page.close();
    });

    it(`shows a release's newly translated, changed and lost strings inside the screen (${lang})`, async () => {
      const page = await open(lang, 'releases/v2.0/index.html');
      const labels = await heads(page, '#release-languages');
      const counts = await boxes(page.locator('#release-languages td[data-count]'));
      expect(counts.length).toBeGreaterThanOrEqual(3);
      for (const box of counts) {
        expect(box.left, box.text).toBeGreaterThanOrEqual(0);
        expect(box.right, box.text).toBeLessThanOrEqual(phone.width);
        expect(labels.slice(3)).toContain(box.label);
      }
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(phone.width);
      await screenshot(page, `site-phone-release-${lang}`);
      await page.close();
    });
  }
});

describe.runIf(chromium)('in Arabic (--ui-lang ar), left-to-right values in their place (issue 35)', () => {
  it("shows a language's name by its label, on a phone and a desktop", async () => {
    for (const viewport of [phone, { width: 1280, height: 800 }]) {
      const page = await open('ar', 'languages/cs/index.html', viewport);
      const name = page.locator('#language-facts dd, dl.meta dd').filter({ hasText: /^Czech$/ });
      expect(await name.count()).toBe(1);
      const [word] = await textRects(name, 'Czech');
      // Right to left, the value starts at its cell's right edge, the side of its label.
      const cell = (await name.boundingBox())!;
      expect(cell.x + cell.width - word!.right, `${viewport.width} px`).toBeLessThan(2);
      await page.close();
    }
  });

  it('keeps the ellipsis of "n = 1, 21…" after its last count', async () => {
    const page = await open('ar', 'languages/cs/index.html');
    const items = page.locator('li', { hasText: /^n = [\d, ]+…$/ });
    expect(await items.count()).toBeGreaterThan(1);
    for (const item of await items.all()) {
      const text = (await item.textContent())!;
      const last = /(\d+)…$/.exec(text)![1]!;
      const [digits] = await textRects(item, `${last}…`);
      const [ellipsis] = await textRects(item, '…');
      const [n] = await textRects(item, 'n =');
      // Left to right, as the formula: "n" first, the ellipsis right after the last count.
      expect(ellipsis!.left, text).toBeGreaterThan(n!.right);
      expect(Math.abs(ellipsis!.right - digits!.right), text).toBeLessThan(1);
    }
    await page.close();
  });

  it('keeps the colon and commas of "Translations, and where" by their words, and each slug on one line', async () => {
    // One page, narrowed step by step: wherever a line breaks, nothing is left alone at its end.
    const page = await open('ar', 'languages/cs/consistency/index.html');
    for (let width = 320; width <= 480; width += 8) {
      await page.setViewportSize({ width, height: 900 });
      const item = page.locator('#different + * li', { hasText: 'Otevřít' });
      expect(await item.count(), `${width} px`).toBe(1);
      const places = item.locator('a');
      expect(await places.count()).toBe(2);
      // Right to left, what follows a word stands on its left, touching it.
      const [translation] = await textRects(item, 'Otevřít');
      const [colon] = await textRects(item, ':');
      expect(Math.abs(colon!.right - translation!.left), `${width} px: the colon`).toBeLessThan(1);
      const first = await places.first().evaluate((link) => [...link.getClientRects()].map((rect) => ({ left: rect.left, top: rect.top })));
      const [comma] = await textRects(item, ',');
      expect(Math.abs(comma!.right - first.at(-1)!.left), `${width} px: the comma`).toBeLessThan(1);
      for (const place of await places.all()) {
        const lines = await place.evaluate((link) => link.getClientRects().length);
        expect(lines, `${width} px: ${await place.textContent()}`).toBe(1);
      }
      if (width === 392) await screenshot(page, 'consistency-phone-ar');
    }
    await page.close();
  }, 120_000);
});
