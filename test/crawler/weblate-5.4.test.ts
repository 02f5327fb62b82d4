/**
 * Issue 9 and issue 11: crawls of a server that answers like a real Weblate 5.4 (the reference
 * server's `weblate-5.4` profile): nested lists without their parent, anonymous users without
 * `url`, 403 on every `repository/` and 401 on `memory/` for anonymous clients.
 */
import { describe, expect, it } from 'vitest';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { openSnapshot, type Snapshot } from '../../snapshot/index.ts';
import { crawlReferenceServer } from '../helpers/crawl.ts';
import { type ReferenceServer, withTestServer } from '../helpers/reference-server.ts';
import { startCountingProxy } from './counting-proxy.ts';
import { serverGet } from './compare.ts';
import { useTempFolders } from '../helpers/temp.ts';

const token = 'wlu_weblate54TestToken_0123456789ab';
const contentFolder = useTempFolders('tmsnap-weblate54-', 'all');

function withServer<T>(run: (server: ReferenceServer) => Promise<T>, data?: 'bundled'): Promise<T> {
  // Throttling stays on (its headers are read), only high enough for a test to go fast.
  return withTestServer({ profile: 'weblate-5.4', behaviours: { tokens: [token], rateLimit: raisedRateLimit }, ...(data ? { data } : {}) }, run);
}

/** The server as the crawler sees it through a proxy (its API root on the proxy). */
function behind(server: ReferenceServer, url: string): ReferenceServer {
  return { ...server, url } as ReferenceServer;
}

/** Every item of a list as the server serves it, all pages. */
async function served(url: string, credentials: string | undefined): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const { status, body } = await serverGet(`${url}?page=${page}`, credentials);
    if (status === 404) return items;
    const list = body as { results: Record<string, unknown>[]; next: string | null };
    items.push(...list.results);
    if (list.next === null) return items;
  }
}

/** What the server holds for one project, asked directly: component paths, translation paths, units per translation. */
async function projectOnServer(server: ReferenceServer, project: string, credentials: string | undefined) {
  const base = server.url.replace(/api\/$/, '');
  const path = (url: unknown) => String(url).slice(base.length);
  const components = await served(`${server.url}projects/${project}/components/`, credentials);
  const translations = new Map<string, number>();
  for (const component of components) {
    for (const translation of await served(String(component.translations_url), credentials)) translations.set(path(translation.url), Number(translation.total));
  }
  return { components: components.map((component) => path(component.url)).sort(), translations };
}

async function expectWholeProject(snapshot: Snapshot, server: ReferenceServer, project: string, credentials: string | undefined): Promise<void> {
  const expected = await projectOnServer(server, project, credentials);
  expect(expected.components.length).toBeGreaterThan(0);
  const inProject = (path: string) => path.startsWith(`api/components/${project}/`) || path.startsWith(`api/translations/${project}/`);
  const components = (await snapshot.components()).map((entry) => entry.path).filter(inProject);
  expect(components.sort()).toEqual(expected.components);
  const translations = (await snapshot.translations()).map((entry) => entry.path).filter(inProject);
  expect(translations.sort()).toEqual([...expected.translations.keys()].sort());
  for (const [translation, total] of expected.translations) expect((await snapshot.units(translation)).length, translation).toBe(total);
  // Nothing of the project kept raw: no component, translation or user fell out of its schema.
  const raw = [...snapshot.paths().keys()].filter((path) => snapshot.isRaw(path));
  expect(raw).toEqual([]);
  expect(snapshot.manifest.counts.raw).toBeUndefined();
  expect(snapshot.manifest.problems).toEqual([]);
}

