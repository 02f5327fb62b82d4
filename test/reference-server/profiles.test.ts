import { describe, expect, it } from 'vitest';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import { DEFAULT_PROFILE, profiles } from '../../packages/reference-server/profiles.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { startReferenceServer } from '../../packages/reference-server/server.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { fixtureModel, withTestServer } from '../helpers/reference-server.ts';
import { get } from './get.ts';

/**
 * The profiles beside the 5.4 shapes of profile-5.4.test.ts: the server's own default, the
 * behaviours that need a clock, a mutation or many units, and what 4.15 and 5.10 do differently.
 */

const token = { Authorization: 'Token wlu_admin' };

describe('the default profile', () => {
  it('is weblate-5.4 when startReferenceServer is given none', async () => {
    expect(DEFAULT_PROFILE).toBe('weblate-5.4');
    const server = await startReferenceServer({ model: fixtureModel(), host: '127.0.0.1', port: 0 });
    try {
      const users = await get(`${server.url}users/`);
      expect(Object.keys((users.json as { results: object[] }).results[0]!).sort()).toEqual(['full_name', 'id', 'username']);
      expect(users.headers.get('x-ratelimit-limit')).toBe('100');
    } finally {
      await server.close();
    }
  });

  it('hides private projects from every client when no token is configured, where ideal shows them', async () => {
    await withTestServer({ profile: 'weblate-5.4' }, async (server) => {
      expect((await get(`${server.url}projects/secret/`)).status).toBe(404);
    });
    await withTestServer({ profile: 'ideal' }, async (server) => {
      expect((await get(`${server.url}projects/secret/`)).status).toBe(200);
    });
  });

  it("lets a caller's own options override the profile", () =>
    withTestServer({ profile: 'weblate-5.4', behaviours: { changesNewestFirst: false, rateLimit: raisedRateLimit } }, async (server) => {
      const answer = await get(`${server.url}changes/?page_size=1`);
      expect((answer.json as { results: { id: number }[] }).results[0]!.id).toBe(1);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('1000000');
    }));
});

