/**
 * The search page builds and searches its shard indexes in workers (docs/search.md,
 * "Workers"), over HTTP and from file://: the workers' answers are what the results are made
 * of, and they are the same results, in the same order and counts, as the page's own path
 * (`tmsnapSearchWorkers = 0`). Where workers cannot start or break, the page searches alone.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { siteRoots, useSearchSite } from './search-site.ts';

const site = useSearchSite('tmsnap-search-workers-');
const pageErrors: string[] = [];

/** What a reader sees: the status line and every result, group by group, with its marks and links. */
interface Shown {
  workers: string;
  answers: number;
  status: string;
  results: string[];
}

/** Opens the page with `setup` run before its script (say, the number of workers forced). */
async function open(root: string, query: string, setup?: string): Promise<Page> {
  const page = await site.browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  if (setup) await page.addInitScript(setup);
  await page.goto(`${root}search/index.html${query}`);
  return page;
}

async function shown(page: Page): Promise<Shown> {
  await page.waitForFunction(() => ['done', 'idle', 'error'].includes(document.getElementById('search-status')?.dataset.state ?? ''));
  return page.evaluate(() => {
    const form = document.getElementById('search-form')!;
    return {
      workers: form.dataset.searchWorkers ?? '',
      answers: Number(form.dataset.workerAnswers ?? 0),
      status: document.getElementById('search-status')?.textContent ?? '',
      results: [...document.querySelectorAll('#search-results > li')].map((group) =>
        [
          [...group.querySelectorAll('.source .text')].map((text) => text.innerHTML).join('|'),
          ...[...group.querySelectorAll('.search-translations > li')].map(
            (row) =>
              `${(row as HTMLElement).dataset.language}:${[...row.querySelectorAll('.target .text')].map((text) => text.innerHTML).join('|')} ${row.querySelector('a.unit-link')?.getAttribute('href')}`,
          ),
        ].join(' / '),
      ),
    };
  });
}

/** A query typed again a key at a time, what each key shows once its search is complete. */
async function typed(page: Page, text: string): Promise<Shown[]> {
  const seen: Shown[] = [];
  for (let length = 1; length <= text.length; length++) {
    await page.evaluate(() => document.getElementById('search-status')!.removeAttribute('data-state'));
    await page.fill('#search-q', text.slice(0, length));
    seen.push(await shown(page));
  }
  return seen;
}

const queries = [
  // A source word: every language, through the sources and the targets.
  '?q=window',
  '?q=file',
  // Targets of two languages: exact, a prefix, one edit away.
  '?q=menu',
  '?q=men',
  '?q=menue',
  // Polish targets ("plik", "pliki", "plików"), the sources reached too, in two scopes.
  '?q=plik',
  '?q=plik&in=target',
  '?q=save+as&in=source',
  // Pairs of an unspaced script, in one language: one shard.
  '?q=%E9%96%89%E3%81%98&lang=ja',
];

/** Every shard to the workers: the page's own first shards (`pageShards`) would leave the fixture's few to the page. */
const allToWorkers = 'window.tmsnapSearchPageShards = 0;';

/**
 * Notes each script element the page adds (the loader's way to load a file, from `file://` too)
 * and how many result groups were on screen then; `workerFileAs` loads the workers' text from
 * another file name instead (one that is not there).
 */
const scriptsNoted = (workerFileAs?: string) => `
  window.scriptsAdded = [];
  const append = Element.prototype.append;
  Element.prototype.append = function (...nodes) {
    for (const node of nodes) {
      if (!(node instanceof HTMLScriptElement)) continue;
      ${workerFileAs ? `if (node.getAttribute('src') === 'worker.js') node.src = ${JSON.stringify(workerFileAs)};` : ''}
      window.scriptsAdded.push({ file: node.getAttribute('src'), groupsShown: document.querySelectorAll('#search-results > li').length });
    }
    return append.apply(this, nodes);
  };
`;

const scriptsAdded = (page: Page) => page.evaluate(() => (window as unknown as { scriptsAdded: { file: string; groupsShown: number }[] }).scriptsAdded);

describe.runIf(site.chromium)('the workers’ script', () => {
  test('is worker.js, registered as an index file is, and not inside app.js', async () => {
    const registered: unknown[][] = [];
    runInNewContext(await readFile(join(site.dist, 'search/worker.js'), 'utf8'), { tmsnapSearch: (...args: unknown[]) => registered.push(args) });
    expect(registered.map(([file, text]) => [file, typeof text])).toEqual([['worker.js', 'string']]);
    // A message only the worker's own code holds.
    const workerOnly = 'search worker: no texts for';
    expect(registered[0]![1]).toContain(workerOnly);
    expect(await readFile(join(site.dist, 'search/app.js'), 'utf8')).not.toContain(workerOnly);
  });
});