describe('a crawl of a Weblate 5.4 server', () => {
  for (const [who, credentials] of [
    ['anonymously', undefined],
    ['with a token', token],
  ] as const) {
    it(`stores every component, translation and unit of one project (--project), ${who}, and ends complete`, async () => {
      await withServer(async (server) => {
        const proxy = await startCountingProxy(server.url);
        try {
          const content = await contentFolder();
          const result = await crawlReferenceServer(behind(server, proxy.url), content, { projects: ['hello'], token: credentials });
          expect(result.message).toBeUndefined();
          // Access limits only: complete (exit 0), not complete with problems (exit 3).
          expect(result.outcome).toBe('complete');
          expect(result.made).toBe(result.minimum);
          await expectWholeProject(await openSnapshot(content), server, 'hello', credentials);
          // The parents came from the lists' URLs: no component or translation was fetched on its own.
          expect(proxy.paths.filter((path) => /\/api\/(components\/[^/]+\/[^/]+|translations\/[^/]+\/[^/]+\/[^/]+)\/$/.test(path))).toEqual([]);
        } finally {
          await proxy.close();
        }
      });
    });

    it(`stores the whole instance, ${who}, and ends complete`, async () => {
      await withServer(async (server) => {
        const content = await contentFolder();
        const result = await crawlReferenceServer(server, content, { token: credentials });
        expect(result.message).toBeUndefined();
        expect(result.outcome).toBe('complete');
        expect(result.made).toBe(result.minimum);
        const snapshot = await openSnapshot(content);
        await expectWholeProject(snapshot, server, 'hello', credentials);
        // Users: every one the server lists, at users/<username>/, whatever fields it gives.
        const users = await served(`${server.url}users/`, credentials);
        expect((await snapshot.users()).map((entry) => entry.path).sort()).toEqual(users.map((user) => `api/users/${String(user.username)}/`).sort());
      });
    });

    it(`stores the same normalized records for a project in a scoped and a whole-instance crawl, ${who}`, async () => {
      await withServer(async (server) => {
        const whole = await contentFolder();
        await crawlReferenceServer(server, whole, { token: credentials });
        const scoped = await contentFolder();
        await crawlReferenceServer(server, scoped, { projects: ['hello'], token: credentials });
        const wholeSnapshot = await openSnapshot(whole);
        const scopedSnapshot = await openSnapshot(scoped);
        const compared = [...scopedSnapshot.paths()].filter(([path]) => /^api\/(projects|components|translations)\/hello\/|^api\/users\//.test(path));
        expect(compared.filter(([path]) => /^api\/components\/hello\/[^/]+\/$/.test(path)).length).toBeGreaterThan(0);
        expect(compared.filter(([path]) => /^api\/translations\/hello\/[^/]+\/[^/]+\/$/.test(path)).length).toBeGreaterThan(0);
        for (const [path, hash] of compared) expect(wholeSnapshot.paths().get(path), path).toBe(hash);
      });
    });
  }

  it('asks for a kind of resource once when the credentials may not read it, records it once as a limit of access, and ends complete', async () => {
    await withServer(async (server) => {
      // The first component repository/ is answered only after 15 more requests: a crawler that
      // did not wait for it would send its siblings meanwhile. (Many others share its phase, the
      // structure; translations' repository/ come in the history phase with little beside them.)
      const proxy = await startCountingProxy(server.url, { path: /\/api\/components\/[^/]+\/[^/]+\/repository\/$/, until: 15 });
      try {
        const content = await contentFolder();
        // A generous request timeout: on a loaded machine a 30 s one fired and its retry made `made` exceed `minimum`.
        const result = await crawlReferenceServer(behind(server, proxy.url), content, { concurrency: 16, timeoutMs: 300_000 });
        expect(result.message).toBeUndefined();
        expect(result.outcome).toBe('complete');
        const translations = (await openSnapshot(content)).manifest.counts.translation ?? 0;
        expect(translations).toBeGreaterThan(100);
        // Anonymous clients of a real server get 403 on every repository/: one request per kind of object, not one per object.
        const asked = (pattern: RegExp) => proxy.paths.filter((path) => pattern.test(path)).length;
        expect(asked(/\/api\/translations\/[^/]+\/[^/]+\/[^/]+\/repository\/$/)).toBe(1);
        expect(asked(/\/api\/components\/[^/]+\/[^/]+\/repository\/$/)).toBe(1);
        expect(asked(/\/api\/projects\/[^/]+\/repository\/$/)).toBe(1);
        const kinds = result.access.map((denied) => `${denied.kind} ${denied.status}`).sort();
        expect(kinds).toEqual(expect.arrayContaining(['components/*/*/repository/ 403', 'projects/*/repository/ 403', 'translations/*/*/*/repository/ 403']));
        expect(result.access.filter((denied) => denied.kind === 'translations/*/*/*/repository/')).toHaveLength(1);
        expect(result.problems).toEqual([]);
        const manifest = (await openSnapshot(content)).manifest;
        expect(manifest.access).toEqual(result.access);
        expect(manifest.problems).toEqual([]);
        // The requests it needs under these rules are the ones it made, and the report says where they went.
        expect(result.made).toBe(result.minimum);
        expect(proxy.paths.length).toBe(result.made);
        const byKind = Object.values(result.requestsByKind).reduce((sum, count) => sum + count.made, 0);
        expect(byKind).toBe(result.made);
        expect(result.requestsByKind.units?.made).toBeGreaterThan(0);
        expect(result.requestsByKind.statistics?.made).toBeGreaterThan(0);
      } finally {
        await proxy.close();
      }
    }, 'bundled');
    // A whole crawl of the bundled data: 45 s at load 25, 75 s at load 40 on 2 cores (measured 2026-11-22).
  }, 180_000);
});
