/**
 * What the site publishes as pages when the log and the translations are long (issue 14,
 * docs/site.md "Changes pages" and "Translation pages"): only the newest `publishedChanges`
 * changes get pages and the last one says where the rest is; a translation page counts its
 * strings by unit page instead of listing every one; the links of those pages resolve.
 */
import { access, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesPages, changesPerPage, publishedChanges } from '../../src/data/changes.ts';
import { stringsByPage } from '../../src/data/strings-by-page.ts';
import { checkLinks } from '../../site/link-check.ts';
import { openSnapshotWriter } from '../../snapshot/index.ts';
import { buildWithCli, hasChromium, launchChromium, scratch, seriousViolations, serveStatic } from './browser.ts';
import { builders, languageFacts, unitCounts } from '../helpers/records.ts';
import { useTempFolders } from '../helpers/temp.ts';

const chromium = hasChromium();

const tempFolder = useTempFolders('tmsnap-published-', 'all', scratch);
const base = 'http://weblate.test/';
const unitsPerTranslation = 250;
const states = [0, 10, 20, 30, 20];

/**
 * One project, one component in English, German and Polish, 250 units each (three unit pages);
 * 10,000 older project-wide changes (ids 1–10,000), then one change per unit naming it (ids
 * 10,001–10,750): 750 more than the site publishes.
 */
async function writeLongSnapshot(content: string) {
  const build = builders(base);
  const language = (code: 'en' | 'de' | 'pl') => build.language(code, languageFacts[code].name, languageFacts[code]);
  const project = build.project('long', 1, { name: 'Long' });
  const component = build.component(project, 'app', 1, language('en'), { name: 'App' });
  const writer = await openSnapshotWriter(content, { baseUrl: `${base}api/`, scope: {}, tmsnapVersion: 'test', resume: false });
  for (const code of ['en', 'de', 'pl'] as const) await writer.putRecord(build.api(`languages/${code}/`), language(code));
  await writer.putRecord(project.url, project);
  await writer.putRecord(component.url, component);
  const changes = [];
  let id = 0;
  for (const [at, code] of (['en', 'de', 'pl'] as const).entries()) {
    const units = Array.from({ length: unitsPerTranslation }, (_, index) => {
      id += 1;
      const state = code === 'en' ? 100 : states[index % states.length]!;
      return build.unit(build.api(`translations/long/app/${code}/`), id, index + 1, BigInt(index + 1) * 7_919_000_000_001n, {
        source: [`Source string ${index + 1}`],
        target: [`${code} text ${index + 1}`],
        state,
        sourceUnit: index + 1,
      });
    });
    const translation = build.translation(component, language(code), at + 1, unitCounts(units));
    await writer.putRecord(translation.url, translation);
    await writer.putUnits(translation.url, units);
    for (const unit of units) {
      changes.push(
        build.change(10_000 + unit.id, 2, component.url, translation.url, {
          unit: build.api(`units/${unit.id}/`),
          timestamp: `2026-11-20T${String(Math.floor(unit.id / 60) % 24).padStart(2, '0')}:${String(unit.id % 60).padStart(2, '0')}:00.000000Z`,
          target: `${code} text ${unit.position}`,
        }),
      );
    }
  }
  for (let older = 1; older <= publishedChanges; older += 1)
    changes.push(build.change(older, 59, component.url, null, { timestamp: '2026-11-19T10:00:00.000000Z', target: '' }));
  await writer.putChanges(changes);
  await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true });
  return changes.length;
}

const rowsOf = (html: string) => [...html.matchAll(/<tr data-change="(\d+)"/g)].map((match) => Number(match[1]));

/** A relative link from a built file: the file it names must exist; returns it and the fragment. */
async function resolve(dist: string, from: string, href: string): Promise<{ file: string; fragment: string }> {
  const [path = '', fragment = ''] = href.replaceAll('&amp;', '&').split('#');
  const file = posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(path)));
  expect(file.startsWith('../'), `${from} → ${href}`).toBe(false);
  await access(join(dist, file));
  return { file, fragment: decodeURIComponent(fragment) };
}

describe('how many changes the site publishes', () => {
  it('caps the pages at the newest publishedChanges, and only says so when some are left out', () => {
    expect(changesPages(0)).toEqual({ total: 0, published: 0, pages: 1 });
    expect(changesPages(publishedChanges)).toEqual({ total: publishedChanges, published: publishedChanges, pages: publishedChanges / changesPerPage });
    expect(changesPages(1_005_110)).toEqual({ total: 1_005_110, published: publishedChanges, pages: publishedChanges / changesPerPage });
    expect(changesPages(250, 120)).toEqual({ total: 250, published: 120, pages: 2 });
  });
});

describe('strings by unit page', () => {
  it('counts each unit page’s strings by state group, units past `total` on the last page', () => {
    const units = Array.from({ length: 205 }, (_, index) => ({ position: index + 1, state: states[index % states.length]! }));
    const { groups, pages } = stringsByPage(units, 2);
    expect(pages.map(({ page, first, last }) => [page, first, last])).toEqual([
      [1, 1, 100],
      [2, 101, 205],
    ]);
    expect(groups.map(({ group, count }) => [group, count])).toEqual([
      ['empty', 41],
      ['fuzzy', 41],
      ['translated', 82],
      ['approved', 41],
    ]);
    expect(Object.fromEntries(pages[1]!.counts)).toEqual({ empty: 21, fuzzy: 21, translated: 42, approved: 21 });
    expect(stringsByPage([], 1)).toEqual({ groups: [], pages: [] });
  });
});

