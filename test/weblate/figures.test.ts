import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTempFolders } from '../helpers/temp.ts';
import { type SiteStatus, apiAs, buildSite, crawlAs, shell, siteStatus } from './helpers.ts';

/**
 * Issue 23, "The site agrees with the server": every figure the site publishes for a translation,
 * component, project and language (status.json and badges) equals the server's own answer for
 * the same object, asked after the crawl. The server's `statistics/` endpoints answer for
 * translations, projects and languages; a component's figures are not in the API, so they come
 * from Weblate's own stats object through `weblate shell`.
 */

const counters = ['total', 'translated', 'fuzzy', 'total_words', 'translated_words', 'fuzzy_words', 'translated_percent'] as const;

type Figures = Record<(typeof counters)[number], number>;

const folder = useTempFolders('tmsnap-weblate-figures-', 'all');
let site: string;
let status: SiteStatus;
const compared = { objects: 0, figures: 0 };

function pick(record: Record<string, unknown>): Figures {
  return Object.fromEntries(counters.map((name) => [name, record[name]])) as Figures;
}

function expectSame(label: string, ours: Record<string, number>, theirs: Record<string, unknown>) {
  compared.objects++;
  compared.figures += counters.length;
  expect({ label, ...pick(ours) }).toEqual({ label, ...pick(theirs) });
}

/** A unit translated after it was added, in another minute than its `timestamp` (the pages show minutes). */
let edited: { id: number; timestamp: string; last_updated: string };

beforeAll(async () => {
  const api = apiAs('admin');
  const unit = (await api.all<{ id: number; timestamp: string; source: string[] }>('translations/humanize/humanize/de/units/')).find(
    (u) => u.source.length === 1,
  );
  const minute = (iso: string) => iso.slice(0, 16);
  while (minute(new Date().toISOString()) === minute(new Date(unit!.timestamp).toISOString())) await new Promise((resolve) => setTimeout(resolve, 2000));
  await api.call('PATCH', `units/${unit!.id}/`, { target: ['neu übersetzt'], state: 20 });
  edited = (await api.call('GET', `units/${unit!.id}/`)) as typeof edited;
  // Committed now: the crawl's file downloads would commit it otherwise, a change after the crawl
  // read the translation (crawler/plan.ts, phases: files come last for that reason).
  await api.call('POST', 'components/humanize/humanize/repository/', { operation: 'commit' });
  const dir = await folder();
  // Two snapshots, so that every page draws its history chart (one point shows none).
  for (const run of ['first', 'second']) {
    const crawl = await crawlAs('admin', join(dir, 'content'));
    expect(crawl.code, `${run} crawl: ${crawl.stderr}`).toBe(0);
  }
  site = join(dir, 'site');
  expect((await buildSite(join(dir, 'content'), site, ['--publish', 'private-projects'])).code).toBe(0);
  status = await siteStatus(site);
});

