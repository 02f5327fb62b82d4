/**
 * Issue 38, "What 2026 gives the site": Weblate 5.15's unit states 11 ("needs rewriting") and 12
 * ("needs checking"), kinds of "needs editing" (docs/weblate-api.md, "States 11 and 12"). A real
 * crawl of the reference server as the 2026 releases answer (`weblate-2026`, keyed, its bot
 * protection off so the keyed crawl can learn what is public), Czech of Hello's Messages holding
 * one string in each of 0, 10, 11, 12, 20 and 100, built with the CLI: each state shown by
 * Weblate's name, counted in "needs editing" as Weblate counts it, filterable by name in
 * `tmsnap search` and on the search page. The same site shows 2026's announcements and pending
 * suggestions, and none of the private project's (docs/site.md, "Announcements and suggestions").
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryModel, type ModelRows } from '../../packages/reference-server/memory-model.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { stringsByPage } from '../../src/data/strings-by-page.ts';
import { uiTranslator } from '../../src/i18n/index.ts';
import { publishedSnapshot } from '../../site-model/published-snapshot.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { siteFiles } from '../helpers/public-sites.ts';
import { withTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { buildWithCli, launchChromium, scratch, serveStatic } from './browser.ts';

const token = 'wlu_states2026TestToken_0123456789';
const tempFolder = useTempFolders('tmsnap-states-2026-', 'all', scratch);
let content: string;
let dist: string;
let site: Awaited<ReturnType<typeof serveStatic>>;
let browser: Browser;

/** Czech of hello/po by position: 1 translated, 2 needs editing, 3 needs rewriting, 4 empty, 5 needs checking, 6 read-only. */
function rowsWithNewStates() {
  const rows = fixtureRows();
  const czech = rows.translations.find((translation) => translation.componentId === 1 && translation.languageCode === 'cs')!;
  const at = (position: number) => rows.units.find((unit) => unit.translationId === czech.id && unit.position === position)!;
  at(3).state = 11;
  at(5).state = 12;
  return rows;
}

/** Messages of announcements the site must show, and of those it must not (expired, or of the private project). */
const news = {
  html: 'String freeze on <b>Friday</b> & <script>alert("announced")</script>\nSecond line of the freeze',
  expired: 'An expired announcement of Hello',
  component: 'Component news for Messages',
  secret: 'Embargoed announcement of Secret',
  secretComponent: 'Embargoed announcement of App',
};

/** Announcements of Hello, its Messages and the private Secret (its App too); each Czech first string has a suggestion (fixture). */
function withNews(rows: ModelRows): ModelRows {
  const secret = rows.projects.find((project) => project.slug === 'secret')!;
  const app = rows.components.find((component) => component.projectId === secret.id)!;
  const row = (id: number, projectId: number, componentId: number | null, message: string, severity: string, expiry: string | null) => ({
    id,
    projectId,
    componentId,
    message,
    severity,
    expiry,
    notify: false,
  });
  rows.announcements = [
    row(1, 1, null, news.html, 'warning', null),
    row(2, 1, null, news.expired, 'info', '2020-01-31'),
    row(3, 1, 1, news.component, 'success', '2099-12-31'),
    row(4, secret.id, null, news.secret, 'danger', null),
    row(5, secret.id, app.id, news.secretComponent, 'info', null),
  ];
  return rows;
}

