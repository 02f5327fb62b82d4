/**
 * Issue 26, "where help is needed": a real crawl of the reference server's fixture instance, its
 * Glossary given Weblate's "very high" priority (60), built with the CLI. A language's page lists
 * the translations into it that need work, by component priority then words left; every count
 * opens a static list holding that many strings, each linking to its row on its unit page; a
 * component without the language is absent; states carry a class (colour) and a word; failing
 * checks show as the flag the API sends.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { crawlInto, historyServer } from '../archive/crawl.ts';
import { fixtureModel } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { buildWithCli, hasChromium, launchChromium, scratch, screenshot, seriousViolations } from './browser.ts';

const chromium = hasChromium();

const tempFolder = useTempFolders('tmsnap-site-help-', 'all', scratch);
let site: string;
let arabic: string;

beforeAll(async () => {
  const work = await tempFolder();
  const content = join(work, 'content');
  site = join(work, 'site');
  const model = fixtureModel();
  // The glossary has fewer words left than Messages in Czech: only its priority can put it first.
  Object.assign(
    model.components().find((component) => component.slug === 'glossary')!,
    { priority: 60 },
  );
  const server = await historyServer(model);
  try {
    await crawlInto(server, content);
  } finally {
    await server.close();
  }
  arabic = join(work, 'site-ar');
  await buildWithCli(['--content', content, '--out', site]);
  await buildWithCli(['--content', content, '--out', arabic, '--ui-lang', 'ar']);
}, 600_000);

const read = (path: string) => readFile(join(site, path), 'utf8');
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

interface HelpRow {
  translation: string;
  priority: number;
  wordsLeft: number;
  /** Per need: the count and where it links. */
  counts: Map<string, { count: number; href: string | undefined }>;
}

/** The rows of a language page's "where help is needed" table. */
function helpTable(page: string): HelpRow[] {
  const table = /<table[^>]*id="help"[^>]*>([\s\S]*?)<\/table>/.exec(page)?.[1];
  if (table === undefined) return [];
  return [...table.matchAll(/<tr data-translation="([^"]+)">([\s\S]*?)<\/tr>/g)].map(([, translation, row]) => {
    const sorts = [...row!.matchAll(/data-sort="(-?\d+)"/g)].map((match) => Number(match[1]));
    const counts = new Map(
      [...row!.matchAll(/<td[^>]*data-sort="(\d+)" data-need="([^"]+)">(?:<a href="([^"]+)">)?/g)].map(([, count, need, href]) => [
        need!,
        { count: Number(count), href },
      ]),
    );
    return { translation: translation!, priority: sorts[0]!, wordsLeft: sorts[1]!, counts };
  });
}

/** The strings a list page holds: each row's number and where it links. */
function listed(page: string): Array<{ position: number; href: string }> {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1] ?? '';
  return [...body.matchAll(/<tr><th><a href="?([^"\s>]+)"?>(\d+)<\/a><td/g)].map(([, href, position]) => ({ href: href!, position: Number(position) }));
}

describe('a language page says where help is needed', () => {
  it('orders translations by component priority, then words left', async () => {
    const rows = helpTable(await read('languages/cs/index.html'));
    expect(rows.map((row) => row.translation)).toEqual(['hello/glossary', 'hello/po']);
    expect(rows.map((row) => row.priority)).toEqual([60, 100]);
    // Messages has more words left, so words alone would have put it first.
    expect(rows[1]!.wordsLeft).toBeGreaterThan(rows[0]!.wordsLeft);
  });

  it('leaves out components where the language does not exist, and the source language', async () => {
    const arabic = helpTable(await read('languages/ar/index.html'));
    expect(arabic.map((row) => row.translation)).toEqual(['hello/po']);
    expect(helpTable(await read('languages/en/index.html'))).toEqual([]);
  });

  it('counts what Czech Messages needs as its units say, waiting for review because the project reviews', async () => {
    const messages = helpTable(await read('languages/cs/index.html')).find((row) => row.translation === 'hello/po')!;
    expect(Object.fromEntries([...messages.counts].map(([need, { count }]) => [need, count]))).toEqual({
      untranslated: 1,
      'needs-editing': 1,
      'failing-checks': 1,
      suggestions: 1,
      'waiting-for-review': 3,
    });
  });

  it('links every count to a list of that many strings, each opening its row on its unit page', async () => {
    for (const language of ['cs', 'ar']) {
      const from = `languages/${language}/index.html`;
      for (const row of helpTable(await read(from))) {
        for (const [need, { count, href }] of row.counts) {
          if (count === 0) {
            expect(href, `${row.translation} ${need}`).toBeUndefined();
            continue;
          }
          const list = posix.join(posix.dirname(from), href!);
          expect(list).toBe(`projects/${row.translation}/${language}/needs/${need}/index.html`);
          const strings = listed(await read(list));
          expect(strings.length, list).toBe(count);
          for (const { href: unitHref } of strings) {
            const [file, fragment] = unitHref.split('#');
            const unitPage = await read(posix.join(posix.dirname(list), file!));
            expect(unitPage, unitHref).toContain(`<tr id="${decodeURIComponent(fragment!)}">`);
          }
        }
      }
    }
  });

  it('lists the untranslated strings by number and source, and the rest with their translation', async () => {
    const untranslated = await read('projects/hello/po/cs/needs/untranslated/index.html');
    expect(listed(untranslated).map((row) => row.position)).toEqual([4]);
    expect(untranslated).toContain('<td class=s0>untranslated<td>Open</tbody>');
    const editing = await read('projects/hello/po/cs/needs/needs-editing/index.html');
    expect(editing).toContain('<td class=s10>needs editing<td');
    expect(editing).toContain('Orangutan má %d banán.');
  });

  it('links the translation page’s figures to the same lists', async () => {
    const page = await read('projects/hello/po/cs/index.html');
    for (const need of ['untranslated', 'needs-editing', 'failing-checks', 'suggestions', 'waiting-for-review']) {
      expect(page, need).toMatch(new RegExp(`<dd[^>]*><a href="needs/${need}/index.html">`));
    }
    expect(await exists(join(site, dirname('projects/hello/po/cs/index.html'), 'needs/untranslated/index.html'))).toBe(true);
  });
});

