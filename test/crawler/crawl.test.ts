import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CrawlOptions, type CrawlResult, crawl } from '../../crawler/crawl.ts';
import { parseApiRoot } from '../../crawler/links.ts';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import type { Behaviours } from '../../packages/reference-server/server.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { type ReferenceServer, withTestServer } from '../helpers/reference-server.ts';
import { expectExportMatchesServer, serverGet } from './compare.ts';
import { relayTo, startScriptedServer } from './scripted-server.ts';
import { crawlReferenceServer } from '../helpers/crawl.ts';
import { useTempFolders } from '../helpers/temp.ts';

const token = 'wlu_crawlTestToken_0123456789abcdef';
const contentFolder = useTempFolders('tmsnap-crawl-', 'all');

function crawlServer(server: ReferenceServer, contentDir: string, options: Partial<CrawlOptions> = {}): Promise<CrawlResult> {
  return crawlReferenceServer(server, contentDir, { timeoutMs: 5_000, retries: 8, maxWaitMs: 30_000, ...options });
}

function withServer<T>(behaviours: Behaviours, run: (server: ReferenceServer) => Promise<T>, data?: 'bundled' | MemoryModel): Promise<T> {
  return withTestServer({ behaviours, ...(data ? { data } : {}) }, run);
}

/** Every file under a folder, as text (for looking for the token). */
async function allText(folder: string): Promise<string> {
  const texts: string[] = [];
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) texts.push(await readFile(join(entry.parentPath, entry.name), 'utf8'));
  }
  return texts.join('\n');
}

