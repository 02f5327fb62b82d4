/**
 * The page of one string in every language (issue 14, docs/site.md "One page per string"): it
 * lists each translation of the string with a working relative link to its unit, each unit
 * links to it once, server text stays text, hidden authors stay hidden, and at 50 languages a
 * string costs at most 1 KB of unit and string pages.
 */
import { access, readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringChecksum } from '../../site-model/paths.ts';
import { openSnapshot, openSnapshotWriter } from '../../snapshot/index.ts';
import { buildWithCli, hasChromium, launchChromium, scratch, seriousViolations } from './browser.ts';
import { base, fixtureRecords, hostile, writeFixtureSnapshot, type FixtureUnit } from './fixture.ts';
import { useTempFolders } from '../helpers/temp.ts';

const chromium = hasChromium();

const tempFolder = useTempFolders('tmsnap-strings-', 'all', scratch);
let work: string;
let browser: Browser | undefined;

beforeAll(async () => {
  work = await tempFolder();
});

afterAll(async () => {
  await browser?.close();
});

async function htmlFiles(dist: string, pattern: RegExp): Promise<string[]> {
  const files = await readdir(dist, { recursive: true });
  return files.filter((file) => pattern.test(file.split('\\').join('/'))).map((file) => file.split('\\').join('/'));
}

const unitPages = /\/units\/\d+\/index\.html$/;
const stringPages = /\/strings\/[0-9a-f]{2}\/[0-9a-f]{16}\/index\.html$/;

/** The `href`s of the links in a page's table rows (`<tr><th><a href>`), entities decoded. */
function rowLinks(page: string): Array<{ href: string; name: string }> {
  return [...page.matchAll(/<tr><th><a href="?([^"\s>]*)"?>([^<]*)<\/a>/g)].map((match) => ({
    href: match[1]!.replaceAll('&amp;', '&'),
    name: match[2]!,
  }));
}

/**
 * Each unit row of a unit page (`<tr id="unit-…">`) and its id: the row's markup runs to the next
 * unit's, since a row can hold a history table with rows of its own.
 */
function unitRowsOf(page: string): Array<[string, string]> {
  return page
    .split('<tr id="unit-')
    .slice(1)
    .map((chunk) => [chunk, /^\d+/.exec(chunk)?.[0] ?? '']);
}

/** A relative link from a built file to a file and fragment; the file must exist. */
async function resolveLink(dist: string, from: string, href: string): Promise<{ file: string; fragment: string }> {
  const [path = '', fragment = ''] = href.split('#');
  const file = posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(path)));
  expect(file.startsWith('../'), `${from} → ${href}`).toBe(false);
  await access(join(dist, file));
  return { file, fragment: decodeURIComponent(fragment) };
}

