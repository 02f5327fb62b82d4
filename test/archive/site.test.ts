import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSnapshots } from '../../archive/compare.ts';
import { unitChangeKinds, type SnapshotDiff } from '../../archive/diff.ts';
import { percent } from '../../archive/figures.ts';
import { writeDataset } from '../../dataset/write.ts';
import { statusDocument } from '../../site-model/status-schema.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { SqliteDataset } from '../dataset/read.ts';
import { artifacts, buildWithCli, hasChromium, launchChromium, seriousViolations } from '../site/browser.ts';
import { crawlHistory } from './crawl.ts';
import { useContentFolders } from '../helpers/temp.ts';

const chromium = hasChromium();

/**
 * The archive features in the built site: history charts on project, component, translation
 * and language pages, and the what-changed page linked from home, opened from disk
 * (`file://`) in Chromium; figures checked against the snapshots themselves.
 */

const contentDir = useContentFolders('tmsnap-archive-', 'all');
const day = (n: number) => new Date(Date.UTC(2026, 10, n, 4, 15));
let content: string;
let ids: string[];
let dist: string;
let browser: Browser;
let latestDiff: SnapshotDiff;

beforeAll(async () => {
  content = await contentDir();
  ids = await crawlHistory(content, [day(18), day(19), day(20), day(21)], 31);
  dist = join(dirname(content), 'dist');
  await buildWithCli(['--content', content, '--out', dist]);
  latestDiff = await compareSnapshots(content, ids[2]!, ids[3]!);
  if (chromium) browser = await launchChromium();
  await mkdir(join(artifacts, 'archive'), { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

async function open(path: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(pathToFileURL(join(dist, path)).href);
  return page;
}

/** Translated percent of a project in each snapshot, from the translation records themselves. */
async function projectProgress(project: string): Promise<number[]> {
  const figures: number[] = [];
  for (const id of ids) {
    const snapshot = await openSnapshot(content, id);
    let translated = 0;
    let total = 0;
    for (const { path, record } of await snapshot.translations()) {
      if (!path.startsWith(`api/translations/${project}/`)) continue;
      translated += record.translated;
      total += record.total;
    }
    figures.push(percent(translated, total));
  }
  return figures;
}

describe('archive pages in the built site', () => {
  it('holds, in the dataset of the archive (tmsnap dataset), the figures of the built snapshot’s data/status.json', async () => {
    // The one build of this file, read again: a build per test would cost a minute each (issue 37).
    const status = statusDocument.parse(JSON.parse(await readFile(join(dist, 'data/status.json'), 'utf8')));
    const file = join(dirname(content), 'dataset.sqlite');
    await writeDataset({ content, out: file, format: 'sqlite', tmsnapVersion: '0.0.0-test' });
    const dataset = new SqliteDataset(file);
    try {
      const rows = dataset.table('translations').filter((row) => row.snapshot === status.snapshot.id);
      const fromStatus = status.projects.flatMap((project) =>
        project.components.flatMap((component) =>
          component.translations.map((translation) => ({ key: `${project.slug}/${component.slug}/${translation.language}`, ...translation.statistics })),
        ),
      );
      const fromDataset = rows.map(
        ({ project, component, language, total, translated, fuzzy, untranslated, total_words, translated_words, fuzzy_words, translated_percent }) => ({
          key: `${project}/${component}/${language}`,
          total,
          translated,
          fuzzy,
          untranslated,
          total_words,
          translated_words,
          fuzzy_words,
          translated_percent,
        }),
      );
      const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
      expect(fromDataset.sort(byKey)).toEqual(fromStatus.sort(byKey));
      expect(fromDataset.length).toBeGreaterThan(0);
      const languages = dataset.table('languages').filter((row) => row.snapshot === status.snapshot.id);
      expect(
        languages.map(({ language, translations, translated, total, translated_percent }) => ({
          language,
          translations,
          translated,
          total,
          translated_percent,
        })),
      ).toEqual(
        status.languages
          .map((language) => ({
            language: language.code,
            translations: language.translations,
            translated: language.statistics.translated,
            total: language.statistics.total,
            translated_percent: language.statistics.translated_percent,
          }))
          .sort((a, b) => (a.language < b.language ? -1 : 1)),
      );
    } finally {
      dataset.close();
    }
  });

  it.runIf(chromium)('links the latest what-changed page from home, and it lists the diff of the last two snapshots', async () => {
    const home = await open('index.html');
    await home.getByRole('link', { name: 'since the previous snapshot' }).click();
    expect(await home.title()).toMatch(/^What changed/);
    expect(home.url()).toContain(`changes-between/${ids[2]}--${ids[3]}/index.html`);
    for (const kind of unitChangeKinds) {
      expect(await home.locator(`#totals li[data-kind="${kind}"] strong`).textContent(), kind).toBe(String(latestDiff.totals[kind]));
    }
    expect(await home.locator('section.translation-diff').count()).toBe(latestDiff.translations.length);
    const changedRows = latestDiff.translations.reduce((sum, translation) => sum + Math.min(translation.changes.length, 100), 0);
    expect(await home.locator('table.unit-changes tbody tr').count()).toBe(changedRows);
    // Translated targets hold markup-like text (see activity.ts): shown as characters, never parsed.
    const translated = latestDiff.translations.flatMap((t) => t.changes).find((change) => change.after?.target[0]?.includes('<b>'));
    if (translated) {
      expect(await home.locator('table.unit-changes b').count()).toBe(0);
      expect(await home.locator('table.unit-changes').first().textContent()).toContain('<b>&amp;</b>');
    }
    // Each side's state carries its colour mark, as wherever strings are listed (issue 26).
    expect(await home.locator('table.unit-changes tbody span[class^="muted s"]').count()).toBeGreaterThan(0);
    expect(await seriousViolations(home)).toEqual([]);
    await home.screenshot({ path: join(artifacts, 'archive/changes-between.png'), fullPage: true });
    await home.close();
  });

  it.runIf(chromium)('draws the project history from every snapshot, with the figures of each', async () => {
    const page = await open('projects/hello/index.html');
    const chart = page.locator('svg.history-chart');
    await expect.poll(() => chart.count()).toBe(1);
    expect(await chart.getAttribute('data-points')).toBe(String(ids.length));
    expect(await chart.locator('circle.dot').count()).toBe(ids.length);
    const expected = await projectProgress('hello');
    const shown = await page.locator('section.history details tbody tr td:nth-child(3)').allTextContents();
    expect(shown).toEqual(expected.map((value) => `${value}%`));
    expect(await chart.locator('desc').textContent()).toContain(`Translated ${expected[0]}% on 2026-11-18, ${expected.at(-1)}% on 2026-11-21`);
    expect(await seriousViolations(page)).toEqual([]);
    await chart.screenshot({ path: join(artifacts, 'archive/history-project.png') });
    await page.close();
  });

  it.runIf(chromium)('puts a history chart on component, translation and language pages', async () => {
    for (const [path, name] of [
      ['projects/hello/po/index.html', 'component'],
      ['projects/hello/po/cs/index.html', 'translation'],
      ['languages/cs/index.html', 'language'],
    ] as const) {
      const page = await open(path);
      expect(await page.locator('svg.history-chart').count(), path).toBe(1);
      expect(Number(await page.locator('svg.history-chart').getAttribute('data-points')), path).toBeGreaterThanOrEqual(2);
      await page.locator('section.history').screenshot({ path: join(artifacts, `archive/history-${name}.png`) });
      await page.close();
    }
  });

  it.runIf(chromium)('lists every snapshot pair on the diffs index, newest first', async () => {
    const page = await open('changes-between/index.html');
    const links = await page.locator('#snapshot-pairs tbody a').allTextContents();
    expect(links.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([`${ids[2]} → ${ids[3]}`, `${ids[1]} → ${ids[2]}`, `${ids[0]} → ${ids[1]}`]);
    await page.close();
  });
});
