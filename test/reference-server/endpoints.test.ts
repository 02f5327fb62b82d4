import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  apiRoot,
  change,
  component,
  componentLock,
  language,
  notification,
  page,
  project,
  repositoryStatus,
  statistics,
  translation,
  translationInList,
  unit,
  user,
} from '../../api/index.ts';
import { checksumOf, unitHash } from '../../packages/reference-server/hash.ts';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { startTestServer, useReferenceServer } from '../helpers/reference-server.ts';
import { type Answer, get as anonymousGet } from './get.ts';

// A 5.4 server read with a token, as an admin reads it: every endpoint answers (anonymous
// clients get 403 on repository/ and 401 on memory/, profile-5.4.test.ts), and no test here
// spends the 100 requests a day an anonymous client has.
const TOKEN = 'wlu_endpoints';
const server = useReferenceServer({ behaviours: { tokens: [TOKEN], rateLimit: raisedRateLimit } });

function get(url: string, init: RequestInit = {}): Promise<Answer> {
  return anonymousGet(url, { ...init, headers: { Authorization: `Token ${TOKEN}`, ...init.headers } });
}

/** Items of a project's components/ leave out the project the list's URL names (docs/weblate-api.md, Nesting). */
const componentInList = component.omit({ project: true });

const READ_ONLY = 'GET, HEAD, OPTIONS';
const LIST_CREATE = 'GET, POST, HEAD, OPTIONS';
const DETAIL_EDIT = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';

/** Every endpoint of the description (and the facts file) on the fixture data: path, schema, Allow. */
const endpoints: [string, z.ZodType, string][] = [
  ['', apiRoot, READ_ONLY],
  ['languages/', page(language), LIST_CREATE],
  ['languages/cs/', language, DETAIL_EDIT],
  ['languages/cs/statistics/', statistics, READ_ONLY],
  ['projects/', page(project), LIST_CREATE],
  ['projects/hello/', project, DETAIL_EDIT],
  ['projects/hello/components/', page(componentInList), LIST_CREATE],
  ['projects/hello/repository/', repositoryStatus, LIST_CREATE],
  ['projects/hello/statistics/', statistics, READ_ONLY],
  ['projects/hello/changes/', page(change), READ_ONLY],
  ['projects/hello/languages/', z.array(statistics.extend({ code: z.string(), name: z.string() })), READ_ONLY],
  ['components/', page(component), READ_ONLY],
  ['components/hello/po/', component, DETAIL_EDIT],
  ['components/hello/po/repository/', repositoryStatus, LIST_CREATE],
  ['components/hello/po/translations/', page(translationInList), LIST_CREATE],
  ['components/hello/po/statistics/', page(statistics.extend({ code: z.string(), name: z.string() })), READ_ONLY],
  ['components/hello/po/lock/', componentLock, LIST_CREATE],
  ['components/hello/po/links/', page(project), LIST_CREATE],
  ['components/hello/po/changes/', page(change), READ_ONLY],
  ['translations/', page(translation), READ_ONLY],
  ['translations/hello/po/cs/', translation, 'GET, DELETE, HEAD, OPTIONS'],
  ['translations/hello/po/cs/repository/', repositoryStatus, LIST_CREATE],
  ['translations/hello/po/cs/statistics/', statistics.extend({ code: z.string(), last_author: z.string().nullable() }), READ_ONLY],
  ['translations/hello/po/cs/changes/', page(change), READ_ONLY],
  ['translations/hello/po/cs/units/', page(unit), LIST_CREATE],
  ['units/', page(unit), READ_ONLY],
  ['units/7/', unit, DETAIL_EDIT],
  ['units/1/translations/', z.array(unit), READ_ONLY],
  ['changes/', page(change), READ_ONLY],
  ['changes/5/', change, READ_ONLY],
  ['users/', page(user), LIST_CREATE],
  ['users/alice/', user, DETAIL_EDIT],
  ['users/alice/notifications/', page(notification), LIST_CREATE],
  ['users/alice/statistics/', z.looseObject({ translated: z.number().int(), languages: z.number().int() }), READ_ONLY],
  ['groups/', page(z.looseObject({ id: z.number().int(), name: z.string(), url: z.string() })), LIST_CREATE],
  ['roles/', page(z.looseObject({ id: z.number().int(), name: z.string(), url: z.string() })), LIST_CREATE],
  ['memory/', page(z.unknown()), LIST_CREATE],
  ['component-lists/', page(z.unknown()), LIST_CREATE],
  ['screenshots/', page(z.unknown()), LIST_CREATE],
  ['addons/', page(z.unknown()), READ_ONLY],
];