describe('throttling on weblate-5.4', () => {
  it('allows 100 anonymous requests a day, then 429 with Retry-After up to a day', async () => {
    const now = 1_700_000_000_000;
    await withTestServer({ profile: 'weblate-5.4', now: () => now }, async (server) => {
      for (let i = 0; i < 100; i++) {
        const answer = await get(`${server.url}${i % 2 ? 'projects/' : 'projects/nope/'}`);
        expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(99 - i));
      }
      const refused = await get(`${server.url}projects/`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('86400');
      expect(refused.json).toEqual({ detail: 'Request was throttled. Expected available in 86400 seconds.' });
    });
  });

  it('allows 5000 requests an hour with a token', () =>
    withTestServer({ profile: 'weblate-5.4', behaviours: { tokens: ['wlu_admin'] } }, async (server) => {
      const answer = await get(`${server.url}projects/`, { headers: token });
      expect([answer.headers.get('x-ratelimit-limit'), answer.headers.get('x-ratelimit-remaining')]).toEqual(['5000', '4999']);
      expect(Number(answer.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(3600);
    }));
});

describe('unit pages on weblate-5.4', () => {
  const rows = fixtureRows();
  const template = rows.units.find((row) => row.id === 7)!;
  for (let i = 0; i < 1_200; i++) rows.units.push({ ...template, id: 1000 + i, position: 100 + i, source: [`String ${i}`], target: [`Řetězec ${i}`] });

  it("pages a translation's units 50 by default and at most 1000; /api/units/ up to 10000", () =>
    withTestServer({ profile: 'weblate-5.4', data: new MemoryModel(rows), behaviours: { rateLimit: raisedRateLimit } }, async (server) => {
      const size = async (path: string) => ((await get(`${server.url}${path}`)).json as { results: unknown[] }).results.length;
      expect(await size('translations/hello/po/cs/units/')).toBe(50);
      expect(await size('translations/hello/po/cs/units/?page_size=5000')).toBe(1000);
      const all = (await get(`${server.url}units/?page_size=5000`)).json as { count: number; results: unknown[] };
      expect(all.count).toBeGreaterThan(1000);
      expect(all.results).toHaveLength(all.count);
    }));
});

describe('a download commits pending edits on weblate-5.4', () => {
  it("records 'Changes committed' and moves every translation's repository to the new commit", () =>
    withTestServer(
      {
        profile: 'weblate-5.4',
        clock: () => new Date(Date.UTC(2024, 5, 1)),
        behaviours: { tokens: ['wlu_admin'], activity: true, rateLimit: raisedRateLimit },
      },
      async (server) => {
        const repository = async (path: string) =>
          ((await get(`${server.url}${path}repository/`, { headers: token })).json as { weblate_commit: { revision: string } }).weblate_commit;
        const before = await repository('translations/hello/po/cs/');
        const translated = await get(`${server.origin}/_activity/translate`, {
          method: 'POST',
          body: JSON.stringify({ unit: 10, target: ['Otevřený'], user: 'alice' }),
        });
        expect(translated.status).toBe(200);
        expect(((await get(`${server.url}units/10/`, { headers: token })).json as { pending: boolean }).pending).toBe(true);

        expect((await get(`${server.url}translations/hello/po/cs/file/`, { headers: token })).status).toBe(200);
        const newest = (await get(`${server.url}translations/hello/po/cs/changes/?page_size=1`, { headers: token })).json as {
          results: { action: number; action_name: string; user: null }[];
        };
        expect(newest.results[0]).toMatchObject({ action: 17, action_name: 'Changes committed', user: null });
        expect(((await get(`${server.url}units/10/`, { headers: token })).json as { pending: boolean }).pending).toBe(false);

        const after = await repository('translations/hello/po/cs/');
        expect(after.revision).not.toBe(before.revision);
        expect(after).toMatchObject({ author_name: 'Alice <Translator>', summary: 'Translated using Weblate (Czech)' });
        // The component's repository, seen from any of its translations.
        expect(await repository('translations/hello/po/ar/')).toEqual(after);
        expect(await repository('components/hello/po/')).toEqual(after);
        // Nothing pending: a second download commits nothing.
        await get(`${server.url}translations/hello/po/cs/file/`, { headers: token });
        const again = (await get(`${server.url}translations/hello/po/cs/changes/?action=17`, { headers: token })).json as { count: number };
        expect(again.count).toBe(1);
      },
    ));
});

describe('weblate-4.15', () => {
  it('is 5.4 with 20 per page and page_size ignored', () =>
    withTestServer({ profile: 'weblate-4.15', behaviours: { rateLimit: raisedRateLimit } }, async (server) => {
      const rows = fixtureRows();
      expect(profiles['weblate-4.15']).toEqual({ ...profiles['weblate-5.4'], legacyPagination: true });
      const units = (await get(`${server.url}units/?page_size=5`)).json as { count: number; results: unknown[] };
      expect(units.results).toHaveLength(Math.min(20, rows.units.length));
      const error = await get(`${server.url}changes/?timestamp_before=never`);
      expect([error.status, error.json]).toEqual([400, { timestamp: ['Enter a valid date/time.'] }]);
      expect((await get(`${server.url}projects/nope/`)).json).toEqual({ detail: 'Not found.' });
    }));
});

describe('weblate-5.10', () => {
  it('is 5.4 with structured errors, a validation error naming its field', () =>
    withTestServer({ profile: 'weblate-5.10', behaviours: { rateLimit: raisedRateLimit } }, async (server) => {
      expect(profiles['weblate-5.10']).toEqual({ ...profiles['weblate-5.4'], structuredErrors: true });
      expect((await get(`${server.url}projects/nope/`)).json).toEqual({
        type: 'client_error',
        errors: [{ code: 'not_found', detail: 'Not found.', attr: null }],
      });
      expect((await get(`${server.url}changes/?timestamp_after=yesterday`)).json).toEqual({
        type: 'validation_error',
        errors: [{ code: 'invalid', detail: 'Enter a valid date/time.', attr: 'timestamp' }],
      });
      expect((await get(`${server.url}memory/`)).json).toEqual({
        type: 'client_error',
        errors: [{ code: 'not_authenticated', detail: 'Authentication credentials were not provided.', attr: null }],
      });
    }));
});

describe('ideal', () => {
  it("answers today's tidy server: everything off", () => {
    expect(Object.entries(profiles.ideal).filter(([, value]) => value !== false && value !== undefined && value !== null)).toEqual([]);
  });
});
