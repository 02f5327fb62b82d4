import { describe, expect, it } from 'vitest';
import { resourcePattern } from '../../crawler/access.ts';
import { loadDataset } from '../../packages/reference-server/datasets.ts';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import type { Model } from '../../packages/reference-server/model.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { translationPath } from '../archive/activity.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { crawlReferenceServer } from '../helpers/crawl.ts';
import { type ReferenceServer, startTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { type CountingProxy, startCountingProxy } from './counting-proxy.ts';
import { relayTo, startScriptedServer } from './scripted-server.ts';

/**
 * Issue 11, measured on a real Weblate 5.4.2: a real server lists every language it knows (652),
 * nearly all without a translation, and a crawl spent 652 of its 757 requests on their
 * statistics. Here on the reference server's default profile with a real-size language list
 * (packages/reference-server/all-languages.ts), requests counted at the server by kind (docs/crawl.md).
 */

const token = 'wlu_issue11';
const folder = useTempFolders('tmsnap-issue-11-');
/** The issue's instance: one project, 3 components, 7 languages (21 translations), and every language Weblate knows. */
const small = 'synthetic:projects=1,components=3,languages=6,units=600,seed=11,all-languages';

async function behindProxy<T>(server: ReferenceServer, run: (proxy: CountingProxy) => Promise<T>): Promise<T> {
  const proxy = await startCountingProxy(server.url);
  try {
    return await run(proxy);
  } finally {
    await proxy.close();
  }
}

/** Requests by kind of resource, e.g. `languages/*​/statistics/`. */
function byKind(proxy: CountingProxy): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const path of proxy.paths) {
    const kind = resourcePattern(path.replace(/^\/api\//, ''));
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return kinds;
}

/** Kinds that are lists: the collections, and the lists below a project or a component. */
const listKinds = /^([a-z-]+\/|projects\/\*\/(languages|categories|labels|components|changes)\/|components\/\*\/\*\/(links|statistics|translations)\/)$/;

function usedLanguages(model: Model): string[] {
  return [...new Set(model.translations().map((row) => row.languageCode))].sort();
}

describe('a real-size language list', () => {
  it('lists 652 languages, the used ones among them', async () => {
    const model = await loadDataset(small);
    expect(model.languages()).toHaveLength(652);
    expect(new Set(model.languages().map((row) => row.code)).size).toBe(652);
    expect(usedLanguages(model)).toHaveLength(7);
    for (const code of usedLanguages(model)) expect(model.languages().some((row) => row.code === code)).toBe(true);
  });

  it('whole instance with a token: the languages in one list, statistics only of the 7 in use, the others named in the manifest', async () => {
    const model = await loadDataset(small);
    const server = await startTestServer({ data: model, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
    try {
      await behindProxy(server, async (proxy) => {
        const content = await folder();
        const result = await crawlReferenceServer({ ...server, url: proxy.url }, content, { token });
        expect(result.outcome).toBe('complete');
        const kinds = byKind(proxy);
        expect(kinds.get('languages/')).toBe(1);
        expect(kinds.get('languages/*/statistics/')).toBe(7);
        // Per translation: its file and repository/; its statistics/ come in its component's list.
        const translations = model.translations().length;
        expect(translations).toBe(21);
        for (const kind of ['translations/*/*/*/file/', 'translations/*/*/*/repository/']) expect(kinds.get(kind), kind).toBe(translations);
        expect(kinds.get('translations/*/*/*/statistics/')).toBeUndefined();
        expect(kinds.get('components/*/*/statistics/')).toBe(3);
        // Issue 11's bar: at most 1.2 × translations × 3 + lists. Users cost 2 each besides
        // (notifications/, statistics/): 29 on this synthetic instance, a few on the issue's.
        const lists = [...kinds].filter(([kind]) => listKinds.test(kind)).reduce((sum, [, n]) => sum + n, 0);
        const users = model.users().length;
        expect(kinds.get('users/*/notifications/')).toBe(users);
        expect(kinds.get('users/*/statistics/')).toBe(users);
        expect(proxy.paths.length - lists - 2 * users).toBeLessThanOrEqual(1.2 * translations * 3);
        // Every request is counted, by kind, as the server saw it.
        expect(result.made).toBe(proxy.paths.length);
        expect(result.minimum).toBe(result.made);
        expect(result.requestsByKind.statistics?.made).toBe([...kinds].filter(([kind]) => kind.endsWith('/statistics/')).reduce((sum, [, n]) => sum + n, 0));
        const snapshot = await openSnapshot(content);
        expect(await snapshot.languages()).toHaveLength(652);
        const skipped = snapshot.manifest.skipped ?? [];
        expect(skipped.map((entry) => entry.kind)).toEqual(['languages/*/statistics/']);
        expect(skipped[0]?.urls).toHaveLength(645);
        expect(skipped[0]?.reason).toMatch(/no translation/);
        for (const code of usedLanguages(model)) expect(snapshot.paths().has(`api/languages/${encodeURIComponent(code)}/statistics/`), code).toBe(true);
        expect(skipped[0]?.urls.every((url) => !snapshot.paths().has(url.slice(url.indexOf('api/'))))).toBe(true);
      });
    } finally {
      await server.close();
    }
  });

  it('one project, anonymous, at 5.4 limits (100 requests a day): complete, with room to spare', async () => {
    const model = await loadDataset(small);
    const server = await startTestServer({ data: model });
    try {
      await behindProxy(server, async (proxy) => {
        const content = await folder();
        const result = await crawlReferenceServer({ ...server, url: proxy.url }, content, { projects: [model.projects()[0]!.slug] });
        expect(result.message).toBeUndefined();
        expect(result.outcome).toBe('complete');
        expect(byKind(proxy).get('languages/*/statistics/')).toBeUndefined();
        expect(proxy.paths.length).toBe(result.made);
        // 21 files, 19 users named by changes, 3 × 1 denied repository/ kinds, lists…: 65.
        expect(result.made).toBeLessThanOrEqual(75);
      });
    } finally {
      await server.close();
    }
  });
});

/** /api/units/ pages of 8 units: a removal between two pages shifts the later ones. */
function eightUnitsAPage(url: URL): void {
  if (url.pathname === '/api/units/') url.searchParams.set('page_size', '8');
}

describe('a string removed between two pages of units', () => {
  it('fetches the translations whose unit count differs from their total again, and ends complete', async () => {
    const model = new MemoryModel(fixtureRows());
    const server = await startTestServer({ data: model, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
    const origin = new URL(server.url).origin;
    let removed = false;
    // A server whose /api/units/ pages hold 8 units; after the first page, a string whose
    // units sit on it is removed, so every later page shifts by one per translation it had.
    const proxy = await startScriptedServer([
      relayTo(origin, {
        target: eightUnitsAPage,
        text: (text, url) => {
          if (url.pathname === '/api/units/' && !url.searchParams.has('page') && !removed) {
            removed = true;
            model.removeString(1, 'admin');
          }
          return text;
        },
      }),
    ]);
    try {
      const content = await folder();
      const result = await crawlReferenceServer({ ...server, url: `${proxy.origin}api/` }, content, { token });
      expect(removed).toBe(true);
      expect(result.problems).toEqual([]);
      expect(result.outcome).toBe('complete');
      const again = proxy.hits.filter((hit) => /\/api\/translations\/[^/]+\/[^/]+\/[^/]+\/units\//.test(hit.url ?? ''));
      expect(again.length).toBeGreaterThan(0);
      // Every translation holds as many units as its record says; those fetched again, exactly the
      // server's units now. (hello/po/en's first page held all 6 of its units before the removal:
      // its record, read before too, agrees, so nothing says it changed until the next crawl.)
      const snapshot = await openSnapshot(content);
      const stored = new Map((await snapshot.translations()).map((entry) => [entry.path, entry.record.total]));
      expect(stored.size).toBe(model.translations().length);
      const fetchedAgain = new Set(again.map((hit) => new URL(hit.url ?? '', proxy.origin).pathname.replace(/^\/api\/(.*)units\/$/, 'api/$1')));
      expect([...fetchedAgain].sort()).toEqual(['api/translations/hello/po/ar/', 'api/translations/hello/po/cs/']);
      for (const row of model.translations()) {
        const path = translationPath(model, row.id);
        const ids = (await snapshot.units(path)).map((unit) => unit.id).sort((a, b) => a - b);
        expect(stored.get(path), path).toBe(ids.length);
        if (fetchedAgain.has(path)) expect(ids, path).toEqual(model.units(row.id, 0, model.unitCount(row.id)).map((unit) => unit.id));
      }
    } finally {
      await proxy.close();
      await server.close();
    }
  });

  it('says so in the manifest (exit 3) when the count still differs after the second fetch', async () => {
    const model = new MemoryModel(fixtureRows());
    const server = await startTestServer({ data: model, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
    const origin = new URL(server.url).origin;
    // This server drops one unit from hello/po/cs's own units/ list, every time.
    const proxy = await startScriptedServer([
      relayTo(origin, {
        target: eightUnitsAPage,
        text: (text, url) => {
          if (url.pathname !== '/api/units/' && url.pathname !== '/api/translations/hello/po/cs/units/') return text;
          const list = JSON.parse(text) as { results: { translation: string }[] };
          const index = list.results.findIndex((unit) => unit.translation.includes('/translations/hello/po/cs/'));
          if (index >= 0) list.results.splice(index, 1);
          return JSON.stringify(list);
        },
      }),
    ]);
    try {
      const content = await folder();
      const result = await crawlReferenceServer({ ...server, url: `${proxy.origin}api/` }, content, { token });
      expect(result.outcome).toBe('problems');
      expect(result.problems).toContainEqual(expect.objectContaining({ url: `${proxy.origin}api/translations/hello/po/cs/units/`, field: 'total' }));
      expect(result.problems).toHaveLength(1);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});