beforeAll(async () => {
  const work = await tempFolder();
  content = join(work, 'content');
  dist = join(work, 'dist');
  await withTestServer(
    {
      profile: 'weblate-2026',
      data: new MemoryModel(withNews(rowsWithNewStates())),
      behaviours: { tokens: [token], rateLimit: raisedRateLimit, botChallenge: null },
    },
    (server) => crawlComplete(server, content, { token }),
  );
  await buildWithCli(['--content', content, '--out', dist]);
  site = await serveStatic(dist);
  browser = await launchChromium();
  // Crawl and build: a minute or more when the suite shares two cores.
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const page = (path: string) => readFile(join(dist, path), 'utf8');
const translationPage = 'projects/hello/po/cs/index.html';

/** A state cell as the site writes it wherever strings are listed: the class and the word. */
const cells = (html: string) => [...html.matchAll(/<td class=s(\d+)>([^<]*)/g)].map(([, state, word]) => `${state} ${word}`);

describe('states 11 and 12 on the site', () => {
  it('shows each by Weblate’s label on the page of strings, and Czech of 10, 11, 12 in Weblate’s words for each', async () => {
    expect(cells(await page('projects/hello/po/cs/units/1/index.html'))).toEqual([
      '20 translated',
      '10 needs editing',
      '11 needs editing (needs rewriting)',
      '0 untranslated',
      '12 needs editing (needs checking)',
      '100 read-only',
    ]);
    // The catalogs: German and Arabic name them too, as kinds of "needs editing" (src/i18n/po/).
    expect([10, 11, 12].map((state) => uiTranslator('de').stateName(state))).toEqual([
      'zu bearbeiten',
      'zu bearbeiten (neu zu formulieren)',
      'zu bearbeiten (zu prüfen)',
    ]);
    expect(uiTranslator('ar').stateName(12)).toBe('يحتاج إلى تحرير (يحتاج إلى تدقيق)');
  });

  it('counts 11 and 12 in "needs editing", never in translated or untranslated, as Weblate’s statistics do', async () => {
    const html = await page(translationPage);
    const figure = (name: string) => new RegExp(`<dd data-figure="${name}">(?:<a[^>]*>)?([^<]*)`).exec(html)?.[1];
    // Six strings: 20 and 100 translated, 10, 11 and 12 need editing, 0 untranslated; the one at 20 waits for review.
    expect(figure('translated')).toMatch(/^2 of 6 strings /);
    expect(figure('fuzzy')).toBe('3 strings');
    expect(figure('untranslated')).toBe('1 string');
    expect(figure('waiting-for-review')).toBe('1 string');
    // The list behind "Needs editing 3" holds those three, each by its state's name.
    expect(cells(await page('projects/hello/po/cs/needs/needs-editing/index.html'))).toEqual([
      '10 needs editing',
      '11 needs editing (needs rewriting)',
      '12 needs editing (needs checking)',
    ]);
    expect(cells(await page('projects/hello/po/cs/needs/waiting-for-review/index.html'))).toEqual(['20 translated']);
    // The language's "where help is needed" row says the same.
    expect(await page('languages/cs/index.html')).toMatch(/data-sort="3" data-need="needs-editing"><a href="[^"]*needs\/needs-editing\/index\.html"/);
  });

  it('gives 10, 11 and 12 a column each in the table of unit pages, each headed by its own state', async () => {
    const table = /<table[^>]*id="unit-pages"[\s\S]*?<\/table>/.exec(await page(translationPage))?.[0] ?? '';
    const heads = [...table.matchAll(/<th scope="col" class="num s(\d+)"[^>]*data-state-group="([^"]+)">([^<]*)<\/th>/g)].map(([, state, group, word]) => [
      Number(state),
      group,
      word,
    ]);
    expect(heads).toEqual([
      [0, 'empty', 'untranslated'],
      [10, 'fuzzy', 'needs editing'],
      [11, 'needs-rewriting', 'needs editing (needs rewriting)'],
      [12, 'needs-checking', 'needs editing (needs checking)'],
      [20, 'translated', 'translated'],
      [100, 'readonly', 'read-only'],
    ]);
    const totals = /<tfoot>([\s\S]*?)<\/tfoot>/.exec(table)?.[1] ?? '';
    expect([...totals.matchAll(/<td class="num">([^<]*)<\/td>/g)].map(([, count]) => count)).toEqual(['6', '1', '1', '1', '1', '1', '1']);
  });

  it('labels a group by its own state whichever comes first (a group of 10–12 was labelled by its first string)', () => {
    const { groups } = stringsByPage(
      [12, 10, 11, 12, 100].map((state, index) => ({ position: index + 1, state })),
      1,
    );
    expect(groups).toEqual([
      { group: 'fuzzy', state: 10, count: 1 },
      { group: 'needs-rewriting', state: 11, count: 1 },
      { group: 'needs-checking', state: 12, count: 2 },
      { group: 'readonly', state: 100, count: 1 },
    ]);
  });
});

