/**
 * Issue 24, "Scope": a `--project` crawl publishes that project and nothing else. Users'
 * notification subscriptions embed projects and components of the whole server; a one-project
 * crawl stored them as records of their own, and the site showed them at 0% with red badges.
 * Here the site of a one-project crawl is compared, page for page, with that project's part
 * of the site of a whole-instance crawl of the same reference server.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openSnapshot } from '../../snapshot/index.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { withTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { buildWithCli, scratch } from './browser.ts';

/** The fixture's private project: alice, who edited it, subscribes to notifications of `hello`'s `po`. */
const project = 'secret';
const token = 'scope-test';

interface Site {
  dist: string;
  files: string[];
  /** The snapshot's id and finish time, the only things two crawls of an unchanged server may differ in. */
  id: string;
  finished: string;
}

const tempFolder = useTempFolders('tmsnap-scope-', 'all', scratch);
let one: Site;
let whole: Site;

/** Builds the site of the archive `content` as a user would, and lists its files. */
async function buildSite(content: string): Promise<Site> {
  const dist = `${content}-dist`;
  // The project is private: a keyed crawl's site publishes it only when opted in (site-model/privacy.ts).
  await buildWithCli(['--content', content, '--out', dist, '--publish', 'private-projects']);
  const { id, finished } = (await openSnapshot(content)).manifest;
  const files = (await readdir(dist, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dist.length + 1))
    .sort();
  return { dist, files, id, finished };
}

beforeAll(async () => {
  const work = await tempFolder();
  // With a token: a Weblate 5.4 server shows users' notification subscriptions only to one.
  await withTestServer({ behaviours: { tokens: [token] } }, async (server) => {
    await crawlComplete(server, join(work, 'one'), { projects: [project], token });
    await crawlComplete(server, join(work, 'whole'), { token });
  });
  one = await buildSite(join(work, 'one'));
  whole = await buildSite(join(work, 'whole'));
}, 600_000);

/** Pages of one project: its own folder and its badges. */
const ofProject = (slug: string) => (file: string) =>
  file.startsWith(`projects/${slug}/`) || file.startsWith(`badges/${slug}.`) || file.startsWith(`badges/${slug}/`);
const ofAnyProject = (file: string) => file.startsWith('projects/') || file.startsWith('badges/');

/**
 * What legitimately differs between two crawls of the same data: the snapshot's id and the
 * time it finished, in every page's footer and description. Nothing else is rewritten.
 */
async function page(site: Site, file: string): Promise<string> {
  const text = await readFile(join(site.dist, file), 'utf8');
  const shown = `${site.finished.slice(0, 10)} ${site.finished.slice(11, 16)} UTC`;
  return text.replaceAll(site.id, '<snapshot>').replaceAll(site.finished, '<finished>').replaceAll(shown, '<finished shown>');
}

/**
 * Pages about the whole archive that hold no project's figures: the same in both sites. The
 * others are left out of the comparison because a whole instance legitimately shows more on
 * them: the home page and `data/status.json` (every project, instance totals), `languages/`
 * (each language's translations in every project), `changes/` (the instance's change log,
 * where a `--project` crawl reads its projects' only) and `search/` data (every project's strings).
 */
const frame = ['404.html', 'assets/site.css', 'assets/site.js', 'favicon.svg', 'changes-between/index.html', 'search/index.html', 'search/app.js'];

describe('the site of a one-project crawl', () => {
  it('has exactly that project’s pages and badges, the same files as the whole instance’s site has for it', () => {
    expect(whole.files.filter(ofProject('hello')).length).toBeGreaterThan(0);
    expect(one.files.filter(ofAnyProject)).toEqual(whole.files.filter(ofProject(project)));
  });

  it('has every page of that project equal to the whole instance’s, byte for byte but for the snapshot’s id and time', async () => {
    const files = whole.files.filter(ofProject(project));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(await page(one, file), file).toBe(await page(whole, file));
  });

  it('has the pages that show no project’s data equal too, and no page or data file that names another project', async () => {
    for (const file of frame) expect(await page(one, file), file).toBe(await page(whole, file));
    expect(one.files.filter((file) => !whole.files.includes(file))).toEqual([]);
    for (const file of one.files) expect(await readFile(join(one.dist, file), 'utf8'), file).not.toMatch(/projects\/hello\/|>Hello</);
  });

  it('has in data/status.json that project alone, as the whole instance’s lists it', async () => {
    const projects = async (site: Site) =>
      (JSON.parse(await readFile(join(site.dist, 'data/status.json'), 'utf8')) as { projects: { slug: string }[] }).projects;
    expect(await projects(one)).toEqual((await projects(whole)).filter(({ slug }) => slug === project));
  });
});