describe('the page of a string in every language (fixture, --hide-authors, two snapshots)', () => {
  let content: string;
  let dist: string;

  beforeAll(async () => {
    content = join(work, 'content');
    dist = join(work, 'dist');
    // Unit 2002 changes between the snapshots, so it has a history; change 1501 names jane as its author.
    await writeFixtureSnapshot(content);
    await writeFixtureSnapshot(content, new Map([[2002, { target: ['%d Datei (neu)', '%d Dateien (neu)'], state: 10 }]]));
    await buildWithCli(['--content', content, '--out', dist, '--hide-authors']);
  }, 600_000);

  it("lists every language's translation of each string, each linking to its unit's anchor", async () => {
    const snapshot = await openSnapshot(content);
    const expected = new Map<string, Map<string, number>>();
    for (const translation of await snapshot.translations()) {
      if (!translation.path.startsWith('api/translations/demo/core/')) continue;
      for (const unit of await snapshot.units(translation.path)) {
        const languages = expected.get(stringChecksum(unit.id_hash)) ?? new Map<string, number>();
        languages.set(translation.record.language_code, unit.id);
        expected.set(stringChecksum(unit.id_hash), languages);
      }
    }
    expect(expected.size).toBe(150);
    const pages = (await htmlFiles(dist, stringPages)).filter((file) => file.startsWith('projects/demo/core/'));
    expect(pages).toHaveLength(expected.size);
    for (const [checksum, languages] of expected) {
      const from = `projects/demo/core/strings/${checksum.slice(-2)}/${checksum}/index.html`;
      const links = rowLinks(await readFile(join(dist, from), 'utf8'));
      const found = new Map<string, number>();
      for (const { href } of links) {
        const { file, fragment } = await resolveLink(dist, from, href);
        const language = /^projects\/demo\/core\/([^/]+)\/units\/\d+\/index\.html$/.exec(file)?.[1];
        expect(language, href).toBeDefined();
        expect(await readFile(join(dist, file), 'utf8'), href).toContain(`<tr id="${fragment}">`);
        found.set(language!, Number(fragment.replace('unit-', '')));
      }
      expect(found, checksum).toEqual(languages);
    }
  });

  it("links each unit once to its string's page, and that page back to the unit", async () => {
    let articles = 0;
    for (const from of await htmlFiles(dist, unitPages)) {
      const page = await readFile(join(dist, from), 'utf8');
      for (const [article, id] of unitRowsOf(page)) {
        const links = [...article.matchAll(/<a href="?([^"\s>]*\/strings\/[^"\s>]*)"?>/g)].map((match) => match[1]!);
        const editorLinks = [...article.matchAll(/<a href="[^"]*\/translate\/[^"]*">/g)];
        // Docs has one translation: its units say it all, and get no link to a string page but keep their editor link.
        if (from.startsWith('projects/demo/docs/')) {
          expect(links, `unit ${id} of ${from}`).toEqual([]);
          expect(editorLinks, `unit ${id} of ${from}`).toHaveLength(1);
          continue;
        }
        // The string's page carries the editor link (issue 14).
        expect(editorLinks, `unit ${id} of ${from}`).toEqual([]);
        expect(links, `unit ${id} of ${from}`).toHaveLength(1);
        const { file } = await resolveLink(dist, from, links[0]!);
        const back = await Promise.all(rowLinks(await readFile(join(dist, file), 'utf8')).map(({ href }) => resolveLink(dist, file, href)));
        expect(back, `unit ${id}`).toContainEqual({ file: from, fragment: `unit-${id}` });
        articles += 1;
      }
    }
    expect(articles).toBe(150 + 150 + 3);
  });

  it.runIf(chromium)('keeps HTML in strings as text, and no page can run script', async () => {
    const checksum = stringChecksum(BigInt(1) * 7_919_000_000_000_001n - 4_000_000_000_000_000_000n);
    const path = `projects/demo/core/strings/${checksum.slice(-2)}/${checksum}/index.html`;
    const page = await readFile(join(dist, path), 'utf8');
    expect(page).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(page).not.toContain(hostile.script);
    expect(page).not.toContain('<img src=x');
    browser = await launchChromium();
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    // From disk, as a reader of a downloaded site would open it.
    await tab.goto(`file://${join(dist, path)}`);
    const rows = tab.locator('table.strings tbody tr');
    expect(await rows.count()).toBe(3);
    expect(await tab.locator('td[lang=de]').innerText()).toBe(hostile.script);
    expect(await tab.locator('td[dir=rtl][lang=ar]').innerText()).toBe('سلسلة رقم ١');
    expect(await tab.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await seriousViolations(tab)).toEqual([]);
    await tab.getByRole('link', { name: 'German', exact: true }).click();
    await tab.waitForURL(/\/de\/units\/1\/index\.html#unit-2001$/);
    expect(await tab.locator('tr[id^="unit-"]:target td[lang=de]').innerText()).toBe(hostile.script);
    expect(errors).toEqual([]);
    await tab.close();
  });

  it('names no author where authors are hidden, string pages and histories alike', async () => {
    const pages = [...(await htmlFiles(dist, stringPages)), ...(await htmlFiles(dist, unitPages))];
    expect(pages.length).toBeGreaterThan(150);
    for (const file of pages) expect(await readFile(join(dist, file), 'utf8'), file).not.toMatch(/jane/i);
    // The history that would name jane is there, with the neutral label.
    const german = await readFile(join(dist, 'projects/demo/core/de/units/1/index.html'), 'utf8');
    const history = unitRowsOf(german).find(([, id]) => id === '2002')?.[0] ?? '';
    expect(history).toContain('<table class="history">');
    expect(history).toContain('a contributor');
  });
});

// Fifty target languages, as in issue 14's largest projects, plus the source.
const targetCodes =
  'af ar be bg bn ca cs da de el eo es et eu fa fi fr ga gl he hi hr hu id it ja ka kk ko lt lv mk ms nb_NO nl pl pt pt_BR ro ru sk sl sr sv ta th tr uk vi zh_Hans'.split(
    ' ',
  );
const stringsPerLanguage = 100;
const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** One component in English and 50 languages, 100 strings each, written through the snapshot writer. */
async function writeManyLanguages(content: string): Promise<number> {
  const { api, language, project, component, translation, unit } = fixtureRecords;
  const writer = await openSnapshotWriter(content, { baseUrl: `${base}api/`, scope: {}, tmsnapVersion: 'test', resume: false });
  const proj = project('app', 'App', 1, { web: 'https://example.org/', instructions: '' });
  const comp = component(proj, 'ui', 'User interface', 10, {
    repoweb: 'https://git.example.org/app/blob/{{branch}}/{{filename}}#L{{line}}',
    license_url: null,
  });
  await writer.putRecord(proj.url, proj);
  await writer.putRecord(comp.url, comp);
  const words = ['Save', 'Open', 'the file', 'settings', 'as', 'a copy', 'project', 'now', 'later', 'search', 'results'];
  let id = 0;
  for (const [index, code] of ['en', ...targetCodes].entries()) {
    const name = languageNames.of(code.replace('_', '-')) ?? code;
    const record = {
      ...language('de'),
      code,
      name,
      direction: code === 'ar' || code === 'he' || code === 'fa' ? 'rtl' : 'ltr',
      url: api(`languages/${code}/`),
      web_url: `${base}languages/${code}/`,
    };
    await writer.putRecord(record.url, record);
    const list: FixtureUnit[] = Array.from({ length: stringsPerLanguage }, (_, i) => {
      const plural = i % 17 === 3;
      const phrase = `${words[i % words.length]} ${words[(i * 3 + 1) % words.length]} ${words[(i * 7 + 2) % words.length]} (${i + 1})`;
      const source = plural ? [`%d ${phrase}`, `%d ${phrase}s`] : [phrase];
      const state = code === 'en' ? 100 : ([20, 20, 30, 0, 10, 20][(i + index) % 6] ?? 20);
      return {
        id: ++id,
        position: i + 1,
        source,
        target: code === 'en' ? source : source.map((text) => (state === 0 ? '' : `${code}: ${text}`)),
        state,
        idHash: BigInt(i + 1) * 1_000_003_000_001n - 4_000_000_000_000_000_000n,
        location: `src/${words[i % words.length]!.replace(' ', '_')}.c:${i + 10}`,
        note: i % 5 === 0 ? 'Shown in the toolbar.' : '',
      };
    });
    const plain = translation(comp, 'de', 100 + index, list);
    const url = api(`translations/app/ui/${code}/`);
    const rec = { ...plain, language: record, language_code: code, url, filename: `po/${code}.po`, units_list_url: `${url}units/`, is_source: code === 'en' };
    await writer.putRecord(url, rec);
    await writer.putUnits(
      url,
      list.map((u) => unit(url, u)),
    );
  }
  await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true });
  return id;
}

