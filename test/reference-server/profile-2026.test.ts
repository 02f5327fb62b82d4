import { describe, expect, it } from 'vitest';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import type { ProfileName } from '../../packages/reference-server/profiles.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { WORKSPACE_UUID } from '../../packages/reference-server/render.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { withTestServer } from '../helpers/reference-server.ts';
import { get } from './get.ts';
import { type Row, TOKEN, changedFrom54, describeLaterProfile } from './rows.ts';

/**
 * What a read-only client meets on the 2026 releases (packages/reference-server/README.md, "Profiles";
 * docs/weblate-api.md, "Weblate 2026"), one table as profile-5.4.test.ts has it: each row holds
 * on `weblate-2026` and fails on `weblate-5.4` unless marked `alsoBefore`. Rows ask with the
 * token unless they say otherwise: anonymous clients meet the bot protection.
 */

const url = expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/[^?]*$/);
const cursorLink = expect.stringMatching(/[?&]cursor=[^&]+/);
const anubis = [/id="anubis_challenge"/, /Making sure you&#39;re not a bot!/];
const statistics = { total: expect.any(Number), translated_percent: expect.any(Number) };

const rows: Row[] = [
  // Bot protection
  { title: 'an anonymous list answers the bot-protection page', path: 'projects/', auth: 'anonymous', contentType: 'text/html; charset=utf-8', text: anubis },
  { title: 'so does the anonymous API root', path: '', auth: 'anonymous', contentType: 'text/html; charset=utf-8', text: anubis },
  { title: 'a client with a key gets JSON', path: 'projects/', contentType: 'application/json', has: { 'results.0.slug': 'hello' }, alsoBefore: true },
  // Authorization
  {
    title: 'any scheme but Token or Bearer answers 401, even on a public endpoint',
    path: 'projects/',
    auth: 'basic',
    status: 401,
    has: { type: 'client_error', 'errors.0.code': 'authentication_failed' },
    headers: { 'www-authenticate': 'Token' },
  },
  { title: 'Bearer is accepted as Token is', path: 'projects/', auth: 'bearer', has: { 'results.0.slug': 'hello' }, alsoBefore: true },
  // Pagination
  {
    title: 'next carries a cursor, no page, and the list no count',
    path: 'changes/?page_size=2',
    has: { next: cursorLink, previous: null },
    lacks: ['count'],
    text: [/"next":"[^"]*cursor=/],
  },
  { title: 'a cursor the server did not write answers 404', path: 'changes/?cursor=bm9wZQ%3D%3D', status: 404, has: { 'errors.0.detail': 'Invalid cursor' } },
  { title: "a project's languages are a paginated envelope", path: 'projects/hello/languages/', has: { 'results.0.code': 'ar', next: null } },
  // Fields
  { title: 'projects name their workspace by UUID', path: 'projects/hello/', has: { workspace: WORKSPACE_UUID } },
  { title: 'projects link their metrics', path: 'projects/hello/', has: { metrics_url: url } },
  {
    title: 'projects carry inherit_/effective_ settings',
    path: 'projects/hello/',
    has: { inherit_translation_review: false, effective_translation_review: true },
  },
  {
    title: 'components carry inherit_/effective_ settings',
    path: 'components/hello/po/',
    has: { inherit_enable_suggestions: true, effective_enable_suggestions: true },
  },
  { title: 'units carry automatically_translated', path: 'units/8/', has: { automatically_translated: false, state: 10 } },
  // Endpoints
  {
    title: 'project metrics: its statistics, each component and each language in one request',
    path: 'projects/hello/metrics/',
    has: { ...statistics, 'components.0.slug': 'po', 'components.0.total': expect.any(Number), 'languages.0.code': 'ar' },
  },
  { title: 'the root lists suggestions', path: '', has: { suggestions: url, categories: url } },
  {
    title: 'suggestions: unit, user, target, timestamp',
    path: 'suggestions/',
    keys: { 'results.0': ['id', 'unit', 'user', 'target', 'timestamp', 'url'] },
    has: { 'results.0.unit': url, 'results.0.user': url, 'results.0.target': [expect.any(String)], 'results.0.timestamp': expect.any(String) },
  },
  { title: 'a suggestion detail', path: 'suggestions/7/', has: { unit: expect.stringMatching(/\/api\/units\/7\/$/) } },
  { title: 'categories list one per project', path: 'categories/', has: { 'results.0.project': url, 'results.0.slug': 'general', 'results.0.url': url } },
  { title: "a project's categories", path: 'projects/hello/categories/', has: { 'results.0.name': 'General' } },
  // Action codes
  { title: 'action= accepts codes up to 104', path: 'changes/?action=104', has: { results: [] } },
  { title: 'action= refuses a retired code', path: 'changes/?action=10', status: 400, has: { 'errors.0.attr': 'action' }, alsoBefore: true },
  { title: 'action= refuses codes past 104', path: 'changes/?action=105', status: 400, has: { 'errors.0.attr': 'action' }, alsoBefore: true },
];