describe('states 11 and 12 in search', () => {
  /** `tmsnap search --json` over the crawl's archive: each result as `<language> <state> <target>`. */
  async function search(...args: string[]): Promise<string[]> {
    const result = await tmsnap(['search', '--content', content, '--json', ...args]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { results } = JSON.parse(result.stdout) as { results: { language: string; state: number; state_name: string; target: string[] }[] };
    return results.map((hit) => `${hit.language} ${hit.state} ${hit.state_name}: ${hit.target[0]}`);
  }

  it('tmsnap search --state takes Weblate’s names for them, each exactly, as Weblate’s state: does', async () => {
    // Shown in the site's words (api/states.ts, issue 35).
    expect(await search('--state', 'needs-rewriting')).toEqual(['cs 11 needs editing (needs rewriting): Otevřít']);
    expect(await search('--state', 'needs-checking')).toEqual(['cs 12 needs editing (needs checking): <b>Tučně</b> & <script>alert(1)</script>']);
    expect(await search('--state', '12')).toEqual(await search('--state', 'needs-checking'));
    // needs-editing is 10 alone; all that needs editing is the three together, as many as the figure.
    expect(await search('--state', 'needs-editing')).toEqual(['cs 10 needs editing: Orangutan má %d banán.\n']);
    expect(await search('--lang', 'cs', '--state', 'needs-editing', '--state', 'needs-rewriting', '--state', 'needs-checking')).toHaveLength(3);
  });

  it("tmsnap search reads what the site shows: the private project's strings only with --private-projects or by name", async () => {
    const left = await tmsnap(['search', 'Tajný', '--content', content, '--json']);
    expect(left.code).toBe(0);
    expect((JSON.parse(left.stdout) as { total: number }).total).toBe(0);
    expect(left.stderr.trim()).toBe('tmsnap search: private project left out, as on the site: --private-projects searches it too');
    for (const args of [['--private-projects'], ['--project', 'secret']]) {
      const found = await tmsnap(['search', 'Tajný', '--content', content, '--json', ...args]);
      expect(found.code, found.stderr).toBe(0);
      const { results } = JSON.parse(found.stdout) as { results: { project: string; target: string[] }[] };
      expect(results.map((hit) => `${hit.project}: ${hit.target[0]}`)).toEqual([expect.stringMatching(/^secret: Tajný plán/)]);
      expect(found.stderr.trim()).toBe("tmsnap search: searching private project secret, which the site leaves out (only the server's key sees it)");
    }
  });

  it('the search page offers them by label and lists them by name in the URL', async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(`${site.url}search/index.html?state=needs-rewriting`);
    await tab.waitForFunction(() => document.getElementById('search-status')?.dataset.state === 'done');
    const hits = await tab.$$eval('#search-results .search-hit', (items) =>
      items.map((item) => `${(item as HTMLElement).dataset.language} ${(item as HTMLElement).dataset.state} ${item.querySelector('.state')?.textContent}`),
    );
    expect(hits).toEqual(['cs 11 needs editing (needs rewriting)']);
    expect(await tab.inputValue('select[name="state"]')).toBe('11');
    const options = await tab.$$eval('select[name="state"] option', (items) => items.map((item) => `${(item as HTMLOptionElement).value}=${item.textContent}`));
    expect(options).toEqual(expect.arrayContaining(['10=needs editing', '11=needs editing (needs rewriting)', '12=needs editing (needs checking)']));

    await tab.selectOption('select[name="state"]', '12');
    await tab.waitForFunction(() => document.querySelector<HTMLElement>('#search-results .search-hit')?.dataset.state === '12');
    expect(await tab.$$eval('#search-results .search-hit', (items) => items.map((item) => (item as HTMLElement).dataset.state))).toEqual(['12']);
    expect(errors).toEqual([]);
    await tab.close();
  });
});