describe.runIf(site.chromium).each(siteRoots(site))('search workers %s', (_, rootUrl) => {
  test.each(queries)('%s: found by workers, the same results as the page’s own search', async (query) => {
    const pages = await Promise.all([allToWorkers, '', 'window.tmsnapSearchWorkers = 0;'].map((setup) => open(rootUrl(), query, setup)));
    const [byWorkers, asShipped, byPage] = await Promise.all(pages.map(shown));
    // The worker path was taken: workers started and their answers made the results.
    expect(Number(byWorkers!.workers)).toBeGreaterThan(0);
    expect(byWorkers!.answers).toBeGreaterThan(0);
    expect(byPage).toMatchObject({ workers: '0', answers: 0 });
    expect(byPage!.results.length).toBeGreaterThan(0);
    const seen = ({ status, results }: Shown) => ({ status, results });
    expect(seen(byWorkers!)).toEqual(seen(byPage!));
    // As shipped, the page searches a query's first shards itself and workers the rest.
    expect(seen(asShipped!)).toEqual(seen(byPage!));
    await Promise.all(pages.map((page) => page.close()));
  });

  test('keystrokes: each prefix finds what the page’s own search finds', async () => {
    const inWorkers = await open(rootUrl(), '?q=save', allToWorkers);
    const onPage = await open(rootUrl(), '?q=save', 'window.tmsnapSearchWorkers = 0');
    await shown(inWorkers);
    await shown(onPage);
    const byWorkers = await typed(inWorkers, 'datei speichern');
    const byPage = await typed(onPage, 'datei speichern');
    expect(byWorkers.map(({ status, results }) => ({ status, results }))).toEqual(byPage.map(({ status, results }) => ({ status, results })));
    expect(byWorkers.at(-1)!.answers).toBeGreaterThan(byWorkers[0]!.answers);
    await inWorkers.close();
    await onPage.close();
  });

  test('without workers, or when they break, the page searches alone', async () => {
    const expected = await shown(await open(rootUrl(), '?q=window', 'window.tmsnapSearchWorkers = 0'));
    // A browser that refuses workers.
    const refused = await shown(await open(rootUrl(), '?q=window', allToWorkers + 'window.Worker = function () { throw new Error("no workers"); };'));
    // Workers that start but fail: their script throws.
    const broken = await shown(
      await open(
        rootUrl(),
        '?q=window',
        'const Real = Blob; window.Blob = class extends Real { constructor(_, options) { super(["throw new Error(1)"], options); } };',
      ),
    );
    for (const result of [refused, broken]) {
      expect(result.workers).toBe('0');
      expect(result.answers).toBe(0);
      expect({ status: result.status, results: result.results }).toEqual({ status: expected.status, results: expected.results });
    }
    expect(pageErrors).toEqual([]);
  });

  test('the workers’ text loads only once a query has a shard for them, after its first results show', async () => {
    // One language: a shard per bucket, all the page's own (`pageShards`), so no worker and no worker.js.
    const polish = await open(rootUrl(), '?q=plik&lang=pl', scriptsNoted());
    expect(await shown(polish)).toMatchObject({ workers: '0', answers: 0 });
    expect((await scriptsAdded(polish)).map(({ file }) => file)).not.toContain('worker.js');
    // Targets of two languages, the page keeping its first shard only (the fixture's shards are
    // few): the workers take the second, their text loaded then, after the first results.
    const everywhere = await open(rootUrl(), '?q=menu', 'window.tmsnapSearchPageShards = 1;' + scriptsNoted());
    const result = await shown(everywhere);
    expect(Number(result.workers)).toBeGreaterThan(0);
    expect(result.answers).toBeGreaterThan(0);
    const loads = (await scriptsAdded(everywhere)).filter(({ file }) => file === 'worker.js');
    expect(loads).toHaveLength(1);
    expect(loads[0]!.groupsShown).toBeGreaterThan(0);
    await polish.close();
    await everywhere.close();
  });

  test('when the workers’ text does not load, the page searches alone', async () => {
    const expected = await shown(await open(rootUrl(), '?q=window', 'window.tmsnapSearchWorkers = 0'));
    const errors = pageErrors.length;
    const missing = await open(rootUrl(), '?q=window', allToWorkers + scriptsNoted('no-such-worker.js'));
    const result = await shown(missing);
    expect((await scriptsAdded(missing)).map(({ file }) => file)).toContain('no-such-worker.js');
    expect(result).toMatchObject({ workers: '0', answers: 0 });
    expect({ status: result.status, results: result.results }).toEqual({ status: expected.status, results: expected.results });
    expect(pageErrors.slice(errors)).toEqual([]);
  });
});
