/**
 * Issue 28: every size or count the docs state about the bundled demo is a build's, not retyped.
 * The README and docs/*.md mark each such figure `<!-- figure: NAME -->`; this builds the bundled data
 * as `tmsnap demo` does and fails when a marked figure differs from the build's, or when the doc
 * marks a figure this test does not compute (or leaves out one it does).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openSnapshot } from '../../snapshot/index.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { buildBundledDemo } from './demo-build.ts';

const repo = resolve(import.meta.dirname, '../..');
const tempFolder = useTempFolders('tmsnap-docs-figures-', 'all');

/** Every `<!-- figure: NAME -->VALUE` of a markdown text, as [NAME, VALUE], in order. */
function markedFigures(markdown: string): Array<[string, string]> {
  return [...markdown.matchAll(/<!-- figure: ([\w-]+) -->\s*(\d[\d,.]*\d|\d)/g)].map(([, name = '', value = '']) => [name, value]);
}

/** The README and every doc under docs/ (decision records aside: they keep the figures of their day). */
async function currentDocs(): Promise<string[]> {
  const docs = (await readdir(join(repo, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => join('docs', name));
  return ['README.md', ...docs];
}

const count = (n: number) => n.toLocaleString('en-US');
const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1);

async function folderBytes(folder: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return bytes;
}

interface StatusJson {
  instance: { statistics: { total: number } };
  projects: Array<{ components: Array<{ translations: unknown[] }> }>;
}

describe('the figures the docs state about the bundled demo', () => {
  /** The figures a build of the bundled data gives, formatted as the docs write them. */
  let built: Map<string, string>;

  beforeAll(async () => {
    const demo = await buildBundledDemo(await tempFolder());
    const counts = (await openSnapshot(demo.content)).manifest.counts;
    const statusBytes = await readFile(join(demo.out, 'data', 'status.json'));
    const status = JSON.parse(statusBytes.toString('utf8')) as StatusJson;
    const siteUnits = status.instance.statistics.total;
    const siteTranslations = status.projects.flatMap((p) => p.components).reduce((sum, c) => sum + c.translations.length, 0);
    const perUnit = demo.summary.bytes / siteUnits;
    built = new Map([
      ['demo-projects', count(counts.project ?? 0)],
      ['demo-translations', count(counts.translation ?? 0)],
      ['demo-units', count(counts.unit ?? 0)],
      ['demo-archive-mb', megabytes(await folderBytes(demo.content))],
      ['site-projects', count(status.projects.length)],
      ['site-translations', count(siteTranslations)],
      ['site-units', count(siteUnits)],
      ['site-files', count(demo.summary.files)],
      ['site-mb', megabytes(demo.summary.bytes)],
      ['site-bytes-per-unit', count(Math.round(perUnit))],
      ['site-units-per-gb', count(Math.round(1e9 / perUnit / 1000) * 1000)],
      ['site-status-json-bytes', count(statusBytes.length)],
      ['site-status-json-bytes-per-translation', count(Math.round(statusBytes.length / siteTranslations))],
    ]);
  }, 600_000);

  it('are those a build of the bundled data gives, in every doc that states one', async () => {
    const stated: Record<string, string> = {};
    for (const doc of await currentDocs()) {
      for (const [name, value] of markedFigures(await readFile(join(repo, doc), 'utf8'))) stated[`${doc}: ${name}`] = value;
    }
    const expected = Object.fromEntries(Object.keys(stated).map((key) => [key, built.get(key.split(': ')[1]!) ?? 'a figure this test does not compute']));
    // One comparison of everything, so a failure lists every figure that drifted.
    expect(stated, "a figure of the docs differs from the build's: copy the build's into the doc").toEqual(expected);
  });

  it('states every figure the build gives somewhere, so none is dropped unnoticed', async () => {
    const names = new Set<string>();
    for (const doc of await currentDocs()) for (const [name] of markedFigures(await readFile(join(repo, doc), 'utf8'))) names.add(name);
    expect([...built.keys()].filter((name) => !names.has(name))).toEqual([]);
  });
});

describe('markedFigures', () => {
  it('reads each marked figure, grouping commas and decimals kept, and nothing unmarked', () => {
    const text = 'a <!-- figure: a -->27,829 units, <!-- figure: b -->29.8 MB, <!-- figure: c -->5 and 12 more, <!-- figure: a -->3';
    expect(markedFigures(text)).toEqual([
      ['a', '27,829'],
      ['b', '29.8'],
      ['c', '5'],
      ['a', '3'],
    ]);
  });
});