describe('bytes per string at 50 languages (issue 14)', () => {
  let dist: string;
  let units: number;

  beforeAll(async () => {
    const content = join(work, 'content-50');
    dist = join(work, 'dist-50');
    units = await writeManyLanguages(content);
    await buildWithCli(['--content', content, '--out', dist]);
  }, 600_000);

  it('builds a page per string, and spends at most 1 KB per string on unit and string pages', async () => {
    expect(units).toBe(51 * stringsPerLanguage);
    const strings = await htmlFiles(dist, stringPages);
    const unitFiles = await htmlFiles(dist, unitPages);
    expect(strings).toHaveLength(stringsPerLanguage);
    expect(unitFiles).toHaveLength(51);
    const size = async (files: string[]) => (await Promise.all(files.map((file) => readFile(join(dist, file))))).reduce((sum, bytes) => sum + bytes.length, 0);
    const perString = ((await size(strings)) + (await size(unitFiles))) / units;
    // The budget is 1 KB per string for the whole site; before the string pages, the
    // 50 links per article alone were about 3 KB.
    expect(perString).toBeLessThanOrEqual(1024);
    const page = await readFile(join(dist, strings[0]!), 'utf8');
    expect(rowLinks(page)).toHaveLength(51);
  });

  it("puts one editor link on the string's page and none on its units (issue 14)", async () => {
    const editor = new RegExp(`<a href="${base.replace(/[.]/g, '\\.')}translate/[^"]*">`, 'g');
    for (const file of await htmlFiles(dist, unitPages)) {
      const page = await readFile(join(dist, file), 'utf8');
      expect(page.match(/<tr id="unit-/g), file).toHaveLength(stringsPerLanguage);
      expect(page.match(editor), file).toBeNull();
      // The labels and UTC are said once, in the table's head; each time is to the minute, as text.
      expect(page, file).toContain('<p class="muted">Times are in UTC.</p>');
      // "Added": this server sends no last_updated, as Weblate before 5.6 (src/templates/unit-html.ts).
      expect(page.match(/<th scope="col">(Last changed|Added)<\/th>/g), file).toHaveLength(1);
      const table = page.slice(page.indexOf('<table class="units">'), page.lastIndexOf('</table>'));
      expect(table.match(/<dt>(Source|Translation|Last changed|Added)(<\/dt>|<dd)|<time/g), file).toBeNull();
      // Rows leave out the end tags HTML lets go (src/templates/unit-html.ts, `end`).
      expect(page.match(/<td>\d{4}-\d\d-\d\d \d\d:\d\d<td>/g), file).toHaveLength(stringsPerLanguage);
    }
    for (const file of await htmlFiles(dist, stringPages)) {
      const page = await readFile(join(dist, file), 'utf8');
      const rows = [...page.matchAll(/<tr><th><a href="?[^"\s>]*"?>[^<]*<\/a><td[\s\S]*?(?=<tr>|<\/tbody>)/g)].map((match) => match[0]);
      expect(rows, file).toHaveLength(51);
      for (const row of rows) expect(row.match(editor), `${file}: ${row}`).toBeNull();
      // Which language's link it is: test/site/output-unit-table.test.ts (the fixture's editor links name none).
      expect(page.match(editor), file).toHaveLength(1);
    }
  });
});
