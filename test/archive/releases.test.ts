/**
 * Issue 26, the release manager's pages in a built site, over three nightly crawls of a
 * real-shaped server with translator activity and a source edit, two of them tagged:
 * - the release page's counts per language equal a diff computed here from the raw unit lists;
 * - the "at <tag>" badges carry the share translated at the release;
 * - the drift page lists the strings translated against the old source, linked from the language page;
 * - with `--credits`, the credits files count each person's change records, and no file of the
 *   site holds an e-mail address.
 * Opened from disk in Chromium: axe finds nothing serious; screenshots at 390 px and in Arabic.
 */
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { percent } from '../../archive/figures.ts';
import { findEmails } from '../../site-model/privacy.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { artifacts, buildWithCli, hasChromium, launchChromium, seriousViolations } from '../site/browser.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { fixtureModel } from '../helpers/reference-server.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { randomActivity } from './activity.ts';
import { TEST_TOKEN, historyServer, redate } from './crawl.ts';

const chromium = hasChromium();

const contentDir = useContentFolders('tmsnap-releases-', 'all');
const day = (n: number) => new Date(Date.UTC(2026, 10, n, 4, 15));
let content: string;
let ids: string[];
let dist: string;
let distAr: string;
let browser: Browser;
let drifting: { code: string; unit: number };

