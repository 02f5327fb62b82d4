import { describe, expect, it } from 'vitest';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import type { ProfileName } from '../../packages/reference-server/profiles.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { withTestServer } from '../helpers/reference-server.ts';
import { get } from './get.ts';
import { type Row, TOKEN, changedFrom54, describeLaterProfile } from './rows.ts';

/**
 * What a read-only client meets on Weblate 2026.10.1 (packages/reference-server/README.md,
 * "Profiles"; measured, docs/decisions/2026-11-28-reference-vs-weblate-2026.md), one table as
 * profile-5.4.test.ts has it: each row holds on `weblate-2026` and fails on `weblate-5.4` unless
 * marked `alsoBefore`. Then what is announced and not released, on `weblate-2026.11-announced`.
 */

const url = expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/[^?]*$/);
const cursorLink = expect.stringMatching(/[?&]cursor=[^&]+/);
const anubis = [/id="anubis_challenge"/, /Making sure you&#39;re not a bot!/];
const emptyList = { count: 0, next: null, previous: null, results: [] };

const rows: Row[] = [
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
  { title: 'anonymous clients get JSON, no bot protection', path: 'projects/', auth: 'anonymous', contentType: 'application/json', alsoBefore: true },
  // Pagination: as 5.14, not the announced cursors
  {
    title: 'lists are numbered pages with a count',
    path: 'changes/?page_size=2',
    has: { count: expect.any(Number), next: expect.stringMatching(/[?&]page=2(&|$)/), previous: null },
    alsoBefore: true,
  },
  {
    title: "a project's languages are a bare array",
    path: 'projects/hello/languages/',
    has: { '0.code': 'ar' },
    lacks: ['count', 'results'],
    alsoBefore: true,
  },
  // Fields
  {
    title: 'projects: no set_language_team nor credits_url; workspace null, the new links, access control',
    path: 'projects/hello/',
    has: { workspace: null, metrics_url: url, reports_url: url, announcements_url: url, access_control: 0, public_sharing: false, use_shared_tm: true },
    lacks: ['set_language_team', 'credits_url', 'inherit_translation_review', 'effective_translation_review'],
  },
  { title: 'a private project: access_control 100', path: 'projects/secret/', has: { access_control: 100 } },
  {
    title: 'projects carry each setting with its inherit_/effective_ pair, none inherited',
    path: 'projects/hello/',
    has: {
      new_lang: 'add',
      inherit_new_lang: false,
      effective_new_lang: 'add',
      inherit_commit_message: false,
      effective_commit_message: expect.stringMatching(/^chore\(l10n\): update/),
      enforced_checks: [],
      effective_check_flags: '',
    },
  },
  {
    title: "components: the pairs, inherited where the project's value is theirs; no credits_url",
    path: 'components/hello/po/',
    has: {
      inherit_license: false,
      effective_license: 'GPL-3.0-or-later',
      inherit_secondary_language: true,
      effective_secondary_language: null,
      vcs_params: {},
      announcements_url: url,
      reports_url: url,
      push_on_update: false,
    },
    lacks: ['credits_url', 'inherit_enable_suggestions', 'effective_enable_suggestions'],
  },
  { title: 'translations link their announcements', path: 'translations/hello/po/cs/', has: { announcements_url: url } },
  {
    title: 'units: automatically_translated, the source in force, no parent translation',
    path: 'units/8/',
    has: { automatically_translated: false, state: 10, effective_source_language: 'en', translation_parent: null, tbx_terms: {}, screenshots_url: url },
  },
  { title: 'changes: the add-on and alert they are about', path: 'changes/?page_size=1', has: { 'results.0.addon': null, 'results.0.alert': null } },
  { title: 'users: a profile instead of languages', path: 'users/alice/', has: { 'profile.theme': 'auto', 'profile.languages': [] }, lacks: ['languages'] },
  {
    title: "a component's repository: pending units, commits in and out",
    path: 'components/hello/po/repository/',
    has: { 'pending_units.total': 0, outgoing_commits: 0, missing_commits: 0 },
  },
  {
    title: "a project's repository: its components, no commit of its own",
    path: 'projects/hello/repository/',
    has: { included_components: ['hello/glossary', 'hello/po'], weblate_commit: null, status: null },
  },
  // Endpoints
  {
    title: 'project metrics: component → language → figures',
    path: 'projects/hello/metrics/',
    has: {
      'po.cs.name': 'Czech',
      'po.cs.total': expect.any(Number),
      'po.cs.failing_chars': expect.any(Number),
      'po.cs.approved_chars_percent': expect.any(Number),
    },
    lacks: ['total', 'components', 'po.cs.untranslated', 'po.cs.url'],
  },
  { title: 'the root lists suggestions and reports', path: '', has: { suggestions: url, reports: url } },
  {
    title: "suggestions: SuggestionSerializer's fields",
    path: 'suggestions/',
    keys: { 'results.0': ['id', 'unit', 'target', 'user', 'timestamp', 'votes'] },
    has: {
      'results.0.unit': url,
      'results.0.user': url,
      'results.0.target': [expect.any(String)],
      'results.0.timestamp': expect.any(String),
      'results.0.votes': expect.any(Number),
    },
  },
  { title: 'a suggestion detail', path: 'suggestions/7/', has: { unit: expect.stringMatching(/\/api\/units\/7\/$/) } },
  { title: "a project's announcements", path: 'projects/hello/announcements/', has: emptyList, headers: { allow: 'GET, POST, HEAD, OPTIONS' } },
  { title: "a translation's announcements", path: 'translations/hello/po/cs/announcements/', has: emptyList },
  { title: 'reports, with a key', path: 'reports/', has: emptyList },
  {
    title: 'reports answer 401 to anonymous clients, before throttling',
    path: 'projects/hello/reports/',
    auth: 'anonymous',
    status: 401,
    has: { 'errors.0.code': 'not_authenticated' },
    headers: { 'www-authenticate': 'Token', 'x-ratelimit-limit': null },
  },
  {
    title: 'memory/ is read-only and refuses anonymous clients before throttling',
    path: 'memory/',
    auth: 'anonymous',
    status: 401,
    headers: { allow: 'GET, HEAD, OPTIONS', 'x-ratelimit-limit': null },
  },
  { title: 'no invented category: none on a model without categories', path: 'categories/', has: emptyList, alsoBefore: true },
  // Action codes
  { title: 'action= accepts codes up to 104', path: 'changes/?action=104', has: { results: [] } },
  { title: 'action= refuses a retired code', path: 'changes/?action=10', status: 400, has: { 'errors.0.attr': 'action' }, alsoBefore: true },
  { title: 'action= refuses codes past 104', path: 'changes/?action=105', status: 400, has: { 'errors.0.attr': 'action' }, alsoBefore: true },
];

describeLaterProfile('weblate-2026', 'weblate-2026 answers like Weblate 2026.10.1', rows);

/** Announced, not in 2026.10.1: each row holds on `weblate-2026.11-announced` and fails on `weblate-5.4`. */
const announced: Row[] = [
  { title: 'an anonymous list answers the bot-protection page', path: 'projects/', auth: 'anonymous', contentType: 'text/html; charset=utf-8', text: anubis },
  { title: 'so does the anonymous API root', path: '', auth: 'anonymous', contentType: 'text/html; charset=utf-8', text: anubis },
  { title: 'a client with a key gets JSON', path: 'projects/', contentType: 'application/json', has: { 'results.0.slug': 'hello' }, alsoBefore: true },
  {
    title: 'next carries a cursor, no page, and the list no count',
    path: 'changes/?page_size=2',
    has: { next: cursorLink, previous: null },
    lacks: ['count'],
    text: [/"next":"[^"]*cursor=/],
  },
  { title: 'a cursor the server did not write answers 404', path: 'changes/?cursor=bm9wZQ%3D%3D', status: 404, has: { 'errors.0.detail': 'Invalid cursor' } },
  { title: "a project's languages are a paginated envelope", path: 'projects/hello/languages/', has: { 'results.0.code': 'ar', next: null } },
];

