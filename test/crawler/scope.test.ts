/**
 * Issue 24, "Scope": a `--project` crawl stores the projects asked for, their components and
 * translations, and no other. Users' notification subscriptions embed projects and components
 * of the whole server; those outside the scope stay embedded in the subscriptions record (the
 * server's record comes back whole from `tmsnap export`) instead of becoming records of their
 * own (docs/crawl.md, "Scope"). The site's side is test/site/scope.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { CrawlScope } from '../../crawler/scope.ts';
import { exportRecords, openSnapshot } from '../../snapshot/index.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { withTestServer } from '../helpers/reference-server.ts';
import { useContentFolders } from '../helpers/temp.ts';

const contentFolder = useContentFolders('tmsnap-scope-');
const token = 'scope-test';

describe('a one-project crawl', () => {
  it('stores no project, component or translation of another project, and keeps the subscriptions that name them whole', async () => {
    const content = await contentFolder();
    await withTestServer({ behaviours: { tokens: [token] } }, async (server) => {
      // alice edited `secret` (so the crawl reads her) and subscribes to `hello/po`.
      await crawlComplete(server, content, { projects: ['secret'], token });
      const snapshot = await openSnapshot(content);
      expect((await snapshot.projects()).map(({ path }) => path)).toEqual(['api/projects/secret/']);
      expect((await snapshot.components()).map(({ path }) => path)).toEqual(['api/components/secret/app/']);
      expect((await snapshot.translations()).every(({ path }) => path.startsWith('api/translations/secret/'))).toBe(true);
      expect([...snapshot.paths().keys()].filter((path) => path.includes('/hello/'))).toEqual([]);

      const subscriptions = await snapshot.notifications('api/users/alice/');
      expect(subscriptions.find((item) => item.component !== null)?.component).toMatchObject({ slug: 'po', project: { slug: 'hello' } });
      const served = await fetch(new URL('users/alice/notifications/?page_size=1000', server.url), { headers: { authorization: `Token ${token}` } });
      let exported: unknown;
      for await (const line of exportRecords(snapshot)) if (line.url.endsWith('/users/alice/notifications/') && 'record' in line) exported = line.record;
      expect(exported).toEqual(await served.json());
    });
  });

  it('of humanize on the bundled server stores humanize alone (the issue’s own case)', async () => {
    const content = await contentFolder();
    await withTestServer({ data: 'bundled', behaviours: { tokens: [token] } }, async (server) => {
      await crawlComplete(server, content, { projects: ['humanize'], token });
    });
    const snapshot = await openSnapshot(content);
    expect((await snapshot.projects()).map(({ path }) => path)).toEqual(['api/projects/humanize/']);
    expect((await snapshot.components()).map(({ path }) => path)).toEqual(['api/components/humanize/humanize/']);
    // Its translators subscribe to Django's components: the crawl read those subscriptions.
    const users = (await snapshot.users()).map(({ path }) => path);
    const subscriptions = (await Promise.all(users.map((user) => snapshot.notifications(user)))).flat();
    expect(subscriptions.some((item) => typeof item.component === 'object' && item.component?.slug !== 'humanize')).toBe(true);
  }, 120_000);

  it('holds the objects of its projects and those of no project', () => {
    const scope = new CrawlScope(['secret'], undefined);
    expect(['projects/secret/', 'components/secret/app/', 'translations/secret/app/cs/'].map((path) => scope.holds(path))).toEqual([true, true, true]);
    expect(['projects/hello/', 'components/hello/po/', 'translations/hello/po/cs/'].map((path) => scope.holds(path))).toEqual([false, false, false]);
    expect(['languages/cs/', 'users/alice/', ''].map((path) => scope.holds(path))).toEqual([true, true, true]);
    expect(new CrawlScope([], undefined).holds('projects/hello/')).toBe(true);
  });
});
