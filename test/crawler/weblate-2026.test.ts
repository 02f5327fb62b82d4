/**
 * Issue 23: crawls of a server that answers like the 2026 releases (the reference server's
 * `weblate-2026` profile, measured on 2026.10.1, packages/reference-server/README.md), one
 * behaviour at a time, as weblate-5.4.test.ts does for 5.4: what the crawler must do with each.
 * What is announced and not released (bot protection, cursor pagination, a paged project
 * `languages/`) each test switches on itself.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionName, laterActionNames } from '../../api/change.ts';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import type { Behaviours } from '../../packages/reference-server/server.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { listSnapshots, openSnapshot } from '../../snapshot/index.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { crawlReferenceServer } from '../helpers/crawl.ts';
import { type ReferenceServer, type TestServerOptions, withTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { startCountingProxy } from './counting-proxy.ts';

const token = 'wlu_weblate2026TestToken_0123456789';
const contentFolder = useTempFolders('tmsnap-weblate2026-', 'all');
/** Anubis in front of the API from the first anonymous request (announced for 2026.11). */
const anubis = { botChallenge: { page: 'anubis', status: 200, after: 0 } } as const;

function withServer<T>(
  run: (server: ReferenceServer) => Promise<T>,
  behaviours: Behaviours = {},
  options: Omit<TestServerOptions, 'profile'> = {},
): Promise<T> {
  return withTestServer({ profile: 'weblate-2026', ...options, behaviours: { tokens: [token], rateLimit: raisedRateLimit, ...behaviours } }, run);
}

/** The server as the crawler sees it through a proxy (its API root on the proxy). */
function behind(server: ReferenceServer, url: string): ReferenceServer {
  return { ...server, url } as ReferenceServer;
}

/** The paths a snapshot left unfinished (`<id>.partial/`) has stored so far. */
async function partialPaths(dir: string): Promise<string[]> {
  const text = await readFile(join(dir, 'journal.ndjson'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { path?: string }).path)
    .filter((path): path is string => path !== undefined);
}

/** No snapshot of the archive was finished: the stopped crawl's is left `.partial`, to resume. */
async function expectNothingFinished(content: string): Promise<void> {
  const snapshots = await listSnapshots(content);
  expect(snapshots.filter((summary) => summary.finished)).toEqual([]);
}

describe('a bot-protection page where JSON was asked', () => {
  it('at the API root: the crawl stops at once with the one line that says so, and finishes no snapshot', () =>
    withServer(async (server) => {
      const content = await contentFolder();
      const result = await crawlReferenceServer(server, content);
      expect(result.outcome).toBe('failed');
      expect(result.message).toBe(
        `GET ${server.url} answered 200 with a bot-protection page (Anubis) instead of JSON: the server put a bot check in front of its API; crawl with an API key in WEBLATE_TOKEN, or ask the server's admin to allow this client. Nothing of that page was stored.`,
      );
      expect(result.made).toBe(1);
      await expectNothingFinished(content);
      expect(await partialPaths(result.dir)).toEqual([]);
    }, anubis));

  for (const [page, status] of [
    ['anubis', 200],
    ['anubis', 429],
    ['cloudflare', 403],
  ] as const) {
    it(`mid-crawl (${page}, ${status}): stops at once, stores nothing of the page, leaves the snapshot unfinished`, () =>
      withServer(
        async (server) => {
          const proxy = await startCountingProxy(server.url);
          try {
            const content = await contentFolder();
            const result = await crawlReferenceServer(behind(server, proxy.url), content, { concurrency: 2 });
            expect(result.outcome).toBe('failed');
            const maker = page === 'anubis' ? 'Anubis' : 'Cloudflare';
            expect(result.message).toMatch(
              new RegExp(
                `^GET ${proxy.url.replace(/[.?]/g, '\\$&')}\\S* answered ${status} with a bot-protection page \\(${maker}\\) instead of JSON: the server put a bot check in front of its API; crawl with an API key in WEBLATE_TOKEN, or ask the server's admin to allow this client\\. Nothing of that page was stored\\.$`,
              ),
            );
            // The 7th request met the page; the other one in flight may finish, nothing new starts, nothing is retried.
            expect(proxy.paths.length).toBeLessThanOrEqual(8);
            await expectNothingFinished(content);
            const challenged = new URL(result.message!.split(' ')[1]!);
            const stored = await partialPaths(result.dir);
            expect(stored.length).toBeGreaterThan(0);
            expect(stored).not.toContain(`api/${challenged.pathname.slice(new URL(proxy.url).pathname.length)}`);
            expect(result.problems).toEqual([]);
          } finally {
            await proxy.close();
          }
        },
        { botChallenge: { page, status, after: 6 } },
      ));
  }
});