describeLaterProfile('weblate-2026', 'weblate-2026 answers like the 2026 releases', rows);

describe('weblate-2026 beyond the table', () => {
  it('is 5.4 with 5.10 errors and the 2026 behaviours', () => {
    expect(changedFrom54('weblate-2026')).toEqual(
      [
        'botChallenge',
        'cursorPagination',
        'newUnitStates',
        'pagedProjectLanguages',
        'recentActions',
        'recentEndpoints',
        'recentFields',
        'strictAuthorization',
        'structuredErrors',
      ].sort(),
    );
  });

  it('lists every change once when next is followed to the end, never with a page number', () =>
    withTestServer({ profile: 'weblate-2026', behaviours: { tokens: [TOKEN], rateLimit: raisedRateLimit } }, async (server) => {
      const headers = { Authorization: `Token ${TOKEN}` };
      const all = (await get(`${server.url}changes/?page_size=1000`, { headers })).json as { results: { id: number }[]; next: null };
      expect(all.next).toBeNull();
      const ids: number[] = [];
      let next: string | null = `${server.url}changes/?page_size=3`;
      while (next !== null) {
        expect(new URL(next).searchParams.has('page')).toBe(false);
        const page = (await get(next, { headers })).json as { results: { id: number }[]; next: string | null };
        ids.push(...page.results.map((change) => change.id));
        next = page.next;
      }
      expect(ids).toEqual(all.results.map((change) => change.id));
      expect(ids.length).toBeGreaterThan(3);
    }));

  it('challenges anonymous clients only after the first `after` requests, on any status asked for, Cloudflare with its header', async () => {
    await withTestServer(
      { profile: 'weblate-2026', behaviours: { botChallenge: { page: 'anubis', status: 429, after: 2 }, rateLimit: raisedRateLimit } },
      async (server) => {
        expect((await get(`${server.url}projects/`)).status).toBe(200);
        expect((await get(`${server.url}projects/`)).headers.get('content-type')).toBe('application/json');
        const third = await get(`${server.url}projects/`);
        expect([third.status, third.headers.get('content-type')]).toEqual([429, 'text/html; charset=utf-8']);
      },
    );
    await withTestServer({ profile: 'weblate-2026', behaviours: { botChallenge: { page: 'cloudflare', status: 403, after: 0 } } }, async (server) => {
      const answer = await get(`${server.url}projects/`);
      expect([answer.status, answer.headers.get('cf-mitigated')]).toEqual([403, 'challenge']);
      expect(answer.text).toContain('/cdn-cgi/challenge-platform/');
    });
    // Off: anonymous clients get JSON.
    await withTestServer({ profile: 'weblate-2026', behaviours: { botChallenge: null } }, async (server) => {
      expect((await get(`${server.url}projects/`)).json).toMatchObject({ results: [{ slug: 'hello' }] });
    });
  });

  it('shows units in states 11 and 12 and the automatically_translated flag; 5.4 shows them as 10', async () => {
    const rows = fixtureRows();
    const fuzzy = rows.units.find((unit) => unit.state === 10)!;
    rows.units.push({ ...fuzzy, id: 901, position: 901, state: 11, automaticallyTranslated: true }, { ...fuzzy, id: 902, position: 902, state: 12 });
    const unit = async (profile: ProfileName, id: number) =>
      withTestServer(
        { profile, data: new MemoryModel(rows), behaviours: { botChallenge: null } },
        async (server) => (await get(`${server.url}units/${id}/`)).json,
      );
    expect(await unit('weblate-2026', 901)).toMatchObject({ state: 11, fuzzy: true, translated: false, automatically_translated: true });
    expect(await unit('weblate-2026', 902)).toMatchObject({ state: 12, fuzzy: true, automatically_translated: false });
    const old = (await unit('weblate-5.4', 901)) as Record<string, unknown>;
    expect(old).toMatchObject({ state: 10, fuzzy: true });
    expect(old).not.toHaveProperty('automatically_translated');
  });
});