describe('crawl of the fixture data', () => {
  it('makes a complete snapshot whose export is what the server serves, in the minimum of requests', async () => {
    await withServer({}, async (server) => {
      const content = await contentFolder();
      const result = await crawlServer(server, content);
      expect(result.outcome).toBe('complete');
      expect(result.problems).toEqual([]);
      expect(result.made).toBe(result.minimum);
      expect(server.requests).toBe(result.made);
      const compared = await expectExportMatchesServer(content, server.url);
      expect(compared.unit).toBeGreaterThan(0);
      expect(compared.change).toBeGreaterThan(0);
      expect(compared.file).toBe(compared.translation);
    });
  });

  // Each real-server behaviour in turn (weblate-api-facts.md). Legacy pagination (20 per
  // page) makes the small lists span pages, so page links are exercised too.
  const behaviours: [string, Behaviours, string?][] = [
    ['under a path prefix', { pathPrefix: '/weblate' }],
    ['next links on a foreign host', { pageLinkOrigin: 'https://proxy.invalid:8443', legacyPagination: true }],
    ['format=api answering HTML', { browsableApi: true }],
    ['changes newest first', { changesNewestFirst: true, legacyPagination: true }],
    ['a token required for the private project', { tokens: [token] }, token],
    ['rate limited with 429s', { rateLimit: { anonymous: 25, authenticated: 25, windowSeconds: 1 } }],
    ['5% 5xx and 5% dropped connections', { faults: { seed: 7, errorRate: 0.05, dropRate: 0.05 } }],
    ['the 5.10+ error format and legacy pagination', { structuredErrors: true, legacyPagination: true }],
  ];
  for (const [name, behaviour, withToken] of behaviours) {
    it(`matches the server ${name}`, async () => {
      await withServer(behaviour, async (server) => {
        const content = await contentFolder();
        const result = await crawlServer(server, content, { token: withToken });
        expect(result.message).toBeUndefined();
        expect(result.outcome).toBe('complete');
        await expectExportMatchesServer(content, server.url, withToken);
        if (behaviour.faults === undefined && behaviour.rateLimit === undefined) expect(result.made).toBe(result.minimum);
      });
    });
  }

  it('sees the private project with the token and not without, and never stores the token', async () => {
    await withServer({ tokens: [token] }, async (server) => {
      const withToken = await contentFolder();
      await crawlServer(server, withToken, { token });
      const anonymous = await contentFolder();
      await crawlServer(server, anonymous);
      const slugs = async (folder: string) => (await (await openSnapshot(folder)).projects()).map((entry) => entry.record.slug).sort();
      expect(await slugs(withToken)).toEqual(['hello', 'secret']);
      expect(await slugs(anonymous)).toEqual(['hello']);
      expect(await allText(withToken)).not.toContain(token);
    });
  });

  it('limits a crawl to --project and what hangs off it, in fewer requests', async () => {
    await withServer({}, async (server) => {
      const whole = await contentFolder();
      const everything = await crawlServer(server, whole);
      const scoped = await contentFolder();
      const result = await crawlServer(server, scoped, { projects: ['hello'] });
      expect(result.outcome).toBe('complete');
      expect(result.made).toBeLessThan(everything.made);
      const snapshot = await openSnapshot(scoped);
      expect((await snapshot.projects()).map((entry) => entry.record.slug)).toEqual(['hello']);
      const wholeSnapshot = await openSnapshot(whole);
      // What is in scope is stored exactly as in the whole crawl.
      for (const [path, hash] of snapshot.paths()) {
        if (!path.startsWith('api/users/')) expect(wholeSnapshot.paths().get(path), path).toBe(hash);
      }
      const helloTranslations = (await wholeSnapshot.translations()).filter((entry) => entry.path.startsWith('api/translations/hello/'));
      expect((await snapshot.translations()).length).toBe(helloTranslations.length);
      for (const { path } of helloTranslations) {
        expect(snapshot.paths().get(`${path}units/`), path).toBe(wholeSnapshot.paths().get(`${path}units/`));
      }
    });
  });

  it('leaves out changes before --changes-since', async () => {
    await withServer({ changesNewestFirst: true }, async (server) => {
      const { body } = await serverGet(`${server.url}changes/?page_size=1000`);
      const timestamps = (body as { results: { timestamp: string }[] }).results.map((change) => change.timestamp).sort();
      const since = timestamps[Math.floor(timestamps.length / 2)] ?? '';
      const content = await contentFolder();
      const result = await crawlServer(server, content, { changesSince: since });
      expect(result.outcome).toBe('complete');
      const ids: number[] = [];
      for await (const change of (await openSnapshot(content)).changes()) ids.push(change.id);
      const { body: expected } = await serverGet(`${server.url}changes/?page_size=1000&timestamp_after=${encodeURIComponent(since)}`);
      const expectedIds = (expected as { results: { id: number }[] }).results.map((change) => change.id).sort((a, b) => a - b);
      expect(ids).toEqual(expectedIds);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.length).toBeLessThan(timestamps.length);
    });
  });

  it('falls back to units per translation when the server ignores q', async () => {
    // With a token, so that /api/units/ without q holds the private project's units too.
    await withServer({ tokens: [token] }, async (server) => {
      const origin = new URL(server.url).origin;
      // A proxy that drops the query string of /api/units/, as servers without search do.
      const proxy = await startScriptedServer([
        relayTo(origin, {
          target: (url) => {
            if (url.pathname === '/api/units/') url.searchParams.delete('q');
          },
        }),
      ]);
      try {
        const content = await contentFolder();
        const result = await crawl({
          apiRoot: parseApiRoot(`${proxy.origin}api/`),
          contentDir: content,
          projects: ['hello'],
          concurrency: 2,
          timeoutMs: 5_000,
          retries: 2,
          maxWaitMs: 1_000,
          token,
          tmsnapVersion: '0.0.0-test',
          userAgent: 'tmsnap-test',
        });
        expect(result.outcome).toBe('complete');
        const snapshot = await openSnapshot(content);
        const translations = await snapshot.translations();
        let units = 0;
        for (const { path } of translations) units += (await snapshot.units(path)).length;
        expect(units).toBe(translations.reduce((sum, entry) => sum + entry.record.total, 0));
        expect(proxy.hits.filter((hit) => hit.url?.includes('/units/') && hit.url.includes('/translations/')).length).toBe(translations.length);
      } finally {
        await proxy.close();
      }
    });
  });

  it('keeps a record that does not fit the schema raw, reports it, and goes on', async () => {
    const rows = fixtureRows();
    const project = rows.projects[0];
    if (project === undefined) throw new Error('fixture without projects');
    (project as unknown as { source_review: unknown }).source_review = 'sometimes';
    // With a token: the other project (private) is the one whose records still fit.
    await withServer(
      { tokens: [token] },
      async (server) => {
        const content = await contentFolder();
        const result = await crawlServer(server, content, { token });
        expect(result.outcome).toBe('problems');
        expect(result.problems).toContainEqual(expect.objectContaining({ url: expect.stringContaining('/api/projects/hello/'), field: 'source_review' }));
        const snapshot = await openSnapshot(content);
        expect((await snapshot.translations()).length).toBeGreaterThan(0);
      },
      new MemoryModel(rows),
    );
  });

  it('spends the rate window, then stops with an estimate instead of hammering', async () => {
    await withServer({ rateLimit: { anonymous: 10, authenticated: 10, windowSeconds: 86_400 } }, async (server) => {
      const content = await contentFolder();
      // Concurrency 2: the crawl keeps that many slots for requests in flight (crawler/http/pacing.ts).
      const result = await crawlServer(server, content, { maxWaitMs: 60_000, concurrency: 2 });
      expect(result.outcome).toBe('failed');
      expect(result.message).toMatch(/more requests|requests remain/);
      expect(result.message).toContain('resume');
      // Polite: it stopped at the limit rather than collecting a pile of 429s; and it used the
      // window (less the slots in flight at concurrency 2) instead of leaving it for nothing.
      expect(server.requests).toBeLessThanOrEqual(10);
      expect(server.requests).toBeGreaterThanOrEqual(8);
      expect(result.dir).toMatch(/\.partial$/);
    });
  });
});

describe('crawl of the bundled data', () => {
  it('exports what the server serves, with a token and faults injected', async () => {
    // A token at raised limits: the bundled crawl takes about 900 requests (100 a day anonymous).
    await withServer(
      { tokens: [token], rateLimit: raisedRateLimit, faults: { seed: 3, errorRate: 0.05, dropRate: 0.05 } },
      async (server) => {
        const content = await contentFolder();
        const result = await crawlServer(server, content, { token });
        expect(result.message).toBeUndefined();
        expect(result.outcome).toBe('complete');
        expect(result.made).toBeGreaterThan(result.minimum);
        const compared = await expectExportMatchesServer(content, server.url, token);
        expect(compared.unit).toBeGreaterThan(20_000);
      },
      'bundled',
    );
  }, 600_000);
});
