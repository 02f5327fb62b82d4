/**
 * The bulk pages written by worker threads beside Astro (site/bulk-workers.ts, docs/site.md
 * "Pages written outside Astro"): each writer takes a share of the components, every component
 * in exactly one share; the build empties its output folder itself (Astro no longer does, the
 * writers being at work in it) but keeps a `.git` there; and the translation pages, badges and
 * raw files the writers now make are all in the site.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { componentsOfShard, foldersToMake, PageWriter } from '../../site/bulk-pages.ts';
import { checkLinks } from '../../site/link-check.ts';
import type { ComponentEntry } from '../../src/data/tree.ts';
import { buildWithCli, scratch } from './browser.ts';
import { writeFixtureSnapshot } from './fixture.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { siteMark } from '../../cli/output-guard.ts';

/** Just what the sharing reads of a component: its translations' totals. */
function component(name: string, totals: number[]): ComponentEntry {
  return { path: name, translations: totals.map((total) => ({ record: { total } })) } as unknown as ComponentEntry;
}

describe('componentsOfShard', () => {
  const components = [component('a', [5000, 5000]), component('b', [10]), component('c', [3000]), component('d', [2000, 900]), component('e', [])];

  it.each([1, 2, 3])('puts every component in exactly one of %i shares, in the tree order', (count) => {
    const shares = Array.from({ length: count }, (_, index) => componentsOfShard(components, { index, count }));
    expect(
      shares
        .flat()
        .map((c) => c.path)
        .sort(),
    ).toEqual(['a', 'b', 'c', 'd', 'e']);
    for (const share of shares) expect(share.map((c) => c.path)).toEqual([...share.map((c) => c.path)].sort());
  });

  it('balances the shares by units: the largest component alone, the rest together', () => {
    expect(componentsOfShard(components, { index: 0, count: 2 }).map((c) => c.path)).toEqual(['a']);
    expect(componentsOfShard(components, { index: 1, count: 2 }).map((c) => c.path)).toEqual(['b', 'c', 'd', 'e']);
  });
});

const tempFolder = useTempFolders('tmsnap-bulk-writers-', 'all', scratch);

describe('PageWriter: each folder made once, parents first, then the file in one call', () => {
  it('lists the folders a file needs that are not made yet, outermost first', () => {
    const out = join(sep, 'site');
    const made = new Set([out, join(out, 'projects')]);
    expect(foldersToMake(join(out, 'projects', 'p', 'c', 'units', '1'), made)).toEqual(
      ['p', 'p/c', 'p/c/units', 'p/c/units/1'].map((folder) => join(out, 'projects', ...folder.split('/'))),
    );
    expect(foldersToMake(join(out, 'projects'), made)).toEqual([]);
    expect(() => foldersToMake(join(sep, 'elsewhere', 'x'), made)).toThrow(/outside the site folder/);
  });

  it('writes pages in folders it makes, beside and below ones it made or Astro made first', async () => {
    const out = await tempFolder();
    // A folder Astro's process made in the same site before the writer came to it.
    await mkdir(join(out, 'projects', 'p', 'c'), { recursive: true });
    await writeFile(join(out, 'projects', 'p', 'c', 'index.html'), 'astro');
    let pages = 0;
    const writer = new PageWriter(`${out}${sep}`, () => (pages += 1));
    const written: Array<[string, string | Uint8Array]> = [
      ['projects/p/c/de/units/1/index.html', 'ünit 1'],
      ['projects/p/c/de/units/2/index.html', 'unit 2'],
      ['projects/p/c/de/index.html', 'translation'],
      ['projects/p/c/strings/ff/00000000000000ff/index.html', 'string'],
      ['projects/p/c/de/file/de.po', new Uint8Array([0, 1, 2])],
      ['badges/p.svg', '<svg/>'],
    ];
    for (const [path, text] of written) writer.write(path, text);
    for (const [path, text] of written) {
      const bytes = await readFile(join(out, ...path.split('/')));
      expect(bytes.equals(typeof text === 'string' ? Buffer.from(text) : Buffer.from(text)), path).toBe(true);
    }
    expect(await readFile(join(out, 'projects', 'p', 'c', 'index.html'), 'utf8')).toBe('astro');
    expect(pages).toBe(written.length);
    expect(writer.bytes).toBe(written.reduce((sum, [, text]) => sum + (typeof text === 'string' ? Buffer.byteLength(text) : text.length), 0));
  });
});

describe('a build with the bulk writers beside Astro (fixture)', () => {
  let dist: string;
  let files: string[];

  beforeAll(async () => {
    const work = await tempFolder();
    const content = join(work, 'content');
    dist = join(work, 'dist');
    await writeFixtureSnapshot(content);
    // What a previous build or a publishing checkout leaves in the output folder.
    await mkdir(join(dist, '.git'), { recursive: true });
    await writeFile(join(dist, '.git', 'HEAD'), 'ref: refs/heads/gh-pages\n');
    await mkdir(join(dist, 'projects', 'gone'), { recursive: true });
    await writeFile(join(dist, 'projects', 'gone', 'index.html'), 'stale');
    // An earlier build's mark: without it `tmsnap build` refuses a non-empty folder (cli/output-guard.ts).
    await writeFile(join(dist, siteMark), '');
    await buildWithCli(['--content', content, '--out', dist]);
    files = (await readdir(dist, { recursive: true })).map((file) => file.split('\\').join('/'));
  }, 600_000);

  it('empties the output folder but for .git', async () => {
    expect(files).not.toContain('projects/gone/index.html');
    expect(await readFile(join(dist, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/gh-pages\n');
  });

  it('writes a translation page, its unit pages and both badge files for every translation', async () => {
    const translations = files.filter(
      (file) => /^projects\/[^/]+\/[^/]+\/[^/]+\/index\.html$/.test(file) && !file.includes('/strings/') && !file.includes('/changes/'),
    );
    expect(translations.length).toBeGreaterThan(3);
    for (const page of translations) {
      const folder = page.slice(0, -'index.html'.length);
      const [, project, comp, language] = folder.split('/');
      expect(files, folder).toContain(`badges/${project}/${comp}/${language}.svg`);
      expect(files, folder).toContain(`badges/${project}/${comp}/${language}.json`);
      const html = await readFile(join(dist, page), 'utf8');
      expect(html).toContain('<section class="history"');
      if (html.includes('id="unit-pages"')) expect(files, folder).toContain(`${folder}units/1/index.html`);
    }
    expect(files.filter((file) => /^badges\/[^/]+\.svg$/.test(file)).length).toBeGreaterThan(0);
  });

  it('leaves no link broken and no style inlined by the history chart', async () => {
    expect(await checkLinks(dist)).toEqual([]);
    const page = files.find((file) => /^projects\/[^/]+\/index\.html$/.test(file))!;
    expect(await readFile(join(dist, page), 'utf8')).not.toMatch(/data-astro-cid|\.history-chart\[/);
  });
});
