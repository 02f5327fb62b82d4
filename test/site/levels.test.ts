/**
 * Issue 26, release levels on the site: `tmsnap build --levels` over two real crawls of the
 * reference server, with a Czech string translated between them. The component and project
 * pages list each language at its level, the level badges count them, status.json carries them,
 * and the feeds hold an entry for Czech crossing a level; a build without `--levels` has none of it.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { statusDocument, type StatusDocument } from '../../site-model/status-schema.ts';
import { crawlInto, historyServer } from '../archive/crawl.ts';
import { fixtureModel } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { pathToFileURL } from 'node:url';
import { buildWithCli, hasChromium, launchChromium, scratch, seriousViolations } from './browser.ts';

const chromium = hasChromium();

const tempFolder = useTempFolders('tmsnap-site-levels-', 'all', scratch);
let content: string;
let site: string;
let plain: string;

beforeAll(async () => {
  const work = await tempFolder();
  content = join(work, 'content');
  site = join(work, 'site');
  plain = join(work, 'plain');
  const model = fixtureModel();
  const server = await historyServer(model);
  try {
    await crawlInto(server, content);
    // Czech Messages: 4 of 6 strings translated (66.6%, alpha); translating "Open" (adjective) makes it 5 of 6 (83.3%, beta).
    const translation = model.translations().find((row) => row.componentId === 1 && row.languageCode === 'cs')!;
    const open = model.units(translation.id, 0, 100).find((unit) => unit.context === 'adjective')!;
    model.translate(open.id, ['Otevřený'], 'alice');
    await crawlInto(server, content);
  } finally {
    await server.close();
  }
  await buildWithCli(['--content', content, '--out', site, '--levels', 'ship=95,beta=75,alpha=50']);
  await buildWithCli(['--content', content, '--out', plain]);
}, 600_000);

const read = (root: string, path: string) => readFile(join(root, path), 'utf8');
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** The levels section of a page: per level (`''` below every level), the language codes listed. */
function levelsOnPage(html: string): Map<string, string[]> {
  const section = /<section[^>]*data-levels[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1];
  if (section === undefined) throw new Error('no levels section on the page');
  const rows = new Map<string, string[]>();
  for (const row of section.matchAll(/<tr[^>]*data-level(?:="([^"]*)")?[^>]*>([\s\S]*?)<\/tr>/g)) {
    rows.set(
      row[1] ?? '',
      [...row[2]!.matchAll(/data-language="([^"]+)"/g)].map((match) => match[1]!),
    );
  }
  return rows;
}

describe('tmsnap build --levels', () => {
  it('lists each language of a component at its level, the source language left out', async () => {
    const rows = levelsOnPage(await read(site, 'projects/hello/po/index.html'));
    expect([...rows.keys()]).toEqual(['ship', 'beta', 'alpha', '']);
    expect(rows.get('beta')).toContain('cs');
    expect(rows.get('alpha')).not.toContain('cs');
    expect([...rows.values()].flat()).not.toContain('en');
  });

  it('lists a project’s languages by their figures summed over its components', async () => {
    const status = statusDocument.parse(JSON.parse(await read(site, 'data/status.json'))) as StatusDocument;
    const project = status.projects.find((each) => each.slug === 'hello')!;
    const rows = levelsOnPage(await read(site, 'projects/hello/index.html'));
    expect(project.levels!.map((level) => [level.level ?? '', level.languages])).toEqual([...rows.entries()]);
  });

  it('writes a badge per level counting its languages', async () => {
    const rows = levelsOnPage(await read(site, 'projects/hello/po/index.html'));
    const beta = rows.get('beta')!.length;
    const svg = await read(site, 'badges/hello/po.level-beta.svg');
    expect(svg).toContain(`<title>Hello / Messages: ${beta} ${beta === 1 ? 'language' : 'languages'} at beta</title>`);
    const json = JSON.parse(await read(site, 'badges/hello/po.level-beta.json'));
    expect(json).toMatchObject({ schemaVersion: 1, label: 'beta', message: `${beta} ${beta === 1 ? 'language' : 'languages'}` });
    const ship = JSON.parse(await read(site, 'badges/hello.level-ship.json'));
    expect(ship.label).toBe('ship');
    expect(ship.message).toMatch(/^\d+ languages?$/);
  });

  it('carries the thresholds and each component’s levels in status.json', async () => {
    const status = statusDocument.parse(JSON.parse(await read(site, 'data/status.json')));
    expect(status.levels).toEqual({
      measure: 'strings',
      thresholds: [
        { name: 'ship', percent: 95 },
        { name: 'beta', percent: 75 },
        { name: 'alpha', percent: 50 },
      ],
    });
    const component = status.projects.find((each) => each.slug === 'hello')!.components.find((each) => each.slug === 'po')!;
    const beta = component.levels!.find((level) => level.level === 'beta')!;
    expect(beta.languages).toContain('cs');
    expect(beta.count).toBe(beta.languages.length);
    expect(beta.badge).toBe('badges/hello/po.level-beta.svg');
    expect(component.levels!.at(-1)).toMatchObject({ level: null, badge: null });
  });

  it('adds an Atom entry for a language that crossed a level since the previous snapshot', async () => {
    const title = '<title>Czech in Messages went up from alpha to beta (66.6% → 83.3%)</title>';
    expect(await read(site, 'changes/feed.xml')).toContain(title);
    expect(await read(site, 'projects/hello/feed.xml')).toContain(title);
    expect(await read(site, 'languages/cs/feed.xml')).toContain(title);
    // Arabic crossed no level: its feed has no such entry.
    const arabic = await read(site, 'languages/ar/feed.xml');
    expect(arabic).not.toContain('went up from');
    expect(arabic).not.toContain('went down from');
    // The entry links the component's page, relative to the feed without --site-url.
    const entry = /<entry>(?:(?!<\/entry>)[\s\S])*Czech in Messages went up[\s\S]*?<\/entry>/.exec(await read(site, 'projects/hello/feed.xml'))![0];
    expect(entry).toContain('<link rel="alternate" href="po/index.html"/>');
  });

  it.runIf(chromium)('opens from file:// with its level badges loaded, and axe finds nothing serious', async () => {
    const browser = await launchChromium();
    try {
      for (const page of ['projects/hello/po/index.html', 'projects/hello/index.html']) {
        const tab = await browser.newPage();
        await tab.goto(pathToFileURL(join(site, page)).href);
        const badges = await tab.$$eval('[data-levels] img', (images) => images.map((image) => (image as HTMLImageElement).naturalWidth));
        expect(badges.length, page).toBe(3);
        expect(
          badges.every((width) => width > 0),
          page,
        ).toBe(true);
        expect(await seriousViolations(tab), page).toEqual([]);
        await tab.close();
      }
    } finally {
      await browser.close();
    }
  });

  it('shows no levels, level badges or status.json levels without --levels', async () => {
    expect(await read(plain, 'projects/hello/po/index.html')).not.toContain('data-levels');
    expect(await exists(join(plain, 'badges/hello/po.level-beta.svg'))).toBe(false);
    const status = JSON.parse(await read(plain, 'data/status.json'));
    expect('levels' in status).toBe(false);
    expect('levels' in status.projects[0]).toBe(false);
    expect(await read(plain, 'changes/feed.xml')).not.toContain('went up from');
  });
});