beforeAll(async () => {
  content = await contentDir();
  const model = fixtureModel();
  const server = await historyServer(model);
  // Full crawls: the source edit below has no change record an incremental crawl would follow.
  const crawl = async (date: Date) => redate(content, (await crawlComplete(server, content, { token: TEST_TOKEN, full: true })).snapshotId, date);
  try {
    ids = [await crawl(day(10))];
    randomActivity(model, 41, { unitMutations: 6, structural: false });
    // Work in the private project, which the site leaves out: `tmsnap diff` must too (issue 35).
    const secret = model.translations().find((translation) => translation.componentId === 3 && translation.languageCode === 'cs')!;
    const secretUnit = model.units(secret.id, 0, 100)[0]!;
    if (secretUnit.state < 20) model.translate(secretUnit.id, ['Tajné'], 'admin');
    else model.markForEdit(secretUnit.id, 'admin');
    ids.push(await crawl(day(11)));
    // The repository's source of "Open" (verb) changes; Weblate keeps the units and their translations.
    const sourceUnit = model.units(1, 0, 100).find((row) => row.context === 'verb')!;
    const rows = model.translations().flatMap((translation) => model.units(translation.id, 0, 100).filter((row) => row.sourceUnitId === sourceUnit.id));
    for (const row of rows) row.source = ['Open…'];
    // Any recorded edit makes the server render its data again.
    const touched = new Set(randomActivity(model, 42, { unitMutations: 1, structural: false }).records.map((record) => record.unitId));
    const translatedRow = rows.find((row) => (row.state === 20 || row.state === 30) && !touched.has(row.id))!;
    drifting = { code: model.translations().find((translation) => translation.id === translatedRow.translationId)!.languageCode, unit: translatedRow.id };
    // A language new to the site: the what-changed page has no share of it before (issue 35).
    model.addLanguage(1, 'sr@latin', 'admin');
    ids.push(await crawl(day(12)));
  } finally {
    await server.close();
  }
  expect((await tmsnap(['tag', 'v1.0', ids[0]!, '--content', content])).code).toBe(0);
  expect((await tmsnap(['tag', 'v2.0', ids[1]!, '--content', content])).code).toBe(0);
  dist = join(dirname(content), 'dist');
  distAr = join(dirname(content), 'dist-ar');
  await buildWithCli(['--content', content, '--out', dist, '--credits']);
  await buildWithCli(['--content', content, '--out', distAr, '--credits', '--ui-lang', 'ar']);
  if (chromium) browser = await launchChromium();
  await mkdir(join(artifacts, 'releases'), { recursive: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
});

const page = (path: string) => readFile(join(dist, path), 'utf8');

/** Per language: strings translated, changed and lost from one snapshot to the other, from the raw unit lists of the public project. */
async function countsBetween(from: string, to: string): Promise<Map<string, { translated: number; changed: number; lost: number }>> {
  const [before, after] = await Promise.all([openSnapshot(content, from), openSnapshot(content, to)]);
  const counts = new Map<string, { translated: number; changed: number; lost: number }>();
  const translated = (state: number | undefined) => state !== undefined && state >= 20;
  for (const { path, record } of await after.translations()) {
    if (record.is_source || !path.startsWith('api/translations/hello/')) continue;
    const old = new Map((await before.units(path)).map((unit) => [unit.id, unit]));
    const count = counts.get(record.language_code) ?? { translated: 0, changed: 0, lost: 0 };
    for (const unit of await after.units(path)) {
      const was = old.get(unit.id);
      if (translated(unit.state) && !translated(was?.state)) count.translated += 1;
      else if (was && translated(was.state) && !translated(unit.state)) count.lost += 1;
      else if (was && translated(was.state) && unit.target.join('\n') !== was.target.join('\n')) count.changed += 1;
    }
    counts.set(record.language_code, count);
  }
  return counts;
}

describe('release pages', () => {
  it('lists the releases, newest first, linked from home', async () => {
    expect(await page('index.html')).toContain('href="releases/index.html"');
    const index = await page('releases/index.html');
    expect([...index.matchAll(/href="(v[^"]+)\/index.html">/g)].map((match) => match[1])).toEqual(['v2.0', 'v1.0']);
  });

  it('counts per language what a diff of the two tagged snapshots’ units gives', async () => {
    const html = await page('releases/v2.0/index.html');
    const expected = await countsBetween(ids[0]!, ids[1]!);
    expect(expected.size).toBeGreaterThan(0);
    expect([...expected.values()].some((count) => count.translated + count.changed + count.lost > 0)).toBe(true);
    for (const [code, count] of expected) {
      const row = new RegExp(`<tr data-language="${code}">.*?</tr>`, 's').exec(html)?.[0] ?? '';
      const shown = Object.fromEntries([...row.matchAll(/data-count="(\w+)">([\d,]+)</g)].map((match) => [match[1], Number(match[2]!.replace(/,/g, ''))]));
      expect(shown, code).toEqual(count);
    }
    // The first release has no release before it: figures only.
    expect(await page('releases/v1.0/index.html')).not.toContain('data-count=');
  });

  it('draws the badges "at <tag>" with the share translated at the release', async () => {
    const snapshot = await openSnapshot(content, ids[0]!);
    let [translated, total] = [0, 0];
    for (const { path, record } of await snapshot.translations()) {
      if (record.is_source || !path.startsWith('api/translations/hello/')) continue;
      translated += record.translated;
      total += record.total;
    }
    const json = JSON.parse(await page('releases/v1.0/badges/project-hello.json')) as { label: string; message: string };
    expect(json).toMatchObject({ label: 'at v1.0', message: `${percent(translated, total)}%` });
    expect(await page('releases/v1.0/badges/project-hello.svg')).toContain('at v1.0');
    expect(await page('releases/v1.0/badges/all.svg')).toMatch(/^<svg/);
  });
});

/** The body rows of a table of the site's what-changed page: each cell's text, tags stripped. */
function tableRows(html: string, id: string): string[][] {
  const table = new RegExp(`<table id="${id}"[^>]*>.*?</table>`, 's').exec(html)?.[0] ?? '';
  return [...table.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)]
    .map(([, row]) => [...row!.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map(([, cell]) => cell!.replace(/<[^>]+>/g, '').trim()))
    .filter((cells) => cells.length > 0);
}

describe('tags wherever a snapshot is, and one scope for diff and site (issue 35)', () => {
  it('diffs two tags as the what-changed page of their snapshots does: the private project left out, and said when counted', async () => {
    const diff = await tmsnap(['diff', 'v1.0', 'v2.0', '--content', content]);
    expect(diff).toMatchObject({ code: 0, stderr: '' });
    expect(diff.stdout.split('\n')[0]).toBe(`Changes from snapshot ${ids[0]} (v1.0) to ${ids[1]} (v2.0)`);
    expect(diff.stdout).not.toContain('secret');
    // Language by language, what the CLI counts is what the site shows.
    const json = JSON.parse((await tmsnap(['diff', 'v1.0', 'v2.0', '--json', '--content', content])).stdout) as {
      languages: { name: string; figures: { delta: { translated: number; total: number; fuzzy: number } } }[];
      projects: { key: string }[];
    };
    expect(json.projects.map((project) => project.key)).toEqual(['hello']);
    const site = tableRows(await page(`changes-between/${ids[0]}--${ids[1]}/index.html`), 'delta-table-languages');
    const signed = (value: number) => (value > 0 ? `+${value}` : `${value}`);
    expect(json.languages.map(({ name, figures: { delta } }) => [name, signed(delta.translated), signed(delta.total), signed(delta.fuzzy)])).toEqual(
      site.map(([name, , , translated, total, fuzzy]) => [name, translated, total, fuzzy]),
    );
    // With --private-projects it counts the private one, and says so in one line.
    const all = await tmsnap(['diff', 'v1.0', 'v2.0', '--private-projects', '--content', content]);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('secret');
    expect(all.stderr).toBe("tmsnap diff: counting private project secret, which the site leaves out (only the server's key sees it)\n");
    const unknown = await tmsnap(['diff', 'v1.1', 'v2.0', '--content', content]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      `tmsnap diff: no finished snapshot or tag "v1.1" in ${content}: did you mean v1.0? (its tags: v1.0, v2.0; \`tmsnap snapshots\` lists the snapshots)\n`,
    );
  });

  it('takes a tag in pack, export, search, verify and tag, and lists each snapshot’s tags', async () => {
    const work = dirname(content);
    const packed = await tmsnap(['pack', 'v1.0', '--out', join(work, 'v1.tar.gz'), '--json', '--content', content]);
    expect(packed.code).toBe(0);
    expect(JSON.parse(packed.stdout)).toMatchObject({ snapshots: [ids[0]], since: null });
    const since = await tmsnap(['pack', '--since', 'v1.0', '--out', join(work, 'since.tar.gz'), '--json', '--content', content]);
    expect(JSON.parse(since.stdout)).toMatchObject({ snapshots: [ids[2], ids[1]], since: ids[0] });
    const exported = await tmsnap(['export', '--snapshot', 'v1.0', '--content', content]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toBe((await tmsnap(['export', '--snapshot', ids[0]!, '--content', content])).stdout);
    const searched = await tmsnap(['search', '--snapshot', 'v1.0', '--state', 'translated', '--json', '--content', content]);
    expect(JSON.parse(searched.stdout)).toMatchObject({ snapshot: ids[0] });
    const verified = await tmsnap(['verify', 'v1.0', '--content', content]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^verify: OK: \d+ objects \(.*\), 1 snapshot, 0 crawls in progress\n$/);
    expect(await tmsnap(['tag', 'v1.0-final', 'v1.0', '--content', content])).toMatchObject({ code: 0, stdout: `tagged ${ids[0]} as v1.0-final\n` });
    const listed = (await tmsnap(['snapshots', '--content', content])).stdout.split('\n');
    expect(listed[0]).toMatch(/^snapshot +tags +state /);
    expect(listed.find((line) => line.startsWith(ids[0]!))).toMatch(new RegExp(`^${ids[0]} +v1\\.0 v1\\.0-final +complete`));
    expect(listed.find((line) => line.startsWith(ids[2]!))).toMatch(new RegExp(`^${ids[2]} +complete`));
    const json = JSON.parse((await tmsnap(['snapshots', '--json', '--content', content])).stdout) as { id: string; tags: string[] }[];
    expect(json.map((listing) => listing.tags)).toEqual([[], ['v2.0'], ['v1.0', 'v1.0-final']]);
    expect((await tmsnap(['tag', '--delete', 'v1.0-final', '--content', content])).code).toBe(0);
  });

  it('names the tags of a what-changed page’s ends, instead of ids when both are tagged, and no share before a new language', async () => {
    const released = await page(`changes-between/${ids[0]}--${ids[1]}/index.html`);
    const ends = /<p id="ends"[^>]*>(.*?)<\/p>/s.exec(released)?.[1] ?? '';
    expect(ends).toMatch(/^From release <a href="\.\.\/\.\.\/releases\/v1\.0\/index\.html" data-tag="v1\.0"><code>v1\.0<\/code><\/a>/);
    expect(ends).toContain('data-tag="v2.0"');
    const latest = await page(`changes-between/${ids[1]}--${ids[2]}/index.html`);
    expect(/<p id="ends"[^>]*>(.*?)<\/p>/s.exec(latest)?.[1]).toMatch(
      new RegExp(`^From snapshot <a [^>]*data-tag="v2.0">.*</a> <span class="muted">\\(<code>${ids[1]}</code>\\)</span> to <code>${ids[2]}</code>`),
    );
    const index = await page('changes-between/index.html');
    expect(index).toContain(`<code title="${ids[0]}" data-tags="v1.0">v1.0</code> → <code title="${ids[1]}" data-tags="v2.0">v2.0</code>`);
    // Serbian (latin) is new in the latest snapshot: no share before it, not the 100% of nothing.
    const serbian = tableRows(latest, 'delta-table-languages').find(([name]) => name!.startsWith('Serbian'));
    expect(serbian?.slice(1, 3)).toEqual(['—', '0%']);
  });

  it('names people one way: history and changes by the name credits use; priority by Weblate’s word', async () => {
    const changes = await page('changes/index.html');
    expect(changes).toContain('Site Admin');
    expect(changes).not.toMatch(/<td>admin<\/td>/);
    expect(await page('credits/all.md')).toContain('Site Admin');
    expect(await page('projects/hello/po/index.html')).toMatch(/<dd data-priority="100">medium<\/dd>/);
  });
});

describe('source drift page', () => {
  it('lists the strings translated against the older source, linked from the language page', async () => {
    const { code, unit } = drifting;
    expect(await page(`languages/${code}/index.html`)).toContain(`href="../../drift/${code}/index.html"`);
    const html = await page(`drift/${code}/index.html`);
    expect(html).toContain(`data-unit="${unit}"`);
    expect(html).toMatch(/<del[^>]*>Open<\/del>.*<ins[^>]*>Open…<\/ins>/s);
    expect(html).toContain(ids[2]);
  });
});

describe('credits', () => {
  it('publishes the credits of each period as the command prints them, with no e-mail address anywhere in the site', async () => {
    expect(await page('index.html')).toContain('href="credits/index.html"');
    expect((await readdir(join(dist, 'credits'))).sort()).toEqual(
      ['12-months', 'all', 'since-v1.0', 'since-v2.0']
        .flatMap((key) => [`${key}.json`, `${key}.md`])
        .concat('index.html')
        .sort(),
    );
    const cli = await tmsnap(['credits', '--format', 'json', '--content', content]);
    expect(await page('credits/all.json')).toBe(cli.stdout);
    const all = JSON.parse(cli.stdout) as { projects: { languages: { contributors: { changes: number }[] }[] }[] };
    // Every change record of the public project that is translation work, credited to someone.
    let records = 0;
    for await (const change of (await openSnapshot(content)).changes()) {
      if ([2, 4, 5, 7, 8, 9, 27, 36, 37].includes(change.action) && change.translation?.startsWith('api/translations/hello/') && (change.author ?? change.user))
        records += 1;
    }
    expect(all.projects.flatMap((project) => project.languages.flatMap((language) => language.contributors)).reduce((sum, each) => sum + each.changes, 0)).toBe(
      records,
    );
    for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(html|json|md|xml|svg)$/.test(entry.name)) continue;
      expect(findEmails(await readFile(join(entry.parentPath, entry.name), 'utf8')), entry.name).toEqual([]);
    }
  });
});

describe('in a browser, from disk', () => {
  it.runIf(chromium)('has no serious axe violation on the new pages, and no horizontal overflow at 390 px, in English and Arabic', async () => {
    for (const [site, suffix] of [
      [dist, ''],
      [distAr, '-ar'],
    ] as const) {
      for (const [path, name] of [
        ['releases/v2.0/index.html', 'release'],
        [`drift/${drifting.code}/index.html`, 'drift'],
        ['credits/index.html', 'credits'],
      ] as const) {
        const tab = await browser.newPage({ viewport: { width: 390, height: 800 } });
        await tab.goto(pathToFileURL(join(site, path)).href);
        expect(await tab.locator('html').getAttribute('dir'), path).toBe(suffix === '' ? 'ltr' : 'rtl');
        expect(await seriousViolations(tab), path).toEqual([]);
        expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${path}${suffix}`).toBe(true);
        await tab.screenshot({ path: join(artifacts, `releases/${name}${suffix}-390.png`), fullPage: true });
        await tab.setViewportSize({ width: 1280, height: 800 });
        await tab.screenshot({ path: join(artifacts, `releases/${name}${suffix}.png`), fullPage: true });
        await tab.close();
      }
    }
  });
});