describe('states and checks where strings are listed', () => {
  it('gives every unit row its state as a word with a colour class, and the failing-check flag', async () => {
    const page = await read('projects/hello/po/cs/units/1/index.html');
    const states = [...page.matchAll(/<tr id="unit-\d+"><th>\d+<td class=s(\d+)>([^<]+)/g)].map((match) => [Number(match[1]), match[2]]);
    expect(states).toEqual([
      [20, 'translated'],
      [10, 'needs editing'],
      [20, 'translated'],
      [0, 'untranslated'],
      [20, 'translated'],
      [100, 'read-only'],
    ]);
    expect(page).toContain('<td class=s20>translated<span class="flag">failing check</span><td');
    expect(page).toContain('<span class="flag">has a suggestion</span>');
  });

  it('shows the flag on the string’s page in every language', async () => {
    const units = await read('projects/hello/po/cs/units/1/index.html');
    const string = /<tr id="unit-\d+"><th>5<td[\s\S]*?<a href="?([^"\s>]+)"?>All languages<\/a>/.exec(units)![1]!;
    const page = await read(posix.join('projects/hello/po/cs/units/1', string));
    expect(page).toMatch(/Czech<\/a><td class=s20>translated<span class="flag">failing check<\/span><td/);
  });

  it.runIf(chromium)('opens the language page and a list from file://, and axe finds nothing serious', async () => {
    const browser = await launchChromium();
    try {
      for (const page of ['languages/cs/index.html', 'projects/hello/po/cs/needs/failing-checks/index.html', 'projects/hello/po/cs/units/1/index.html']) {
        const tab = await browser.newPage();
        await tab.goto(pathToFileURL(join(site, page)).href);
        expect(await seriousViolations(tab), page).toEqual([]);
        await tab.close();
      }
      // A count opens its list from disk.
      const tab = await browser.newPage();
      await tab.goto(pathToFileURL(join(site, 'languages/cs/index.html')).href);
      await tab.click('tr[data-translation="hello/po"] td[data-need="needs-editing"] a');
      expect(tab.url()).toMatch(/projects\/hello\/po\/cs\/needs\/needs-editing\/index\.html$/);
      expect(await tab.locator('tbody tr').count()).toBe(1);
    } finally {
      await browser.close();
    }
  });

  it.runIf(chromium)('fits a 390 px phone without scrolling sideways (screenshots in test/artifacts)', async () => {
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const pages = [
        ['help-needed', 'languages/cs/index.html', '#help-needed'],
        ['help-needed-list', 'projects/hello/po/cs/needs/waiting-for-review/index.html', ''],
      ] as const;
      for (const [name, page, fragment] of pages) {
        await tab.setViewportSize({ width: 1280, height: 900 });
        await tab.goto(pathToFileURL(join(site, page)).href + fragment);
        await screenshot(tab, name);
        await tab.setViewportSize({ width: 390, height: 844 });
        await screenshot(tab, `${name}-phone`);
        expect(await tab.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth), page).toBeLessThanOrEqual(0);
      }
      // A list's rows stack on a phone as the unit table's do, each text labelled.
      const label = await tab.evaluate(() => getComputedStyle(document.querySelector('tbody td:nth-child(3)')!, '::before').content);
      expect(label).toBe('"Source"');
    } finally {
      await browser.close();
    }
  });
});

describe('in the Arabic interface', () => {
  it.runIf(chromium)('says where help is needed and counts a list’s strings in Arabic, and axe finds nothing serious', async () => {
    const page = await readFile(join(arabic, 'languages/cs/index.html'), 'utf8');
    expect(page).toContain('<h2 id="help-needed">أين تُطلب المساعدة</h2>');
    expect(helpTable(page).map((row) => row.translation)).toEqual(['hello/glossary', 'hello/po']);
    // Values in an Arabic message are bidi isolates (U+2066–2069): compared without them.
    const list = (await readFile(join(arabic, 'projects/hello/po/cs/needs/waiting-for-review/index.html'), 'utf8')).replace(/[\u2066-\u2069]/g, '');
    expect(list).toContain('<h1>بانتظار المراجعة: Messages — Czech</h1>');
    expect(listed(list)).toHaveLength(3);
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      for (const path of ['languages/cs/index.html', 'projects/hello/po/cs/needs/waiting-for-review/index.html']) {
        await tab.goto(pathToFileURL(join(arabic, path)).href);
        expect(await seriousViolations(tab), path).toEqual([]);
        await screenshot(tab, `help-needed-ar-${path.startsWith('languages') ? 'language' : 'list'}`);
      }
    } finally {
      await browser.close();
    }
  });
});