describe('a site whose log is longer than what it publishes', () => {
  let dist: string;
  let total: number;
  let browser: Browser | undefined;
  let server: Awaited<ReturnType<typeof serveStatic>> | undefined;

  beforeAll(async () => {
    const work = await tempFolder();
    const content = join(work, 'content');
    dist = join(work, 'dist');
    total = await writeLongSnapshot(content);
    await buildWithCli(['--content', content, '--out', dist]);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const page = (path: string) => readFile(join(dist, path), 'utf8');

  it('publishes the newest publishedChanges changes, 100 a page, newest first, and no page after', async () => {
    const { pages } = changesPages(total);
    const ids: number[] = [];
    for (let n = 1; n <= pages; n += 1) ids.push(...rowsOf(await page(n === 1 ? 'changes/index.html' : `changes/${n}/index.html`)));
    expect(ids).toHaveLength(publishedChanges);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // The newest are the units' 750, then the project-wide ones down to the 751st.
    expect(ids[0]).toBe(10_000 + 3 * unitsPerTranslation);
    expect(ids.at(-1)).toBe(total - publishedChanges + 1);
    await expect(access(join(dist, `changes/${pages + 1}/index.html`))).rejects.toThrow();
    expect(await page('changes/index.html')).toContain(
      `${total.toLocaleString('en')} changes archived, newest first. The newest ${publishedChanges.toLocaleString('en')} are listed here.`,
    );
  });

  it('says on the last page, and only there, how many older changes are left out and where they are', async () => {
    const { pages } = changesPages(total);
    const last = await page(`changes/${pages}/index.html`);
    expect(last).toMatch(
      new RegExp(`<p id="older-changes">\\s*Older changes \\(${total - publishedChanges}\\) are not published as pages: [^<]*tmsnap export[^<]*tmsnap diff`),
    );
    expect(last).not.toContain('rel="next"');
    for (let n = 1; n < pages; n += 1) expect(await page(n === 1 ? 'changes/index.html' : `changes/${n}/index.html`)).not.toContain('older-changes');
  });

  it('keeps the project’s and each language’s changes page at their latest 100', async () => {
    expect(rowsOf(await page('projects/long/changes/index.html'))).toHaveLength(100);
    for (const code of ['en', 'de', 'pl']) {
      const ids = rowsOf(await page(`languages/${code}/changes/index.html`));
      expect(ids).toHaveLength(100);
      expect(ids[0]).toBe(10_000 + { en: 1, de: 2, pl: 3 }[code]! * unitsPerTranslation);
    }
  });

  it('links every published change to a string anchor that exists, and no link of the site is broken', async () => {
    const { pages } = changesPages(total);
    let linked = 0;
    for (let n = 1; n <= pages; n += 1) {
      const from = n === 1 ? 'changes/index.html' : `changes/${n}/index.html`;
      for (const [, href] of (await page(from)).matchAll(/<a class="unit-link" href="([^"]*)"/g)) {
        const { file, fragment } = await resolve(dist, from, href!);
        expect(await page(file)).toContain(`id="${fragment}"`);
        linked += 1;
      }
    }
    expect(linked).toBe(3 * unitsPerTranslation);
    expect(await checkLinks(dist)).toEqual([]);
  });

  it('counts a translation’s strings by unit page, each row linking its page, without repeating the strings', async () => {
    const from = 'projects/long/app/de/index.html';
    const html = await page(from);
    const table = /<table[^>]*id="unit-pages"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    const rows = [...table.matchAll(/<tr>\s*<th scope="row"><a href="([^"]*)">[^<]*<\/a><\/th>([\s\S]*?)<\/tr>/g)];
    expect(rows).toHaveLength(3);
    let counted = 0;
    for (const [n, [, href, cells]] of rows.entries()) {
      const { file } = await resolve(dist, from, href!);
      expect(file).toBe(`projects/long/app/de/units/${n + 1}/index.html`);
      const numbers = [...cells!.matchAll(/data-sort="(\d+)"/g)].map((match) => Number(match[1]));
      const [first, ...counts] = numbers;
      expect(first).toBe(n * 100 + 1);
      const onPage = (await page(file)).match(/<tr id="unit-\d+"/g) ?? [];
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(onPage.length);
      counted += onPage.length;
    }
    expect(counted).toBe(unitsPerTranslation);
    expect(table).toMatch(/<tfoot>[\s\S]*250[\s\S]*<\/tfoot>/);
    // The strings are on the unit pages, not here: no text of the translation's units.
    expect(html).not.toContain('de text 1<');
    expect(html).not.toContain('Source string 2<');
  });

  it.runIf(chromium)(
    'has no serious accessibility violations on the last changes page and a translation page',
    async () => {
      server = await serveStatic(dist, 0);
      browser = await launchChromium();
      const tab = await browser.newPage();
      for (const path of [`changes/${changesPages(total).pages}/index.html`, 'projects/long/app/pl/index.html']) {
        await tab.goto(`${server.url}${path}`);
        expect(await seriousViolations(tab), path).toEqual([]);
      }
      await tab.close();
    },
    120_000,
  );
});