describe('Authorization', () => {
  it('sends the key as Token even when it was given with another scheme, so a 2026 server accepts it', () =>
    withServer(async (server) => {
      const content = await contentFolder();
      // The private project is there only for an accepted key: crawled anonymously, it is missing.
      const result = await crawlReferenceServer(server, content, { token: `Bearer ${token}`, projects: ['secret'] });
      expect(result.message).toBeUndefined();
      expect(result.outcome).toBe('complete');
    }));

  it('a refused key stops the crawl with one line saying so', () =>
    withServer(async (server) => {
      const content = await contentFolder();
      const result = await crawlReferenceServer(server, content, { token: 'wlu_not_this_one' });
      expect(result.outcome).toBe('failed');
      expect(result.message).toBe(
        `GET ${server.url} answered 401 (Invalid token): the server refused the API key; check WEBLATE_TOKEN (tmsnap crawl --help says where the key came from), or unset it to crawl anonymously.`,
      );
      expect(result.made).toBe(1);
      await expectNothingFinished(content);
    }));
});

describe('a crawl with a key of a 2026 server', () => {
  it('with cursor pagination (announced): follows every cursor in next verbatim, never asks for a page number, and stores what a 5.4 crawl stores', async () => {
    // 1,200 more units and 20 a page (legacyPagination over cursors): the units list runs to 60+ cursor pages.
    const rows = fixtureRows();
    const template = rows.units.find((row) => row.id === 7)!;
    for (let i = 0; i < 1_200; i++) rows.units.push({ ...template, id: 1000 + i, position: 100 + i, source: [`String ${i}`], target: [`Řetězec ${i}`] });
    const crawlOf = async (profile: 'weblate-2026' | 'weblate-5.4') =>
      withTestServer(
        {
          profile,
          data: new MemoryModel(rows),
          behaviours: { tokens: [token], rateLimit: raisedRateLimit, legacyPagination: true, cursorPagination: profile === 'weblate-2026' },
        },
        async (server) => {
          const proxy = await startCountingProxy(server.url);
          try {
            const content = await contentFolder();
            const result = await crawlReferenceServer(behind(server, proxy.url), content, { token, projects: ['hello'] });
            expect(result.message).toBeUndefined();
            expect(result.outcome).toBe('complete');
            return { snapshot: await openSnapshot(content), requests: proxy.requests };
          } finally {
            await proxy.close();
          }
        },
      );
    const recent = await crawlOf('weblate-2026');
    expect(recent.requests.filter((request) => /[?&]cursor=/.test(request)).length).toBeGreaterThan(60);
    expect(recent.requests.filter((request) => /[?&]page=/.test(request))).toEqual([]);
    const before = await crawlOf('weblate-5.4');
    const units = async (snapshot: typeof recent.snapshot) =>
      Object.fromEntries(
        await Promise.all((await snapshot.translations()).map(async (entry) => [entry.path, (await snapshot.units(entry.path)).map((unit) => unit.id)])),
      );
    expect(await units(recent.snapshot)).toEqual(await units(before.snapshot));
    expect((await recent.snapshot.units('api/translations/hello/po/cs/')).length).toBe(1_206);
  }, 120_000);

  it("keeps 2026.10.1's settings, metrics, announcements, reports, suggestions and both shapes of a project's languages/, none rejected", async () => {
    const stored = async (profile: 'weblate-2026' | 'weblate-5.4', behaviours: Behaviours = {}) =>
      withTestServer({ profile, behaviours: { tokens: [token], rateLimit: raisedRateLimit, ...behaviours } }, async (server) => {
        const content = await contentFolder();
        const result = await crawlReferenceServer(server, content, { token });
        expect(result.message).toBeUndefined();
        expect(result.outcome).toBe('complete');
        const snapshot = await openSnapshot(content);
        expect([...snapshot.paths().keys()].filter((path) => snapshot.isRaw(path))).toEqual([]);
        expect(snapshot.manifest.problems).toEqual([]);
        return snapshot;
      });
    const snapshot = await stored('weblate-2026');
    const record = async (path: string) => snapshot.record(path);
    const project = (await record('api/projects/hello/')) as Record<string, unknown>;
    expect(project).toMatchObject({ workspace: null, access_control: 0, inherit_new_lang: false, effective_commit_message: expect.any(String) });
    // 2026 removed it: the project is kept all the same (api/project.ts has it optional).
    expect(project).not.toHaveProperty('set_language_team');
    expect(await record('api/components/hello/po/')).toMatchObject({ inherit_license: false, effective_license: 'GPL-3.0-or-later' });
    // Collections the crawl does not detail are kept whole, as one record at the list's URL (crawler/plan.ts).
    expect(await record('api/projects/hello/metrics/')).toMatchObject({ po: { cs: { name: 'Czech', total: expect.any(Number) } } });
    expect(await record('api/suggestions/')).toMatchObject({
      results: expect.arrayContaining([
        expect.objectContaining({ unit: expect.any(String), user: expect.any(String), target: expect.any(Array), timestamp: expect.any(String) }),
      ]),
    });
    expect(await record('api/projects/hello/languages/')).toMatchObject([{ code: 'ar' }, { code: 'cs' }, { code: 'en' }]);
    // Announced: a paged envelope, kept as it came.
    const announced = await stored('weblate-2026', { pagedProjectLanguages: true });
    expect(await announced.record('api/projects/hello/languages/')).toMatchObject({ results: [{ code: 'ar' }, { code: 'cs' }, { code: 'en' }] });
    const older = await stored('weblate-5.4');
    expect(await older.record('api/projects/hello/languages/')).toMatchObject([{ code: 'ar' }, { code: 'cs' }, { code: 'en' }]);
  }, 120_000);

  it('keeps units in states 11 and 12 with their automatically_translated flag, and changes with codes it has no name for', async () => {
    const rows = fixtureRows();
    const fuzzy = rows.units.find((unit) => unit.state === 10)!;
    rows.units.push({ ...fuzzy, id: 901, position: 901, state: 11, automaticallyTranslated: true }, { ...fuzzy, id: 902, position: 902, state: 12 });
    const last = rows.changes.at(-1)!;
    rows.changes.push({ ...last, id: last.id + 1, action: 89 }, { ...last, id: last.id + 2, action: 104 });
    await withServer(
      async (server) => {
        const content = await contentFolder();
        const result = await crawlReferenceServer(server, content, { token });
        expect(result.message).toBeUndefined();
        expect(result.outcome).toBe('complete');
        const snapshot = await openSnapshot(content);
        const units = await snapshot.units('api/translations/hello/po/cs/');
        expect(units.find((unit) => unit.id === 901)).toMatchObject({ state: 11, fuzzy: true, automatically_translated: true });
        expect(units.find((unit) => unit.id === 902)).toMatchObject({ state: 12, fuzzy: true, automatically_translated: false });
        const actions: number[] = [];
        for await (const change of snapshot.changes()) actions.push(change.action);
        expect(actions).toEqual(expect.arrayContaining([89, 104]));
        // The server names 89 and 104 in its own words; tmsnap shows codes it has no name for as numbers.
        expect([actionName(89), actionName(104)]).toEqual(['action 89', 'action 104']);
        expect(laterActionNames[88]).toBe('Repository cleanup');
      },
      {},
      { data: new MemoryModel(rows) },
    );
  });
});
