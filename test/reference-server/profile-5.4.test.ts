import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileName } from '../../packages/reference-server/profiles.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { type ReferenceServer, startTestServer } from '../helpers/reference-server.ts';
import { type Row, TOKEN, check, request } from './rows.ts';

/**
 * What a real Weblate 5.4.2 answers (packages/reference-server/README.md, "Profiles"), as one table of
 * {path, auth, expect}: each row is checked against the default profile, and against `ideal`,
 * where it must fail unless marked `alsoIdeal` (so every row can fail, and each one names a
 * difference the crawler has to take).
 */

const url = expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/[^?]*$/);
const noFormat = expect.stringMatching(/^http:\/\/[^?]+$/);
const throttled = { 'x-ratelimit-limit': /^\d+$/, 'x-ratelimit-remaining': /^\d+$/, 'x-ratelimit-reset': /^\d+$/ };
const commit = {
  revision: expect.stringMatching(/^[0-9a-f]{40}$/),
  shortrevision: expect.stringMatching(/^[0-9a-f]{7}$/),
  author: expect.any(String),
  author_email: expect.any(String),
  author_name: expect.any(String),
  authordate: expect.any(String),
  commit: expect.any(String),
  commit_email: expect.any(String),
  commit_name: expect.any(String),
  commitdate: expect.any(String),
  message: expect.any(String),
  summary: expect.any(String),
};
const charStatistics = [
  'total_chars',
  'translated_chars',
  'translated_chars_percent',
  'fuzzy_chars',
  'fuzzy_chars_percent',
  'fuzzy_words_percent',
  'approved_chars',
  'approved_chars_percent',
  'approved_words_percent',
  'readonly_chars',
  'readonly_chars_percent',
  'readonly_words_percent',
];
const forbidden = { detail: 'You do not have permission to perform this action.' };

