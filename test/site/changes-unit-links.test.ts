/**
 * The changes pages' links to a change's unit, now that the bulk writers hand each translation's
 * unit positions to Astro's thread (site-model/positions.ts, docs/site.md "Changes pages' unit
 * links"): on a crawl of the bundled Django catalogs, every link is the permalink the unit's own
 * position gives (site-model/paths.ts `unitHref`), worked out here from the snapshot's units, and a
 * change whose unit the snapshot does not hold gets none.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { publishedChanges, subjectChanges } from '../../src/data/changes.ts';
import { unitHref } from '../../site-model/paths.ts';
import { openSnapshot, storedChange, type StoredChange } from '../../snapshot/index.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { buildWithCli, scratch } from './browser.ts';

const tempFolder = useTempFolders('tmsnap-changes-links-', 'all', scratch);
let out: string;
/** Newest first, as the pages list them. */
let changes: StoredChange[];
/** The permalink each change's unit has, from its translation's units in position order. */
let expected: Map<StoredChange, string | undefined>;

beforeAll(async () => {
  const work = await tempFolder();
  const content = join(work, 'content');
  out = join(work, 'site');
  const server = await startTestServer({ data: 'bundled', behaviours: { tokens: ['wlu_links'], rateLimit: raisedRateLimit } });
  try {
    await crawlComplete(server, content, { projects: ['django'], token: 'wlu_links' });
  } finally {
    await server.close();
  }
  await buildWithCli(['--content', content, '--out', out]);
  const snapshot = await openSnapshot(content);
  changes = [];
  for (const chunk of snapshot.index.changes) {
    for (const change of (await snapshot.store.readJson(chunk.hash)) as unknown[]) changes.push(storedChange.parse(change));
  }
  changes.reverse();
  const translations = new Map((await snapshot.translations()).map(({ path, record }) => [path, record]));
  expected = new Map();
  for (const change of changes) {
    const record = change.translation === null ? undefined : translations.get(change.translation);
    const id = /units\/(\d+)\/?$/.exec(change.unit ?? '')?.[1];
    if (!record || change.translation === null || id === undefined) {
      expected.set(change, undefined);
      continue;
    }
    const units = await snapshot.units(change.translation);
    const index = units.findIndex((unit) => unit.id === Number(id));
    const [, project = '', component = ''] = /translations\/([^/]+)\/([^/]+)\//.exec(change.translation) ?? [];
    const key = { project, component, language: record.language_code };
    expected.set(change, index === -1 ? undefined : unitHref(key, record.total, index, Number(id)));
  }
}, 900_000);

/** The unit links of a changes page, as site paths. */
async function unitLinks(page: string): Promise<string[]> {
  const html = await readFile(join(out, page), 'utf8');
  const at = relative(out, join(out, page)).split(sep).join('/');
  return [...html.matchAll(/<a class="unit-link" href="([^"]+)"/g)].map((match) => posix.normalize(posix.join(posix.dirname(at), match[1]!)));
}

describe('the changes pages link each change to its unit as before', () => {
  test('the site-wide pages: the newest changes, page by page, each linked to its unit page and anchor', async () => {
    const published = changes.slice(0, publishedChanges);
    const pages = Math.max(1, Math.ceil(published.length / 100));
    const found: string[] = [];
    for (let page = 1; page <= pages; page += 1) found.push(...(await unitLinks(page === 1 ? 'changes/index.html' : `changes/${page}/index.html`)));
    const links = published.map((change) => expected.get(change)).filter((href) => href !== undefined);
    expect(found).toEqual(links);
    // The test means something only if units beyond a translation's first page are linked.
    expect(links.some((href) => !/\/units\/1\/index\.html#/.test(href) && /\/units\/\d+\/index\.html#unit-\d+$/.test(href))).toBe(true);
  });

  test('a project changes page: its latest changes, linked the same way', async () => {
    const mine = changes.filter((change) => change.component?.includes('/django/')).slice(0, subjectChanges);
    const links = mine.map((change) => expected.get(change)).filter((href) => href !== undefined);
    expect(links.length).toBeGreaterThan(0);
    expect(await unitLinks('projects/django/changes/index.html')).toEqual(links);
  });

  test('every link lands on a unit page holding that unit', async () => {
    const languages = (await readdir(join(out, 'languages'), { withFileTypes: true })).filter((entry) => entry.isDirectory());
    expect(languages.length).toBeGreaterThan(1);
    for (const { name } of languages) {
      for (const href of await unitLinks(`languages/${name}/changes/index.html`)) {
        const [file, anchor] = href.split('#');
        expect(await readFile(join(out, file!), 'utf8')).toContain(`id="${anchor}"`);
      }
    }
  });
});