describe('every endpoint', () => {
  it.each(endpoints)('GET %s answers its schema as JSON with Vary and Allow', async (path, schema, allow) => {
    const answer = await get(`${server().url}${path}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('vary')).toBe('Accept');
    expect(answer.headers.get('allow')).toBe(allow);
    const parsed = schema.safeParse(answer.json);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('lists every collection in the API root, each answering 200', async () => {
    const root = apiRoot.parse((await get(server().url)).json);
    expect(Object.keys(root).sort()).toEqual([
      'addons',
      'categories',
      'changes',
      'component-lists',
      'components',
      'groups',
      'languages',
      'memory',
      'projects',
      'roles',
      'screenshots',
      'translations',
      'units',
      'users',
    ]);
    for (const link of Object.values(root).map(String)) expect((await get(link)).status, link).toBe(200);
  });

  it('leaves the embedded component out of a component translations list only', async () => {
    const list = page(translationInList).parse((await get(`${server().url}components/hello/po/translations/`)).json);
    expect(list.results.map((row) => row.language_code)).toEqual(['en', 'cs', 'ar']);
    for (const row of list.results) expect(row).not.toHaveProperty('component');
    const detail = translation.parse((await get(`${server().url}translations/hello/po/cs/`)).json);
    expect(detail.component.slug).toBe('po');
  });

  it("lists a string's target-language units as a plain array", async () => {
    const answer = await get(`${server().url}units/1/translations/`);
    expect(
      z
        .array(unit)
        .parse(answer.json)
        .map((row) => row.id),
    ).toEqual([7, 13]);
    expect(
      z
        .array(unit)
        .parse((await get(`${server().url}units/7/translations/`)).json)
        .map((row) => row.id),
    ).toEqual([7, 13]);
  });

  it('serves the project languages list as a plain array with one entry per language', async () => {
    const answer = await get(`${server().url}projects/hello/languages/`);
    expect(Array.isArray(answer.json)).toBe(true);
    expect((answer.json as { code: string }[]).map((entry) => entry.code)).toEqual(['ar', 'cs', 'en']);
  });
});

describe('records', () => {
  it('serves id_hash and content_hash as exact 64-bit JSON integers, with the web_url checksum', async () => {
    const answer = await get(`${server().url}translations/hello/po/cs/units/`);
    const units = page(unit).parse(answer.json).results;
    expect(units).toHaveLength(6);
    for (const row of units) {
      const expected = unitHash(row.source, row.context);
      expect(row.id_hash).toBe(expected);
      expect(row.content_hash).toBe(expected);
      expect(answer.text).toContain(`"id_hash":${expected}`);
      expect(row.web_url).toMatch(new RegExp(`\\?checksum=${checksumOf(expected)}$`));
    }
    // The fixture's hashes include some past 2^53, which a plain JSON.parse would round.
    expect(units.some((row) => row.id_hash > 2n ** 53n || row.id_hash < -(2n ** 53n))).toBe(true);
  });

  it('derives fuzzy, translated and approved from state', async () => {
    const units = page(unit).parse((await get(`${server().url}units/?page_size=100`)).json).results;
    const states = new Set(units.map((row) => row.state));
    expect([...states].sort((a, b) => a - b)).toEqual([0, 10, 20, 30, 100]);
    for (const row of units) {
      expect(row.fuzzy).toBe(row.state === 10);
      expect(row.translated).toBe(row.state >= 20);
      expect(row.approved).toBe(row.state === 30);
      expect(row.target.length).toBeGreaterThan(0);
      if (row.state === 0) expect(row.target.every((form) => form === '')).toBe(true);
    }
  });

  it('points a unit at its source unit, and a source unit at itself', async () => {
    const translated = unit.parse((await get(`${server().url}units/8/`)).json);
    const source = unit.parse((await get(translated.source_unit)).json);
    expect(source.url).toBe(source.source_unit);
    expect(source.source).toEqual(translated.source);
    expect(source.translation).toContain('/translations/hello/po/en/');
    expect(translated.target).toHaveLength(3);
  });

  it('counts translation statistics from the units', async () => {
    const cs = translation.parse((await get(`${server().url}translations/hello/po/cs/`)).json);
    expect([cs.total, cs.translated, cs.fuzzy, cs.failing_checks, cs.have_suggestion, cs.have_comment]).toEqual([6, 4, 1, 1, 1, 1]);
    expect(cs.translated_percent).toBe(66.7);
    expect(cs.last_change).toBe('2024-05-01T12:30:00.123456Z');
    expect(cs.last_author).toBe('Alice <Translator>');
    const stats = statistics.parse((await get(cs.statistics_url)).json);
    expect([stats.total, stats.translated, stats.fuzzy, stats.approved]).toEqual([6, 4, 1, 0]);
    const project = statistics.parse((await get(`${server().url}projects/hello/statistics/`)).json);
    // hello/po: en 6 + cs 6 + ar 6, hello/glossary: en 2 + cs 2.
    expect(project.total).toBe(22);
  });

  it('embeds project and component in a component-scoped notification only', async () => {
    const list = page(notification).parse((await get(`${server().url}users/alice/notifications/`)).json).results;
    expect(list.map((row) => [row.scope, row.project?.slug ?? null, row.component?.slug ?? null])).toEqual([
      [0, null, null],
      [10, null, null],
      [40, 'hello', 'po'],
    ]);
  });

  it('publishes only absolute links on its own origin that carry no format, and every one answers', async () => {
    const origin = server().origin;
    const seen = new Set<string>();
    const queue = [server().url];
    const links = (value: unknown): string[] => {
      if (typeof value === 'string') return value.startsWith(`${origin}/api/`) ? [value] : [];
      if (Array.isArray(value)) return value.flatMap(links);
      if (value && typeof value === 'object') return Object.values(value).flatMap(links);
      return [];
    };
    while (queue.length > 0) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const answer = await get(url);
      expect(answer.status, url).toBe(200);
      for (const link of links(answer.json)) {
        const parsed = new URL(link);
        expect(parsed.searchParams.get('format'), link).toBeNull();
        if (!seen.has(link)) queue.push(link);
      }
    }
    // Root, collections, 2 projects × 6, 3 components × 7, 7 translations × 6, 26 units, 10 changes, users…
    expect(seen.size).toBeGreaterThan(150);
  });
});

describe('errors', () => {
  it.each([
    'projects/nope/',
    'projects/nope/components/',
    'components/hello/nope/',
    'translations/hello/po/xx/',
    'translations/hello/po/xx/file/',
    'units/99999/',
    'units/abc/',
    'changes/99999/',
    'users/nobody/',
    'users/nobody/notifications/',
    'languages/xx/',
  ])('answers 404 {"detail":"Not found."} for a missing %s', async (path) => {
    const answer = await get(`${server().url}${path}`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.json).toEqual({ detail: 'Not found.' });
  });

  it('redirects a known path without its trailing slash, as Django does', async () => {
    const answer = await fetch(`${server().url}projects/hello?page=1`, { redirect: 'manual' });
    expect(answer.status).toBe(301);
    expect(answer.headers.get('location')).toBe('/api/projects/hello/?page=1');
  });

  it.each(['nope/', 'projects/hello/nope/', 'units/7/nope/', 'nope'])('answers an HTML 404 for the unknown path /api/%s', async (path) => {
    const answer = await get(`${server().url}${path}`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toContain('<h1>Not Found</h1>');
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses %s with 405 and still announces Allow', async (method) => {
    const answer = await get(`${server().url}units/7/`, { method, body: '{}', headers: { 'Content-Type': 'application/json' } });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe(DETAIL_EDIT);
    expect(answer.json).toEqual({ detail: `Method "${method}" not allowed.` });
    expect(server().model.unit(7)?.target).toEqual(['Ahoj světe!\n']);
  });

  it('answers HEAD with the GET headers and no body, OPTIONS with metadata', async () => {
    const head = await fetch(`${server().url}projects/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(100);
    expect(await head.text()).toBe('');
    const options = await get(`${server().url}projects/`, { method: 'OPTIONS' });
    expect(options.status).toBe(200);
    expect(options.headers.get('allow')).toBe(LIST_CREATE);
    expect(options.json).toMatchObject({ renders: ['application/json', 'text/html'] });
  });

  it('answers an unknown format with 404, as Django REST framework does', async () => {
    expect((await get(`${server().url}projects/?format=yaml`)).status).toBe(404);
    expect((await get(`${server().url}projects/?format=json`)).status).toBe(200);
  });
});

describe('slugs', () => {
  it('escapes a slug holding "/" (a category) as %252F and a hostile one safely, and serves both', async () => {
    const rows = fixtureRows();
    rows.components = rows.components.map((row) => (row.id === 1 ? { ...row, slug: 'cat/po' } : row.id === 2 ? { ...row, slug: '../x?y#z' } : row));
    const own = await startTestServer({ data: new MemoryModel(rows), behaviours: { tokens: [TOKEN], rateLimit: raisedRateLimit } });
    try {
      const list = page(componentInList).parse((await get(`${own.url}projects/hello/components/`)).json).results;
      expect(list.map((row) => row.url)).toEqual([`${own.url}components/hello/cat%252Fpo/`, `${own.url}components/hello/..%252Fx%3Fy%23z/`]);
      for (const row of list) {
        const detail = component.parse((await get(row.url)).json);
        expect(detail.id).toBe(row.id);
        const translations = page(translationInList).parse((await get(detail.translations_url)).json);
        expect(translations.count).toBeGreaterThan(0);
        for (const entry of translations.results) expect((await get(entry.units_list_url)).status).toBe(200);
      }
    } finally {
      await own.close();
    }
  });
});
