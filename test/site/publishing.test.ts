/**
 * Issue 13 in a real browser, over HTTP and from file://: branding, favicon, 404 page at
 * depth 3, feeds per language as valid Atom, status.json against the snapshot, changes linked
 * to their string, a string's history across three snapshots; and `tmsnap build`'s failures,
 * summary and settings file.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLinks } from '../../site/link-check.ts';
import { unsafeNames } from '../../site/name-check.ts';
import { siteMarkFile } from '../../site/site-folder.ts';
import { statusDocument } from '../../site-model/status-schema.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { buildWithCli, hasChromium, launchChromium, scratch, screenshot, serveStatic } from './browser.ts';
import { writeFixtureSnapshot } from './fixture.ts';
import { useTempFolders } from '../helpers/temp.ts';

const chromium = hasChromium();

const repo = resolve(import.meta.dirname, '../..');
let work: string;
let content: string;
let dist: string;
let server: Awaited<ReturnType<typeof serveStatic>>;
let browser: Browser;
let buildOutput: string;

/** Unit 2004 (German) in three snapshots: translated, then needing edit, then approved. */
const story = [
  { target: ['Zeichenkette 4'], state: 20 },
  { target: ['Zeichenkette vier'], state: 10 },
  { target: ['Zeichenkette Nummer 4'], state: 30 },
];