describe('announcements and pending suggestions (Weblate 2026) on the site', () => {
  /** The text of every element of a page matching `selector`, as a browser lays it out. */
  async function texts(path: string, selector: string): Promise<string[]> {
    const tab = await browser.newPage();
    await tab.goto(`${site.url}${path}`);
    const found = await tab.$$eval(selector, (items) => items.map((item) => (item as HTMLElement).innerText));
    await tab.close();
    return found;
  }

  it("shows a project's and a component's current announcements, severity in words, the message as text with its line breaks", async () => {
    const project = await page('projects/hello/index.html');
    expect(project).toContain('class="announcement announcement-warning"');
    // The HTML in a message is text: escaped in the page, never markup.
    expect(project).toContain('&lt;script&gt;alert(&quot;announced&quot;)&lt;/script&gt;');
    expect(project).not.toContain('<script>alert("announced")');
    expect(project).not.toContain(news.expired);
    expect(await texts('projects/hello/index.html', '.announcement')).toEqual([
      'Warning\n\nString freeze on <b>Friday</b> & <script>alert("announced")</script>\nSecond line of the freeze',
    ]);
    const component = await page('projects/hello/po/index.html');
    expect(component).toContain('class="announcement announcement-success"');
    expect(await texts('projects/hello/po/index.html', '.announcement')).toEqual(['Success until 2099-12-31\n\nComponent news for Messages']);
    // A project's announcement is its page's, not its components'.
    expect(component).not.toContain('String freeze');
  });

  it("lists a string's pending suggestions under it: text, votes, when, and its author named as history names people", async () => {
    const rows = fixtureRows();
    const czech = rows.translations.find((translation) => translation.componentId === 1 && translation.languageCode === 'cs')!;
    const unit = rows.units.find((row) => row.translationId === czech.id && row.has_suggestion)!;
    const users = [...rows.users].sort((a, b) => a.id - b.id);
    // The reference server's suggestion: the unit's text, a user and votes picked by its id (routes/recent.ts).
    const user = users[unit.id % users.length]!;
    // By full name, else username, as history and credits name people (docs/site.md, "Names of people").
    const name = user.full_name || user.username;
    const author = name.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    const html = await page(`projects/hello/po/cs/units/1/index.html`);
    const block = new RegExp(`<tr id="unit-${unit.id}">[\\s\\S]*?<tr class="history-of">([\\s\\S]*?)</table></td></tr>`).exec(html)?.[1] ?? '';
    expect(block).toContain('Pending suggestions');
    expect(block).toContain(`<td>${author}</td>`);
    expect(block).toContain(`<td class="num">${unit.id % 3}</td>`);
    expect(block).toContain('Ahoj světe!');
    expect(block).toMatch(/<time datetime="2024-05-01T12:/);
    expect(await texts('projects/hello/po/cs/units/1/index.html', 'table.suggestions tbody tr')).toEqual([
      expect.stringMatching(new RegExp(`Ahoj světe!\\n[\\s\\S]*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)),
    ]);
  });

  it("publishes none of the private project's announcements or suggestions, though the keyed crawl holds them", async () => {
    const snapshot = await openSnapshot(content);
    expect(snapshot.manifest.public_projects).toEqual(['api/projects/hello/']);
    expect(JSON.stringify(await snapshot.record('api/projects/secret/announcements/'))).toContain(news.secret);
    expect(JSON.stringify(await snapshot.record('api/components/secret/app/announcements/'))).toContain(news.secretComponent);
    const secretUnits = (await snapshot.units('api/translations/secret/app/cs/')).map((unit) => unit.id);
    const suggested = (record: unknown) =>
      ((record as { results: { unit: string }[] }).results ?? []).map((item) => Number(/units\/(\d+)\/$/.exec(item.unit)?.[1]));
    expect(suggested(await snapshot.record('api/suggestions/')).filter((id) => secretUnits.includes(id))).toHaveLength(1);
    // The published view every stage of the site reads: the suggestion list without the private project's.
    const published = await publishedSnapshot(snapshot, { publish: [], hideAuthors: false });
    const publishedIds = suggested(await published.record('api/suggestions/'));
    expect(publishedIds.length).toBeGreaterThan(0);
    expect(publishedIds.filter((id) => secretUnits.includes(id))).toEqual([]);
    expect(await published.record('api/projects/secret/announcements/')).toBeUndefined();
    // Nowhere in the built site: pages, search index, status.json, feeds, files.
    const leaks: string[] = [];
    for (const file of await siteFiles(dist))
      for (const text of [news.secret, news.secretComponent, 'Tajný plán', 'Embargoed']) if (file.text.includes(text)) leaks.push(`${file.path}: ${text}`);
    expect(leaks).toEqual([]);
  });
});
