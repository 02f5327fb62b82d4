import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProfileName, profiles } from '../../packages/reference-server/profiles.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { type ReferenceServer, startTestServer } from '../helpers/reference-server.ts';
import { type Answer, get } from './get.ts';

/**
 * A profile's table of rows {path, auth, expect}, as profile-5.4.test.ts, profile-5.14.test.ts
 * and profile-2026.test.ts check them: one request each, over a real socket.
 */

export const TOKEN = 'wlu_admin';
/** `basic`: an `Authorization` header with another scheme than Token/Bearer; `bearer`: the token as Bearer. */
export type Auth = 'anonymous' | 'token' | 'bad-token' | 'basic' | 'bearer';

export interface Row {
  title: string;
  /** Relative to the API root. */
  path: string;
  auth?: Auth;
  method?: string;
  status?: number;
  contentType?: string;
  /** Values (or asymmetric matchers) at dotted paths into the JSON body. */
  has?: Record<string, unknown>;
  /** Dotted paths the body must not have. */
  lacks?: string[];
  /** The exact key set of the object at a dotted path ('' for the body). */
  keys?: Record<string, string[]>;
  /** Patterns the raw body text must match. */
  text?: RegExp[];
  /** Headers, null for absent. */
  headers?: Record<string, string | RegExp | null>;
  /** The row holds on the `ideal` profile too (it pins a shape both share). */
  alsoIdeal?: boolean;
  /** In the 2026 table: the row holds on `weblate-5.4` too. */
  alsoBefore?: boolean;
}

/** The value at a dotted path (`results.0.project`); `undefined` where it stops. */
function at(json: unknown, path: string): unknown {
  if (path === '') return json;
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), json);
}

function has(json: unknown, path: string): boolean {
  const parent = at(json, path.split('.').slice(0, -1).join('.'));
  return parent !== null && typeof parent === 'object' && Object.hasOwn(parent, path.split('.').at(-1)!);
}

export async function request(server: ReferenceServer, row: Row): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (row.auth === 'token') headers.Authorization = `Token ${TOKEN}`;
  if (row.auth === 'bad-token') headers.Authorization = 'Token wlu_wrong';
  if (row.auth === 'bearer') headers.Authorization = `Bearer ${TOKEN}`;
  if (row.auth === 'basic') headers.Authorization = `Basic ${Buffer.from('admin:secret').toString('base64')}`;
  return get(`${server.url}${row.path}`, { method: row.method ?? 'GET', headers });
}

export function check(row: Row, answer: Answer): void {
  expect(answer.status, 'status').toBe(row.status ?? 200);
  if (row.contentType) expect(answer.headers.get('content-type')).toBe(row.contentType);
  for (const [path, value] of Object.entries(row.has ?? {})) expect(at(answer.json, path), path).toEqual(value);
  for (const path of row.lacks ?? []) expect(has(answer.json, path), `${path} should be absent`).toBe(false);
  for (const [path, keys] of Object.entries(row.keys ?? {})) expect(Object.keys(at(answer.json, path) as object).sort(), path).toEqual([...keys].sort());
  for (const pattern of row.text ?? []) expect(answer.text).toMatch(pattern);
  for (const [name, value] of Object.entries(row.headers ?? {})) {
    if (value === null) expect(answer.headers.get(name), name).toBeNull();
    else if (typeof value === 'string') expect(answer.headers.get(name), name).toBe(value);
    else expect(answer.headers.get(name), name).toMatch(value);
  }
}

/** A server of `profile` for the tests of one `describe`, with the token and raised limits; 5.4 with 5.10's errors. */
function serverOf(profile: ProfileName): () => ReferenceServer {
  let server: ReferenceServer | undefined;
  beforeAll(async () => {
    // 5.4 with structured errors: the rows compare what the later profile adds, not 5.10's error format.
    const errors = profile === 'weblate-5.4' ? { structuredErrors: true } : {};
    server = await startTestServer({ profile, behaviours: { tokens: [TOKEN], rateLimit: raisedRateLimit, ...errors } });
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => server!;
}

/**
 * A later profile's table: each row holds on `profile` and fails on `weblate-5.4` (with 5.10's
 * errors) unless marked `alsoBefore`, in which case it holds there too. Rows ask with the token
 * unless they say otherwise.
 */
export function describeLaterProfile(profile: ProfileName, title: string, rows: readonly Row[]): void {
  const withToken = (some: readonly Row[]) => some.map((row) => [row.title, { auth: 'token' as const, ...row }] as const);
  describe(title, () => {
    const server = serverOf(profile);
    it.each(withToken(rows))('%s', async (_title, row) => {
      check(row, await request(server(), row));
    });
  });
  describe('weblate-5.4 differs', () => {
    const server = serverOf('weblate-5.4');
    it.each(withToken(rows.filter((row) => !row.alsoBefore)))('not: %s', async (_title, row) => {
      const answer = await request(server(), row);
      expect(() => check(row, answer)).toThrow();
    });
    it.each(withToken(rows.filter((row) => row.alsoBefore)))('also: %s', async (_title, row) => {
      check(row, await request(server(), row));
    });
  });
}

/** The behaviours in which `profile` differs from `weblate-5.4`, sorted. */
export function changedFrom54(profile: ProfileName): string[] {
  const base = profiles['weblate-5.4'] as unknown as Record<string, unknown>;
  return Object.entries(profiles[profile])
    .filter(([key, value]) => base[key] !== value)
    .map(([key]) => key)
    .sort();
}