const tempFolder = useTempFolders('tmsnap-publishing-', 'all', scratch);
beforeAll(async () => {
  work = await tempFolder();
  content = join(work, 'content');
  dist = join(work, 'dist');
  for (const edit of story) await writeFixtureSnapshot(content, new Map([[2004, edit]]));
  await writeFile(
    join(work, 'logo.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#c00"/></svg>\n',
  );
  await writeFile(
    join(work, 'custom.css'),
    ':root { --link: rgb(200, 0, 100); }\n@media (prefers-color-scheme: dark) { :root { --link: rgb(255, 120, 200); } }\n',
  );
  await mkdir(join(work, 'public'));
  await writeFile(join(work, 'public', 'CNAME'), 'l10n.example.org\n');
  // The server reads files as they are asked for: started first, its URL is the site URL.
  server = await serveStatic(dist);
  buildOutput = await buildWithCli([
    '--content',
    content,
    '--out',
    dist,
    '--site-url',
    server.url,
    '--json',
    '--title',
    'Acme translations',
    '--logo',
    join(work, 'logo.svg'),
    '--css',
    join(work, 'custom.css'),
    '--footer',
    'Run by the Acme team',
    '--public',
    join(work, 'public'),
  ]);
  if (chromium) browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const roots = () =>
  [
    ['HTTP', server.url],
    ['file://', `file://${dist}/`],
  ] as const;

async function open(url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  return page;
}

describe('branding', () => {
  it.runIf(chromium)('shows the custom title, logo, footer and CSS, and the favicon loads, over HTTP and from disk', async () => {
    for (const [how, root] of roots()) {
      const page = await open(`${root}projects/demo/core/index.html`);
      expect(await page.title(), how).toBe('Core · Acme translations');
      expect((await page.locator('header .brand').innerText()).trim(), how).toBe('Acme translations');
      expect(await page.locator('header .brand img.logo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), how).toBe(40);
      expect(await page.locator('footer').innerText(), how).toContain('Run by the Acme team');
      expect(
        await page
          .locator('main a')
          .first()
          .evaluate((a) => getComputedStyle(a).color),
        how,
      ).toBe('rgb(200, 0, 100)');
      const icon = await page.evaluate(async () => {
        const href = (document.querySelector('link[rel=icon]') as HTMLLinkElement).href;
        const img = new Image();
        img.src = href;
        await img.decode();
        return img.naturalWidth;
      });
      expect(icon, how).toBeGreaterThan(0);
      if (how === 'HTTP') await screenshot(page, 'site-branded');
      await page.close();
    }
    await page_darkTheme();
    expect(await readFile(join(dist, 'CNAME'), 'utf8')).toBe('l10n.example.org\n');
  });
});

/** The custom CSS's dark-theme variables apply under a dark color scheme. */
async function page_darkTheme(): Promise<void> {
  const page = await browser.newPage({ colorScheme: 'dark' });
  await page.goto(`${server.url}index.html`);
  expect(
    await page
      .locator('main a')
      .first()
      .evaluate((a) => getComputedStyle(a).color),
  ).toBe('rgb(255, 120, 200)');
  await page.close();
}

describe('the web basics', () => {
  it.runIf(chromium)('serves a 404 page that renders with its style and working links at depth 3', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${server.url}a/b/c/missing.html`);
    expect(response?.status()).toBe(404);
    expect((await page.locator('h1').innerText()).trim()).toBe('Page not found');
    // The stylesheet applied: the header has the panel background, not the default transparent one.
    expect(await page.locator('header.site').evaluate((h) => getComputedStyle(h).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
    await screenshot(page, 'site-404');
    await page.getByRole('link', { name: 'All languages' }).click();
    expect(page.url()).toBe(`${server.url}languages/index.html`);
    await page.close();
  });

  it.runIf(chromium)('writes sitemap.xml and robots.txt, canonical and Open Graph links, and <time datetime> on dates', async () => {
    const sitemap = await readFile(join(dist, 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain(`<loc>${server.url}projects/demo/core/de/</loc>`);
    // The 404 page is not listed (string pages' checksums may hold the digits 404).
    expect(sitemap).not.toMatch(/\/404(\.html)?\/?<\/loc>/);
    // Nor the page that only sends /changes/1/ on to /changes/.
    expect(sitemap).toContain(`<loc>${server.url}changes/</loc>`);
    expect(sitemap).not.toContain(`<loc>${server.url}changes/1/</loc>`);
    expect(await readFile(join(dist, 'robots.txt'), 'utf8')).toContain(`Sitemap: ${server.url}sitemap.xml`);
    const page = await open(`${server.url}projects/demo/core/de/index.html`);
    expect(await page.locator('link[rel=canonical]').getAttribute('href')).toBe(`${server.url}projects/demo/core/de/`);
    expect(await page.locator('meta[property="og:url"]').getAttribute('content')).toBe(`${server.url}projects/demo/core/de/`);
    expect(await page.locator('meta[name=description]').getAttribute('content')).toContain('Core — German');
    const times = await page.locator('time').evaluateAll((list) => list.map((t) => t.getAttribute('datetime') ?? ''));
    expect(times.length).toBeGreaterThan(0);
    for (const value of times) expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/);
    await page.close();
  });

  it('has no broken links and no name Windows cannot hold, in dist/ and content/', async () => {
    expect(await checkLinks(dist)).toEqual([]);
    expect(await unsafeNames(dist)).toEqual([]);
    expect(await unsafeNames(content)).toEqual([]);
  });
});

describe('data for machines', () => {
  it('publishes status.json matching the schema and the snapshot figures', async () => {
    const status = statusDocument.parse(JSON.parse(await readFile(join(dist, 'data/status.json'), 'utf8')));
    const snapshot = await openSnapshot(content);
    expect(status.snapshot.id).toBe(snapshot.id);
    const translations = await snapshot.translations();
    expect(status.instance.statistics.total).toBe(translations.reduce((sum, t) => sum + t.record.total, 0));
    expect(status.instance.statistics.translated).toBe(translations.reduce((sum, t) => sum + t.record.translated, 0));
    const listed = status.projects.flatMap((p) => p.components.flatMap((c) => c.translations.map((t) => ({ project: p.slug, component: c.slug, ...t }))));
    expect(listed).toHaveLength(translations.length);
    for (const { record } of translations) {
      const entry = listed.find((t) => t.language === record.language_code && record.component?.endsWith(`/${t.project}/${t.component}/`));
      expect(entry?.statistics.total, record.language_code).toBe(record.total);
      expect(entry?.statistics.translated).toBe(record.translated);
      expect(entry?.statistics.fuzzy).toBe(record.fuzzy);
      await stat(join(dist, entry!.page));
    }
    expect(status.languages.find((l) => l.code === 'ar')?.direction).toBe('rtl');
  });

  it('publishes shields.io endpoint JSON next to each badge, and embed snippets linking to the page', async () => {
    const badge = JSON.parse(await readFile(join(dist, 'badges/demo/core/de.json'), 'utf8'));
    expect(badge).toMatchObject({ schemaVersion: 1, label: 'translated' });
    expect(badge.message).toMatch(/^\d+(\.\d)?%$/);
    const html = await readFile(join(dist, 'projects/demo/core/de/index.html'), 'utf8');
    expect(html).toContain(`](${server.url}badges/demo/core/de.svg)](${server.url}projects/demo/core/de/)`);
  });

  it.runIf(chromium)('publishes a per-language feed that is valid Atom, linked from the language page', async () => {
    const page = await open(`${server.url}languages/ar/index.html`);
    const href = await page.locator('link[rel=alternate][title="Changes in Arabic"]').getAttribute('href');
    expect(href).toBe('feed.xml');
    const response = await page.goto(`${server.url}languages/ar/feed.xml`);
    expect(response?.headers()['content-type']).toContain('application/atom+xml');
    const xml = await readFile(join(dist, 'languages/ar/feed.xml'), 'utf8');
    // RFC 4287: feed and entries each with id (absolute IRI), title, updated (RFC 3339); an author per entry; a self link.
    const problems = await page.evaluate((text) => {
      const atom = 'http://www.w3.org/2005/Atom';
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const found: string[] = [];
      if (doc.getElementsByTagName('parsererror').length > 0) return ['not well-formed XML'];
      const feed = doc.documentElement;
      if (feed.namespaceURI !== atom || feed.localName !== 'feed') found.push('root is not atom:feed');
      const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
      const check = (element: Element, where: string) => {
        for (const name of ['id', 'title', 'updated']) {
          const children = [...element.children].filter((c) => c.namespaceURI === atom && c.localName === name);
          if (children.length !== 1) found.push(`${where}: ${children.length} atom:${name}`);
        }
        const id = [...element.children].find((c) => c.localName === 'id')?.textContent ?? '';
        if (!/^[a-z][a-z0-9+.-]*:/i.test(id)) found.push(`${where}: id ${id} is not an IRI`);
        const updated = [...element.children].find((c) => c.localName === 'updated')?.textContent ?? '';
        if (!rfc3339.test(updated)) found.push(`${where}: updated ${updated} is not RFC 3339`);
      };
      check(feed, 'feed');
      if (![...feed.children].some((c) => c.localName === 'link' && c.getAttribute('rel') === 'self')) found.push('feed: no self link');
      const entries = [...feed.children].filter((c) => c.localName === 'entry');
      entries.forEach((entry, index) => {
        check(entry, `entry ${index}`);
        if (!entry.querySelector('author > name')?.textContent) found.push(`entry ${index}: no author name`);
      });
      if (entries.length === 0) found.push('no entries');
      return found;
    }, xml);
    expect(problems).toEqual([]);
    expect(xml).toContain('<title>Translation changed: Core — Arabic</title>');
    expect(xml).not.toContain('German');
    await page.close();
  });
});

describe('strings and changes', () => {
  it.runIf(chromium)('links a change to its string and shows the new text with plural forms labelled, over HTTP and from disk', async () => {
    for (const [how, root] of roots()) {
      const page = await open(`${root}changes/index.html`);
      const row = page.locator('tr[data-change="1501"]');
      expect(await row.innerText(), how).toContain('Form 2 (n = 0, 2, 3, 4, 5…)');
      expect(await row.locator('.text').allInnerTexts(), how).toEqual(['%d Datei', '%d Dateien']);
      await row.getByRole('link', { name: '%d file | %d files' }).click();
      expect(page.url(), how).toMatch(/projects\/demo\/core\/de\/units\/1\/index\.html#unit-2002$/);
      // The click returns once the next page commits, maybe before it is parsed: wait (up to 30 s) for the string to show, which fails if it never does.
      await page.locator('#unit-2002').waitFor({ state: 'visible' });
      await page.close();
    }
    const arabic = await open(`${server.url}languages/ar/changes/index.html`);
    expect(await arabic.locator('tr[data-change="1502"] .text[dir=rtl]').count()).toBe(6);
    expect(await arabic.locator('#changes tbody tr').count()).toBe(1);
    await arabic.close();
  });

  it.runIf(chromium)("shows a string's history across three snapshots, oldest first, over HTTP and from disk", async () => {
    for (const [how, root] of roots()) {
      const page = await open(`${root}projects/demo/core/de/units/1/index.html#unit-2004`);
      const rows = page.locator('#unit-2004 + tr.history-of table.history tbody tr');
      expect(await rows.count(), how).toBe(3);
      const texts = await rows.evaluateAll((list) => list.map((row) => row.querySelector('td:nth-child(3) .text')?.textContent));
      expect(texts, how).toEqual(story.map((s) => s.target[0]));
      expect(await rows.nth(1).locator('td:nth-child(2)').innerText(), how).toBe('needs editing');
      // A string that never changed has no history.
      expect(await page.locator('#unit-2005 + tr.history-of').count(), how).toBe(0);
      if (how === 'HTTP') {
        await page.locator('#unit-2004').scrollIntoViewIfNeeded();
        await screenshot(page, 'site-unit-history');
      }
      await page.close();
    }
  });
});

describe('tmsnap build', () => {
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, [join(repo, 'bin/tmsnap.js'), 'build', ...args], { cwd: work }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it('prints a JSON summary and no per-page log', () => {
    const summary = JSON.parse(buildOutput.split('\n').find((line) => line.startsWith('{')) ?? '{}');
    expect(summary).toMatchObject({ snapshot: expect.any(String), pages: expect.any(Number), bytes: expect.any(Number), seconds: expect.any(Number) });
    expect(summary.pages).toBeGreaterThan(20);
    expect(buildOutput).not.toMatch(/├─|└─/);
  });

  it('counts in its summary every file, page and byte of the site', async () => {
    const summary = JSON.parse(buildOutput.split('\n').find((line) => line.startsWith('{')) ?? '{}');
    const files = (await readdir(dist, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
    const pages = files.filter((entry) => entry.name.endsWith('.html')).length;
    expect(summary).toMatchObject({ files: files.length, pages });
    // The site's mark file (site/site-folder.ts) is counted while it says "being written"; it is rewritten after.
    const sizes = await Promise.all(
      files.filter((entry) => entry.name !== siteMarkFile).map(async (entry) => (await stat(join(entry.parentPath, entry.name))).size),
    );
    const mark = summary.bytes - sizes.reduce((sum, size) => sum + size, 0);
    expect(mark).toBeGreaterThan(50);
    expect(mark).toBeLessThan(200);
  });

  it('fails with one line and exit 1 on a missing archive, an empty one and a missing snapshot, writing nothing', async () => {
    const out = join(work, 'never');
    const empty = join(work, 'empty');
    await mkdir(empty);
    for (const args of [
      ['--content', join(work, 'nowhere')],
      ['--content', empty],
      ['--content', content, '--snapshot', '2001-01-01T000000Z'],
    ]) {
      const result = await run([...args, '--out', out]);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr).toContain(args[1]!.startsWith('/') ? args[1]! : args[3]!);
      await expect(stat(out)).rejects.toThrow();
    }
  });

  it('refuses a settings file with an unknown or wrong key, naming it', async () => {
    await writeFile(join(work, 'tmsnap.config.json'), JSON.stringify({ title: 'x', colour: 'red', uiLang: 'xx' }));
    const result = await run(['--content', content, '--out', join(work, 'never')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('colour');
    expect(result.stderr).toContain('uiLang');
    await rm(join(work, 'tmsnap.config.json'));
  });
});