describeLaterProfile('weblate-2026.11-announced', 'weblate-2026.11-announced answers as announced', announced);

describe('weblate-2026 beyond the table', () => {
  it("counts a user's recorded suggestions as their suggested, in statistics and profile (measured on 2026.10.1)", async () => {
    const base = fixtureRows();
    const unit = base.units[0]!;
    const suggestion = { unitId: unit.id, target: ['Hallo'], user: 'alice', timestamp: '2026-11-01T10:00:00Z', votes: 0 };
    const model = new MemoryModel({
      ...base,
      suggestions: [
        { id: 1, ...suggestion },
        { id: 2, ...suggestion, user: 'bob' },
        { id: 3, ...suggestion },
      ],
    });
    await withTestServer({ data: model, profile: 'weblate-2026', behaviours: { tokens: [TOKEN], rateLimit: raisedRateLimit } }, async (server) => {
      const headers = { Authorization: `Token ${TOKEN}` };
      expect((await get(`${server.url}users/alice/statistics/`, { headers })).json).toMatchObject({ suggested: 2 });
      expect((await get(`${server.url}users/alice/`, { headers })).json).toMatchObject({ profile: { suggested: 2 } });
      expect((await get(`${server.url}users/admin/statistics/`, { headers })).json).toMatchObject({ suggested: 0 });
    });
  });

  it('is 5.14 with the 2026.10.1 behaviours; the announced profile adds cursors, paged languages and bot protection', () => {
    expect(changedFrom54('weblate-2026')).toEqual(
      [
        'djangoPaths',
        'fields514',
        'hiddenUsers',
        'newUnitStates',
        'recentActions',
        'recentEndpoints',
        'recentFields',
        'statistics514',
        'strictAuthorization',
        'structuredErrors',
      ].sort(),
    );
    expect(changedFrom54('weblate-2026.11-announced').filter((name) => !changedFrom54('weblate-2026').includes(name))).toEqual(
      ['botChallenge', 'cursorPagination', 'pagedProjectLanguages'].sort(),
    );
  });

  it('with cursorPagination: lists every change once when next is followed to the end, never with a page number', () =>
    withTestServer({ profile: 'weblate-2026', behaviours: { tokens: [TOKEN], rateLimit: raisedRateLimit, cursorPagination: true } }, async (server) => {
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
    // Off, as on 2026.10.1: anonymous clients get JSON.
    await withTestServer({ profile: 'weblate-2026' }, async (server) => {
      expect((await get(`${server.url}projects/`)).json).toMatchObject({ results: [{ slug: 'hello' }] });
    });
  });

  it('shows units in states 11 and 12 and the automatically_translated flag; 5.4 shows them as 10', async () => {
    const rows = fixtureRows();
    const fuzzy = rows.units.find((unit) => unit.state === 10)!;
    rows.units.push({ ...fuzzy, id: 901, position: 901, state: 11, automaticallyTranslated: true }, { ...fuzzy, id: 902, position: 902, state: 12 });
    const unit = async (profile: ProfileName, id: number) =>
      withTestServer({ profile, data: new MemoryModel(rows) }, async (server) => (await get(`${server.url}units/${id}/`)).json);
    expect(await unit('weblate-2026', 901)).toMatchObject({ state: 11, fuzzy: true, translated: false, automatically_translated: true });
    expect(await unit('weblate-2026', 902)).toMatchObject({ state: 12, fuzzy: true, automatically_translated: false });
    const old = (await unit('weblate-5.4', 901)) as Record<string, unknown>;
    expect(old).toMatchObject({ state: 10, fuzzy: true });
    expect(old).not.toHaveProperty('automatically_translated');
  });
});
