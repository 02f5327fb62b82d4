/**
 * The unit and string pages written outside Astro (site/bulk-pages.ts, docs/site.md "Pages
 * written outside Astro"): they wear the frame Astro's pages wear (src/layouts/frame.ts), carry
 * their canonical URL and interface language, are listed in the sitemap, keep server text as
 * text, and leave no link broken. `attr` escapes attribute values as Astro does, so a frame
 * written by either is the same bytes.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLinks } from '../../site/link-check.ts';
import { rootPrefix } from '../../site-model/paths.ts';
import { publicUrl } from '../../site-model/web.ts';
import { attr } from '../../src/layouts/frame.ts';
import { buildWithCli, scratch } from './browser.ts';
import { hostile, writeFixtureSnapshot } from './fixture.ts';
import { useTempFolders } from '../helpers/temp.ts';

describe('attr (attribute values as Astro writes them)', () => {
  it.each([
    ['plain', ' title="plain"'],
    ['a & "b"', ' title="a &#38; &#34;b&#34;"'],
    ["<tag> 'q'", ' title="<tag> \'q\'"'],
    ['', ' title'],
    ['https://example.org/?a=1&b=2', ' title="https://example.org/?a=1&b=2"'],
    ['ftp://example.org/?a=1&b="2"', ' title="ftp://example.org/?a=1&#38;b=&#34;2&#34;"'],
  ])('%j', (value, expected) => {
    expect(attr('title', value).value).toBe(expected);
  });

  it('writes nothing for an absent value', () => {
    expect(attr('title', undefined).value).toBe('');
  });
});

const tempFolder = useTempFolders('tmsnap-bulk-', 'all', scratch);
const siteUrl = 'https://example.org/l10n/';

/** The element `<tag class="site">…</tag>` of a page, its links to the site's root written as `/`. */
function chrome(page: string, path: string, tag: 'header' | 'footer'): string {
  const found = new RegExp(`<${tag} class="site">[\\s\\S]*?</${tag}>`).exec(page)?.[0];
  expect(found, `${tag} of ${path}`).toBeDefined();
  const prefix = rootPrefix(path);
  return found!.replaceAll(`="${prefix}`, '="/');
}

describe('unit and string pages written outside Astro (fixture, --site-url, --ui-lang ar)', () => {
  let dist: string;
  let files: string[];
  const read = (path: string) => readFile(join(dist, path), 'utf8');

  beforeAll(async () => {
    const work = await tempFolder();
    const content = join(work, 'content');
    dist = join(work, 'dist');
    await writeFixtureSnapshot(content);
    await buildWithCli(['--content', content, '--out', dist, '--site-url', siteUrl, '--ui-lang', 'ar', '--footer', `Footer ${hostile.script}`]);
    files = (await readdir(dist, { recursive: true })).map((file) => file.split('\\').join('/'));
  }, 600_000);

  const bulkPages = () => files.filter((file) => /\/(units\/\d+|strings\/[0-9a-f]{2}\/[0-9a-f]{16})\/index\.html$/.test(file));

  it('are written, unit pages and string pages both', () => {
    expect(files).toContain('projects/demo/core/de/units/1/index.html');
    expect(bulkPages().filter((file) => file.includes('/strings/')).length).toBeGreaterThan(0);
  });

  it("wear the header and footer of Astro's pages, with links from their own folder", async () => {
    const translation = 'projects/demo/core/de/index.html';
    const astroPage = await read(translation);
    for (const path of ['projects/demo/core/de/units/1/index.html', bulkPages().find((file) => file.startsWith('projects/demo/core/strings/'))!]) {
      const page = await read(path);
      expect(chrome(page, path, 'header')).toBe(chrome(astroPage, translation, 'header'));
      expect(chrome(page, path, 'footer')).toBe(chrome(astroPage, translation, 'footer'));
      expect(page).toContain(`<link rel="stylesheet" href="${rootPrefix(path)}assets/site.css">`);
    }
  });

  it('carry their canonical URL and the interface language, and are listed in the sitemap', async () => {
    const sitemap = await read('sitemap.xml');
    for (const path of bulkPages()) {
      const page = await read(path);
      expect(page.startsWith('<!DOCTYPE html><html lang="ar" dir="rtl">'), path).toBe(true);
      expect(page, path).toContain(`<link rel="canonical" href="${publicUrl(siteUrl, path)}">`);
      expect(sitemap, path).toContain(`<loc>${publicUrl(siteUrl, path)}</loc>`);
    }
  });

  it('leave Open Graph and the feed link to the pages that do not grow with the strings (docs/site.md)', async () => {
    const lists = files.filter((file) => /\/needs\/[a-z-]+\/index\.html$/.test(file));
    expect(lists.length).toBeGreaterThan(0);
    for (const path of [...bulkPages(), ...lists]) {
      const page = await read(path);
      expect(page, path).not.toMatch(/<meta property="og:|application\/atom\+xml/);
      expect(page, path).toMatch(/<meta name="description" content="[^"]+">/);
    }
    for (const path of ['projects/demo/core/de/index.html', 'projects/demo/core/index.html']) {
      const page = await read(path);
      expect(page, path).toContain(`<meta property="og:url" content="${publicUrl(siteUrl, path)}">`);
      expect(page, path).toMatch(/<meta property="og:title" content="[^"]+">/);
      expect(page, path).toContain('type="application/atom+xml"');
    }
  });

  it('keep server text as text in titles, breadcrumbs and the footer', async () => {
    const evil = bulkPages().filter((file) => file.startsWith('projects/evil-project/'));
    expect(evil.length).toBeGreaterThan(0);
    for (const path of evil) {
      const page = await read(path);
      // In quoted attribute values (description, Open Graph) `<` is text: only `&` and `"` are escaped there.
      const body = page.slice(page.indexOf('<body>'));
      expect(body, path).not.toContain(hostile.script);
      expect(body, path).not.toContain('<img src=x');
      expect(body, path).toContain('<p class="custom">Footer &lt;script&gt;');
      expect(/<title>[^<]*&lt;script&gt;/.test(page), path).toBe(true);
      expect(page, path).not.toMatch(/content="[^"]*"><img/);
    }
  });

  it('leave no relative link broken', async () => {
    expect(await checkLinks(dist)).toEqual([]);
  });
});
