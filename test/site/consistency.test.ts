/**
 * Each language's consistency page (issue 26, site-model/consistency.ts, src/data/consistency.ts)
 * on a crawl of the bundled catalogs of two projects (Django's components, and humanize, which
 * shares strings with Django's contrib.humanize): linked from the language page; the sources it
 * lists as translated differently are those the snapshot's units give, every variant with links
 * to units that exist; the other lists name only translations unlike most languages; and the
 * pages stay small next to the strings they cover.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { consistencyPath, differentTranslations, isTranslated, type PlacedTranslation } from '../../site-model/consistency.ts';
import { lastSegment, sitePaths } from '../../site-model/paths.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { buildWithCli, hasChromium, launchChromium, scratch, screenshot, seriousViolations, serveStatic } from './browser.ts';

const chromium = hasChromium();

const tempFolder = useTempFolders('tmsnap-consistency-', 'all', scratch);
let out: string;
/** Per language, its translated units with their component, as the pages see them (no source translations). */
const translated = new Map<string, PlacedTranslation[]>();
let units = 0;

beforeAll(async () => {
  const work = await tempFolder();
  const content = join(work, 'content');
  out = join(work, 'site');
  const server = await startTestServer({ data: 'bundled', behaviours: { tokens: ['wlu_consistency'], rateLimit: raisedRateLimit } });
  try {
    await crawlComplete(server, content, { projects: ['django', 'humanize'], token: 'wlu_consistency' });
  } finally {
    await server.close();
  }
  await buildWithCli(['--content', content, '--out', out]);
  const snapshot = await openSnapshot(content);
  const sourceLanguages = new Map((await snapshot.components()).map(({ path, record }) => [path, lastSegment(record.source_language)]));
  for (const { path, record } of await snapshot.translations()) {
    const list = await snapshot.units(path);
    units += list.length;
    const component = record.component ?? '';
    if (record.is_source || sourceLanguages.get(component) === record.language_code) continue;
    const [, project = '', slug = ''] = /components\/([^/]+)\/([^/]+)\//.exec(component) ?? [];
    const placed = translated.get(record.language_code) ?? [];
    for (const unit of list) if (isTranslated(unit)) placed.push({ component: `${project}/${slug}`, source: unit.source, target: unit.target, href: '' });
    translated.set(record.language_code, placed);
  }
}, 900_000);

const page = (code: string) => readFile(join(out, consistencyPath(code)), 'utf8');
/** A page's section under `<h2 id="…">`, up to the next heading. */
const section = (html: string, id: string) => html.split(`<h2 id="${id}"`)[1]?.split('<h2')[0] ?? '';
const rows = (html: string) => [...html.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((match) => match[1]!).filter((row) => row.includes('<td'));
const cells = (row: string) => [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((match) => match[1]!);
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();

describe('consistency pages on the bundled catalogs', () => {
  test('each language page links to its consistency page', async () => {
    for (const code of translated.keys()) {
      const language = await readFile(join(out, sitePaths.language(code)), 'utf8');
      expect(language, code).toContain(`href="consistency/index.html"`);
      expect((await stat(join(out, consistencyPath(code)))).isFile()).toBe(true);
    }
  });

  test('the sources listed as translated differently are exactly those the units give, most variants first', async () => {
    let listedInAll = 0;
    for (const [code, placed] of translated) {
      const expected = differentTranslations(placed);
      const different = section(await page(code), 'different');
      const listed = rows(different).map((row) => text(cells(row)[0]!));
      const more = Number(/…and (\d+) more\./.exec(different.split('</table>').at(-1) ?? '')?.[1] ?? 0);
      expect(listed.length + more, code).toBe(expected.length);
      // Compared with runs of white space as one: the page lays each form out in an element of its own.
      const spaced = (value: string) => value.replace(/\s+/g, ' ');
      expect(listed.map(spaced), code).toEqual(expected.slice(0, listed.length).map((entry) => spaced(entry.source.join(' | '))));
      listedInAll += listed.length;
    }
    // Django's components share strings ("Save", "Delete"…): some languages translate them two ways.
    expect(listedInAll).toBeGreaterThan(0);
  });

  test('every variant links to its units, and each link reaches an existing unit anchor', async () => {
    const code = [...translated.keys()].find((language) => differentTranslations(translated.get(language)!).length > 0)!;
    const html = await page(code);
    const links = [...section(html, 'different').matchAll(/href="([^"]+)"/g), ...section(html, 'placeholders').matchAll(/href="([^"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(links.length).toBeGreaterThan(1);
    for (const link of links.slice(0, 40)) {
      const [file = '', anchor = ''] = link.split('#');
      const target = await readFile(join(out, posix.join(posix.dirname(consistencyPath(code)), file)), 'utf8');
      expect(target, link).toContain(`id="${decodeURIComponent(anchor)}"`);
    }
  });

  test('placeholder and punctuation rows name what differs from most languages', async () => {
    let rowsSeen = 0;
    for (const code of translated.keys()) {
      const html = await page(code);
      for (const id of ['placeholders', 'punctuation']) {
        for (const row of rows(section(html, id))) {
          const [, , found, most] = cells(row).map(text);
          expect(found, `${code} ${id}`).not.toBe(most);
          rowsSeen++;
        }
      }
    }
    expect(rowsSeen).toBeGreaterThan(0);
  });

  test.runIf(chromium)('a page is axe clean and fits a 390 px phone without scrolling sideways', async () => {
    const code = [...translated.keys()].find((language) => differentTranslations(translated.get(language)!).length > 0)!;
    const server = await serveStatic(out);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${server.url}${consistencyPath(code)}`);
      await screenshot(page, 'consistency');
      expect(await seriousViolations(page)).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'consistency-phone');
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    } finally {
      await browser.close();
      await server.close();
    }
  });

  test('the pages stay small next to the strings they cover', async () => {
    let bytes = 0;
    const languages = await readdir(join(out, 'languages'));
    for (const code of languages) bytes += (await stat(join(out, 'languages', code, 'consistency', 'index.html')).catch(() => ({ size: 0 }))).size;
    // Lists are capped (100 findings of each kind per language): a few bytes per string, far under the 1 KB per string budget.
    expect(bytes / units).toBeLessThan(100);
    console.log(`consistency pages: ${bytes} bytes for ${units} units, ${(bytes / units).toFixed(1)} B per unit`);
  });
});