describe('every figure on the site is the server’s', () => {
  it('translations, with their badges', async () => {
    const api = apiAs('admin');
    for (const project of status.projects) {
      for (const component of project.components) {
        for (const translation of component.translations) {
          const theirs = (await api.call('GET', `translations/${project.slug}/${component.slug}/${translation.language}/statistics/`)) as Record<
            string,
            unknown
          >;
          expectSame(`${project.slug}/${component.slug}/${translation.language}`, translation.statistics, theirs);
          expect(translation.last_change, `${project.slug}/${component.slug}/${translation.language} last change`).toBe(theirs.last_change ?? null);
          const badge = await readFile(join(site, (translation as unknown as { badge: string }).badge), 'utf8');
          expect(badge, 'the badge shows the server’s percentage').toContain(`${theirs.translated_percent as number}%`);
          // The page's progress bar: its translated share is the server's figure too.
          const page = await readFile(join(site, translation.page), 'utf8');
          const bar = /class="bar" role="img" aria-label="([\d.]+)% of/.exec(page);
          if (theirs.total !== 0) {
            compared.figures++;
            expect(Number(bar?.[1]), `${translation.page} progress bar`).toBe(theirs.translated_percent);
          }
        }
      }
    }
  });

  it('components (Weblate’s own component stats)', async () => {
    const printed = await shell(`
import json
from weblate.trans.models import Component
print(json.dumps({f"{c.project.slug}/{c.full_slug.split('/', 1)[1].replace('/', '%252F')}": {
    "total": c.stats.all, "translated": c.stats.translated, "fuzzy": c.stats.fuzzy,
    "total_words": c.stats.all_words, "translated_words": c.stats.translated_words,
    "fuzzy_words": c.stats.fuzzy_words, "translated_percent": c.stats.translated_percent,
} for c in Component.objects.all()}))
`);
    const theirs = JSON.parse(printed.trim().split('\n').at(-1)!) as Record<string, Record<string, unknown>>;
    for (const project of status.projects) {
      for (const component of project.components)
        expectSame(`${project.slug}/${component.slug}`, component.statistics, theirs[`${project.slug}/${component.slug}`]!);
    }
  });

  it('where help is needed: each count on a language page is the server’s, and lists as many strings', async () => {
    const api = apiAs('admin');
    let rows = 0;
    for (const language of status.languages) {
      const page = await readFile(join(site, language.page), 'utf8');
      for (const [, key = '', cells = ''] of page.matchAll(/<tr data-translation="([^"]+)"[^>]*>(.*?)<\/tr>/gs)) {
        const cellsByNeed = [...cells.matchAll(/<td[^>]*data-sort="(\d+)"[^>]*data-need="([\w-]+)"[^>]*>(?:<a href="([^"]+)")?/g)];
        const ours = Object.fromEntries(cellsByNeed.map(([, count, need]) => [need, Number(count)]));
        const theirs = (await api.call('GET', `translations/${key}/${language.code}/statistics/`)) as Record<string, number>;
        const expected: Record<string, number> = {
          untranslated: theirs.total! - theirs.translated! - theirs.fuzzy!,
          'needs-editing': theirs.fuzzy!,
          'failing-checks': theirs.failing!,
          suggestions: theirs.suggestions!,
        };
        if ('waiting-for-review' in ours) expected['waiting-for-review'] = theirs.translated! - theirs.approved! - theirs.readonly!;
        expect({ key, language: language.code, ...ours }).toEqual({ key, language: language.code, ...expected });
        // Behind each count, the list of that many archived strings (one page at this size).
        for (const [, count, need, href] of cellsByNeed) {
          if (Number(count) === 0) continue;
          expect(href, `${key}/${language.code} ${need} links to its list`).toBeDefined();
          const list = await readFile(join(dirname(join(site, language.page)), decodeURIComponent(href!)), 'utf8');
          expect(new Set([...list.matchAll(/#unit-(\d+)(?=[">\s])/g)].map((match) => match[1])).size, `${key}/${language.code} ${need}`).toBe(Number(count));
        }
        rows++;
        compared.objects++;
        compared.figures += Object.keys(ours).length;
      }
    }
    console.log(`test:weblate: where help is needed, ${rows} rows compared with the server`);
    expect(rows).toBeGreaterThan(0);
  });

  it('projects', async () => {
    const api = apiAs('admin');
    for (const project of status.projects)
      expectSame(project.slug, project.statistics, (await api.call('GET', `projects/${project.slug}/statistics/`)) as Record<string, unknown>);
  });

  it('a string’s "Last changed" is its last change, not when it was added', async () => {
    expect(edited.last_updated.slice(0, 16)).not.toBe(edited.timestamp.slice(0, 16));
    const units = await apiAs('admin').all<{ id: number; last_updated: string }>('translations/humanize/humanize/de/units/');
    const page = await readFile(join(site, 'projects/humanize/humanize/de/units/1/index.html'), 'utf8');
    expect(page).toContain('Last changed');
    for (const unit of units) {
      const row = new RegExp(`<tr id="unit-${unit.id}">.*?(?=<tr|</tbody>)`, 's').exec(page)?.[0] ?? '';
      compared.figures++;
      expect(row, `unit ${unit.id}`).toContain(`${unit.last_updated.slice(0, 10)} ${unit.last_updated.slice(11, 16)}`);
    }
  });

  it('a translation’s "Last change …, by" names who made its last change', async () => {
    const api = apiAs('admin');
    const record = (await api.call('GET', 'translations/humanize/humanize/de/')) as { last_author: string | null; last_change: string };
    const admin = (await api.call('GET', 'users/admin/')) as { full_name: string };
    // The unit edited in beforeAll was its last change, made with the admin's key.
    expect(record.last_author).toBe(admin.full_name);
    const page = await readFile(join(site, 'projects/humanize/humanize/de/index.html'), 'utf8');
    compared.figures += 2;
    expect(page).toContain(`<time datetime="${new Date(record.last_change).toISOString()}">`);
    expect(page).toContain(`, by ${admin.full_name}</dd>`);
  });

  it('history charts: the latest point of every chart is the server’s figure', async () => {
    const api = apiAs('admin');
    const server = (path: string) => api.call('GET', path) as Promise<Record<string, unknown>>;
    const components = JSON.parse(
      (
        await shell(`
import json
from weblate.trans.models import Component
print(json.dumps({f"{c.project.slug}/{c.full_slug.split('/', 1)[1].replace('/', '%252F')}": {
    "total": c.stats.all, "translated_percent": c.stats.translated_percent, "fuzzy_percent": c.stats.fuzzy_percent,
} for c in Component.objects.all()}))
`)
      )
        .trim()
        .split('\n')
        .at(-1)!,
    ) as Record<string, Record<string, unknown>>;
    const charts: [page: string, theirs: Record<string, unknown>][] = [];
    for (const project of status.projects) {
      charts.push([project.page, await server(`projects/${project.slug}/statistics/`)]);
      for (const component of project.components) {
        charts.push([component.page, components[`${project.slug}/${component.slug}`]!]);
        for (const translation of component.translations)
          charts.push([translation.page, await server(`translations/${project.slug}/${component.slug}/${translation.language}/statistics/`)]);
      }
    }
    for (const language of status.languages) charts.push([language.page, await server(`languages/${language.code}/statistics/`)]);
    for (const [page, theirs] of charts) {
      const html = await readFile(join(site, page), 'utf8');
      const section = /<section class="history".*?<\/section>/s.exec(html)?.[0] ?? '';
      // The figures table repeats the chart's points: snapshot, strings, translated, needs editing.
      const last = [...section.matchAll(/<tr><td><code>[^<]*<\/code><\/td>(.*?)<\/tr>/gs)].at(-1)?.[1];
      expect(last, `${page}: a history chart with its figures table`).toBeDefined();
      const cells = [...last!.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((cell) => Number(cell[1]!.replace(/[^\d.]/g, '')));
      compared.objects++;
      compared.figures += 3;
      expect({ page, total: cells[0], translated: cells[1], fuzzy: cells[2] }).toEqual({
        page,
        total: theirs.total,
        translated: theirs.translated_percent,
        fuzzy: theirs.fuzzy_percent,
      });
    }
  });

  it('languages', async () => {
    const api = apiAs('admin');
    for (const language of status.languages)
      expectSame(language.code, language.statistics, (await api.call('GET', `languages/${language.code}/statistics/`)) as Record<string, unknown>);
    console.log(`test:weblate: figures walk compared ${compared.figures} figures of ${compared.objects} objects`);
  });
});
