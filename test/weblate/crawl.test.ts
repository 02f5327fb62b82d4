import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempFolders } from '../helpers/temp.ts';
import { type Role, buildSite, crawlAs, resetThrottle, serverTranslations, siteStatus, siteTranslations, summaryOf, weblate } from './helpers.ts';

/**
 * Issue 23, scenarios: a crawl of a real Weblate with each kind of key, and without one, exits 0
 * and its site holds every translation that key lists on the server (the oracle is the server,
 * asked with the same key), with a page for each.
 */

const folder = useTempFolders('tmsnap-weblate-crawl-', 'all');

async function crawlAndBuild(role: Role, extra: string[] = []) {
  const dir = await folder();
  await resetThrottle();
  const crawl = await crawlAs(role, join(dir, 'content'), extra);
  const summary = summaryOf(crawl);
  console.log(`test:weblate: crawl as ${role} ${extra.join(' ')}: exit ${crawl.code}, ${summary.made} requests, outcome ${summary.outcome}`);
  return { dir, crawl, summary };
}

/**
 * Builds the crawl's site and checks it against the server. A keyed crawl's site shows by default
 * only what an anonymous visitor sees; with `--publish private-projects` all that the key sees.
 */
async function expectSiteHoldsWhatTheKeySees(dir: string, role: Role, project?: string) {
  const site = join(dir, role === 'anonymous' ? 'site' : 'site-private');
  const build = await buildSite(join(dir, 'content'), site, role === 'anonymous' ? [] : ['--publish', 'private-projects']);
  expect(build.stderr).not.toMatch(/\n\s+at /);
  expect(build.code).toBe(0);
  const status = await siteStatus(site);
  await resetThrottle();
  const expected = await serverTranslations(role, project);
  expect(expected.length).toBeGreaterThan(0);
  expect(siteTranslations(status)).toEqual(expected);
  for (const page of status.projects.flatMap((p) => [p.page, ...p.components.flatMap((c) => [c.page, ...c.translations.map((t) => t.page)])])) {
    expect(existsSync(join(site, page)), page).toBe(true);
  }
  if (role !== 'anonymous') {
    // By default, the public view: what the server lists to a visitor without a key.
    expect((await buildSite(join(dir, 'content'), join(dir, 'site'))).code).toBe(0);
    const anonymous = await serverTranslations('anonymous', project);
    expect(siteTranslations(await siteStatus(join(dir, 'site')))).toEqual(anonymous);
  }
  return status;
}

describe(`a real Weblate (${weblate().version})`, () => {
  it('whole instance with an admin key: exit 0, every translation on the site', async () => {
    const { dir, crawl, summary } = await crawlAndBuild('admin');
    expect(crawl.code).toBe(0);
    expect(summary.problems).toEqual([]);
    const status = await expectSiteHoldsWhatTheKeySees(dir, 'admin');
    expect(status.projects.map((p) => p.slug)).toContain(weblate().privateProject);
  });

  it.runIf(weblate().everyScenario)('one project (--project humanize): only that project, all of it', async () => {
    const { dir, crawl } = await crawlAndBuild('admin', ['--project', 'humanize']);
    expect(crawl.code).toBe(0);
    const status = await expectSiteHoldsWhatTheKeySees(dir, 'admin', 'humanize');
    expect(status.projects.map((p) => p.slug)).toEqual(['humanize']);
  });

  it.runIf(weblate().everyScenario)('a project key (wlp_): what that key lists', async () => {
    expect(weblate().tokens.project).toMatch(/^wlp_/);
    const { dir, crawl } = await crawlAndBuild('project');
    expect(crawl.code).toBe(0);
    await expectSiteHoldsWhatTheKeySees(dir, 'project');
  });

  it.runIf(weblate().everyScenario)('a user key (wlu_) of a member of the private project: public projects and that one', async () => {
    expect(weblate().tokens.user).toMatch(/^wlu_/);
    const { dir, crawl } = await crawlAndBuild('user');
    expect(crawl.code).toBe(0);
    const status = await expectSiteHoldsWhatTheKeySees(dir, 'user');
    expect(status.projects.map((p) => p.slug).sort()).toEqual([...weblate().publicProjects, weblate().privateProject].sort());
  });

  it.runIf(weblate().everyScenario)(
    'anonymous at the server default limits (100 a day): spends each day, resumed until complete',
    async () => {
      const dir = await folder();
      await resetThrottle();
      // Another visitor from the same address has spent half the day's budget: the crawl (93
      // requests on the seeded server) cannot end today and must stop on the budget, then resume.
      for (let spent = 0; spent < 50; spent++) {
        const response = await fetch(`${weblate().url}projects/`, { headers: { accept: 'application/json' } });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
      let crawl = await crawlAs('anonymous', join(dir, 'content'));
      const days: number[] = [];
      const refused: boolean[] = [];
      for (;;) {
        // `made` counts the whole crawl, earlier sittings included.
        days.push(summaryOf(crawl).made - days.reduce((sum, day) => sum + day, 0));
        refused.push(/\b429\b|Retry-After/.test(crawl.stdout + crawl.stderr));
        if (crawl.code === 0 || days.length === 5) break;
        expect(crawl.stdout + crawl.stderr, 'the stop line says why').toMatch(/rate budget is spent/);
        // A day passes: the server's window empties, and the same command resumes.
        await resetThrottle();
        crawl = await crawlAs('anonymous', join(dir, 'content'));
      }
      console.log(`test:weblate: anonymous crawl after 50 requests spent elsewhere, requests per day: ${days.join(', ')}`);
      expect(crawl.code, crawl.stderr).toBe(0);
      // The first day uses what the window had left (less the slots kept for requests in flight;
      // Weblate 5.14 does not count every answer against the budget, so a few more may fit), no
      // day goes past the budget into 429s, and the second day finishes the rest.
      expect(days[0]).toBeGreaterThanOrEqual(40);
      expect(refused).not.toContain(true);
      expect(days).toHaveLength(2);
      expect(days[1]).toBeLessThan(days[0] ?? 0);
      const status = await expectSiteHoldsWhatTheKeySees(dir, 'anonymous');
      expect(status.projects.map((p) => p.slug)).not.toContain(weblate().privateProject);
    },
    600_000,
  );
});