const rows: Row[] = [
  // Nesting
  {
    title: "a project's components leave their project out",
    path: 'projects/hello/components/',
    lacks: ['results.0.project'],
    has: { 'results.0.slug': 'po' },
  },
  { title: 'top-level components embed their project', path: 'components/', has: { 'results.0.project.slug': 'hello' }, alsoIdeal: true },
  { title: 'a component detail embeds its project', path: 'components/hello/po/', has: { 'project.slug': 'hello' }, alsoIdeal: true },
  { title: "a component's translations leave their component out", path: 'components/hello/po/translations/', lacks: ['results.0.component'], alsoIdeal: true },
  { title: 'top-level translations embed their component', path: 'translations/', has: { 'results.0.component.slug': 'po' }, alsoIdeal: true },
  { title: 'a translation detail embeds its component', path: 'translations/hello/po/cs/', has: { 'component.project.slug': 'hello' }, alsoIdeal: true },
  { title: 'anonymous users are summaries', path: 'users/', keys: { 'results.0': ['id', 'full_name', 'username'] } },
  { title: 'an anonymous user detail is a summary', path: 'users/alice/', keys: { '': ['id', 'full_name', 'username'] } },
  // Fields
  { title: 'the root lists categories', path: '', has: { categories: url } },
  { title: 'projects link categories and labels', path: 'projects/hello/', has: { categories_url: url, labels_url: url } },
  { title: "a project's categories are an empty page", path: 'projects/hello/categories/', has: { count: 0, results: [] }, alsoIdeal: true },
  { title: "a project's labels are an empty page", path: 'projects/hello/labels/', has: { count: 0, results: [] }, alsoIdeal: true },
  {
    title: 'components carry category, linked component, screenshot mask, source language id',
    path: 'components/hello/po/',
    has: { category: null, linked_component: null, screenshot_filemask: '', 'source_language.id': expect.any(Number) },
  },
  { title: 'translations carry the language id', path: 'translations/hello/po/cs/', has: { 'language.id': expect.any(Number) } },
  { title: 'languages carry an id', path: 'languages/cs/', has: { id: expect.any(Number) } },
  {
    title: 'statistics carry character counts and every percentage',
    path: 'projects/hello/statistics/',
    has: Object.fromEntries(charStatistics.map((key) => [key, expect.any(Number)])),
  },
  {
    title: 'groups list component lists and name roles, projects by URL',
    path: 'groups/',
    has: { 'results.0.componentlists': [], 'results.2.roles.0': url, 'results.5.defining_project': url, 'results.5.projects.0': url },
  },
  { title: 'roles list permissions as strings', path: 'roles/', has: { 'results.0.permissions.0': expect.any(String) } },
  {
    title: "an admin's view of users adds email and dates, groups by URL",
    path: 'users/',
    auth: 'token',
    has: { 'results.0.email': expect.any(String), 'results.0.date_joined': expect.any(String), 'results.0.last_login': null, 'results.0.groups.0': url },
  },
  // Types
  {
    title: 'a component repository writes its commits as objects',
    path: 'components/hello/po/repository/',
    auth: 'token',
    has: { weblate_commit: commit, remote_commit: commit },
  },
  {
    title: 'a translation repository writes its commits as objects',
    path: 'translations/hello/po/cs/repository/',
    auth: 'token',
    has: { weblate_commit: commit },
  },
  {
    title: 'whole-number percentages are written as floats',
    path: 'translations/hello/po/en/',
    text: [/"translated_percent":100\.0[,}]/, /"fuzzy_percent":0\.0[,}]/],
  },
  // Access
  { title: 'anonymous clients may not read a component repository', path: 'components/hello/po/repository/', status: 403, has: forbidden, headers: throttled },
  { title: 'anonymous clients may not read a translation repository', path: 'translations/hello/po/cs/repository/', status: 403, has: forbidden },
  { title: 'anonymous clients may not read a project repository', path: 'projects/hello/repository/', status: 403, has: forbidden },
  {
    title: 'anonymous clients may not read the translation memory',
    path: 'memory/',
    status: 401,
    has: { detail: 'Authentication credentials were not provided.' },
    headers: { 'www-authenticate': 'Token', ...throttled },
  },
  {
    title: 'the translation memory lists records with a token',
    path: 'memory/',
    auth: 'token',
    keys: { 'results.0': ['id', 'source', 'target', 'source_language', 'target_language', 'origin', 'project', 'from_file', 'shared'] },
    has: { 'results.0.source_language': expect.any(Number), 'results.0.project': expect.any(Number) },
  },
  { title: 'anonymous clients see only the languages in use', path: 'languages/', has: { count: 3 } },
  { title: 'a token sees every language the server knows', path: 'languages/', auth: 'token', has: { count: 4 }, alsoIdeal: true },
  { title: 'anonymous clients never see private projects', path: 'projects/', has: { count: 1 }, alsoIdeal: true },
  { title: 'a token sees private projects', path: 'projects/', auth: 'token', has: { count: 2 }, alsoIdeal: true },
  // Throttling
  {
    title: 'a list carries the rate limit headers',
    path: 'projects/',
    headers: { 'x-ratelimit-limit': '1000000', 'x-ratelimit-remaining': /^\d+$/, 'x-ratelimit-reset': /^\d+$/ },
  },
  { title: 'a JSON 404 carries the rate limit headers', path: 'projects/nope/', status: 404, has: { detail: 'Not found.' }, headers: throttled },
  {
    title: 'an unknown API path answers an HTML 404 without them',
    path: 'nonsense/',
    status: 404,
    contentType: 'text/html; charset=utf-8',
    headers: { 'x-ratelimit-limit': null },
    alsoIdeal: true,
  },
  // Links
  { title: 'links carry no format parameter', path: 'projects/hello/', has: { url: noFormat, components_list_url: noFormat } },
  {
    title: 'links carry format=json when the request had it',
    path: 'projects/hello/?format=json',
    has: { url: expect.stringMatching(/\/projects\/hello\/\?format=json$/), statistics_url: expect.stringMatching(/\?format=json$/) },
  },
  { title: 'format=api answers the HTML browsable API', path: 'projects/hello/?format=api', contentType: 'text/html; charset=utf-8' },
  {
    title: 'page links keep their parameters sorted by key',
    path: 'changes/?page_size=1&action=5',
    has: { next: expect.stringMatching(/\?action=5&page=2&page_size=1$/) },
  },
  // Changes
  { title: 'changes list newest first', path: 'changes/?page_size=3', has: { count: 8, 'results.0.id': 10 } },
  { title: 'action names are 5.4 English ones', path: 'changes/?action=50', has: { 'results.0.action_name': 'Project created' }, alsoIdeal: true },
  {
    title: 'user= filters changes',
    path: 'changes/?user=alice',
    has: { 'results.0.user': expect.stringMatching(/\/users\/alice\//), 'results.1.user': expect.stringMatching(/\/users\/alice\//) },
    lacks: ['results.9'],
    alsoIdeal: true,
  },
  // Errors and filters
  {
    title: 'a bad timestamp answers 400 keyed by field',
    path: 'changes/?timestamp_after=yesterday',
    status: 400,
    keys: { '': ['timestamp'] },
    has: { timestamp: ['Enter a valid date/time.'] },
  },
  {
    title: 'an unknown action answers 400 keyed by field',
    path: 'changes/?action=9999',
    status: 400,
    has: { action: ['Select a valid choice. 9999 is not one of the available choices.'] },
  },
  { title: 'a bad token answers 401', path: 'projects/', auth: 'bad-token', status: 401, has: { detail: 'Invalid token.' }, alsoIdeal: true },
  { title: 'an anonymous write answers 401', path: 'projects/', method: 'POST', status: 401, headers: { 'www-authenticate': 'Token' } },
  // Files
  {
    title: 'glossaries download as TBX',
    path: 'translations/hello/glossary/cs/file/',
    contentType: 'application/x-tbx',
    text: [/<martif type="TBX"/, /<term>orangutan<\/term>/],
  },
  {
    title: 'the source language downloads as the template',
    path: 'translations/hello/po/en/file/',
    contentType: 'text/x-gettext-catalog',
    headers: { 'content-disposition': /filename=hello-po-en\.pot$/ },
    text: [/msgid "Open"\nmsgstr ""/],
  },
  { title: 'PO files are text/x-gettext-catalog without charset', path: 'translations/hello/po/cs/file/', contentType: 'text/x-gettext-catalog' },
];

function serverOf(profile: ProfileName | undefined): () => ReferenceServer {
  let server: ReferenceServer | undefined;
  beforeAll(async () => {
    // A fresh model per server: file downloads commit, and the table must not depend on order.
    // Throttling stays on in 5.4, with limits this file never reaches; ideal has none.
    const rateLimit = profile === 'ideal' ? {} : { rateLimit: raisedRateLimit };
    server = await startTestServer({ ...(profile ? { profile } : {}), behaviours: { tokens: [TOKEN], ...rateLimit } });
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => server!;
}

describe('the default profile answers like Weblate 5.4', () => {
  // startTestServer falls back to `ideal`; the real default is the server's own.
  const server = serverOf('weblate-5.4');
  it.each(rows.map((row) => [row.title, row] as const))('%s', async (_title, row) => {
    check(row, await request(server(), row));
  });
});

describe('the ideal profile differs', () => {
  const server = serverOf('ideal');
  it.each(rows.filter((row) => !row.alsoIdeal).map((row) => [row.title, row] as const))('not: %s', async (_title, row) => {
    const answer = await request(server(), row);
    expect(() => check(row, answer)).toThrow();
  });
  it.each(rows.filter((row) => row.alsoIdeal).map((row) => [row.title, row] as const))('also: %s', async (_title, row) => {
    check(row, await request(server(), row));
  });
});
