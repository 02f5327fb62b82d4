import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkLinks, linksOf } from '../../site/link-check.ts';
import { useTempFolders } from '../helpers/temp.ts';

const siteFolder = useTempFolders('tmsnap-link-check-', 'all');

async function site(files: Record<string, string>): Promise<string> {
  const dir = await siteFolder();
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe('the link checker', () => {
  test('reads href and src in any quoting, entities decoded, and nothing outside tags', () => {
    expect(
      linksOf(
        `<a href="a.html">x</a><img src='b.svg'><link href=c.css rel=stylesheet><p>href="text.html"</p><a href="q.html?x=1&amp;y=2"><a title='"><img src=x onerror=1>' href="t.html"><!-- <a href="c.html"> --><script>"<a href='s.html'>"</script>`,
      ),
    ).toEqual([
      { attribute: 'href', value: 'a.html' },
      { attribute: 'src', value: 'b.svg' },
      { attribute: 'href', value: 'c.css' },
      { attribute: 'href', value: 'q.html?x=1&y=2' },
      { attribute: 'href', value: 't.html' },
    ]);
  });

  test('passes a site whose relative links all name files, and ignores links off the site', async () => {
    const dir = await site({
      'index.html':
        '<a href="projects/p%20q/index.html#unit-1">p</a><a href="https://example.org/x">x</a><a href="mailto:a@b.c">m</a><a href="#top">t</a><script src="assets/site.js"></script>',
      'projects/p q/index.html': '<a href="../../index.html?x=1">home</a><link href="../../assets/site.css" rel="stylesheet">',
      'assets/site.js': '',
      'assets/site.css': '',
    });
    expect(await checkLinks(dir)).toEqual([]);
  });

  test('fails on a missing file, a folder, and a link out of the site', async () => {
    const dir = await site({
      'index.html': '<a href="projects/index.html">ok</a><a href="projects/missing.html">gone</a><a href="projects/">folder</a>',
      'projects/index.html': '<img src="../../outside.png"><a href="/projects/index.html">root-relative</a>',
    });
    const broken = await checkLinks(dir);
    expect(broken.map(({ page, value, reason, target }) => ({ page, value, reason: reason.split(' (')[0]!.split(':')[0], target }))).toEqual([
      { page: 'index.html', value: 'projects/missing.html', reason: 'no such file', target: 'projects/missing.html' },
      { page: 'index.html', value: 'projects/', reason: 'a folder, not a file', target: 'projects/' },
      { page: 'projects/index.html', value: '../../outside.png', reason: 'leaves the site', target: undefined },
      { page: 'projects/index.html', value: '/projects/index.html', reason: 'a root-relative path', target: undefined },
    ]);
  });
});
