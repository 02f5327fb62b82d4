import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient, type HttpClientOptions, authorization } from '../../crawler/http/client.ts';
import { botChallenge } from '../../crawler/http/bot-challenge.ts';
import { challengePage } from '../../packages/reference-server/html.ts';
import { backoffDelay, budgetDelay, readRateBudget, retryAfterDelay } from '../../crawler/http/pacing.ts';
import {
  BotChallengeError,
  ConnectionRefusedError,
  ContentTypeError,
  HttpStatusError,
  KeyRefusedError,
  NetworkError,
  OffOriginError,
  RateLimitError,
  RetriesExhaustedError,
} from '../../crawler/errors.ts';
import { type ScriptedServer, type Step, drop, html, json, stall, startScriptedServer } from './scripted-server.ts';

const token = 'wlu_SECRET_token_1234567890';
const servers: ScriptedServer[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function setup(steps: Step[], options: Partial<HttpClientOptions> = {}) {
  const server = await startScriptedServer(steps);
  servers.push(server);
  const waits: number[] = [];
  let clock = 1_000_000;
  const client = new HttpClient({
    apiRoot: new URL('api/', server.origin),
    token,
    userAgent: 'tmsnap/0.0.0-test',
    concurrency: 1,
    timeoutMs: 2_000,
    retries: 3,
    maxWaitMs: 60_000,
    random: () => 0.5,
    // Waits are recorded, not slept: the policy is what is tested, not the clock.
    now: () => clock,
    sleep: async (ms) => {
      waits.push(ms);
      clock += ms;
    },
    ...options,
  });
  clients.push(client);
  return { server, client, waits, url: (path: string) => new URL(`api/${path}`, server.origin).href };
}

describe('HttpClient', () => {
  it('sends the JSON, language, user-agent and token headers and keeps 64-bit integers exact', async () => {
    const { server, client, url } = await setup([json('{"id_hash": -9223372036854775807, "n": 1}')]);
    const { body, requests } = await client.getJson(url('units/1/'));
    expect(body).toEqual({ id_hash: -9223372036854775807n, n: 1 });
    expect(requests).toBe(1);
    const headers = server.hits[0]?.headers;
    expect(headers?.accept).toBe('application/json');
    expect(headers?.['accept-language']).toBe('en');
    expect(headers?.['user-agent']).toBe('tmsnap/0.0.0-test');
    expect(headers?.authorization).toBe(`Token ${token}`);
  });

  it('sends no Authorization header without a token', async () => {
    const { server, client, url } = await setup([json('{}')], { token: undefined });
    await client.getJson(url(''));
    expect(server.hits[0]?.headers.authorization).toBeUndefined();
  });

  it('retries a dropped connection, an HTML 502 and a 500, backing off longer each time', async () => {
    const { server, client, waits, url } = await setup([drop, html(502), json('{"detail":"boom"}', 500), json('{"ok":true}')]);
    const { body, requests } = await client.getJson(url('projects/'));
    expect(body).toEqual({ ok: true });
    expect(requests).toBe(4);
    expect(server.hits).toHaveLength(4);
    expect(client.requests).toBe(4);
    expect(waits).toEqual([backoffDelay(1, () => 0.5), backoffDelay(2, () => 0.5), backoffDelay(3, () => 0.5)]);
    expect(waits[0]).toBeLessThan(waits[1] ?? 0);
  });

  it('gives up after the configured retries, naming the URL and the last answer', async () => {
    const { server, client, url } = await setup([json('{"detail":"Server Error"}', 500)], { retries: 2 });
    const error = await client.getJson(url('projects/')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect((error as Error).message).toBe(`GET ${url('projects/')} answered 500: Server Error (gave up after 3 attempts)`);
    expect(server.hits).toHaveLength(3);
  });

  it('does not retry a 404 and reports the detail of either error body format', async () => {
    const old = await setup([json('{"detail":"Not found."}', 404)]);
    const error = await old.client.getJson(old.url('projects/x/')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect((error as HttpStatusError).status).toBe(404);
    expect((error as Error).message).toBe(`GET ${old.url('projects/x/')} answered 404: Not found.`);
    expect(old.server.hits).toHaveLength(1);

    const modern = await setup([json('{"type":"client_error","errors":[{"code":"not_found","detail":"No Project matches.","attr":null}]}', 404)]);
    const modernError = await modern.client.getJson(modern.url('projects/x/')).catch((e: unknown) => e);
    expect((modernError as Error).message).toContain('answered 404: No Project matches.');
  });

  it('refuses an HTML 200 before parsing it, saying what was expected', async () => {
    const { client, url } = await setup([html(200)]);
    const error = await client.getJson(url('')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentTypeError);
    expect((error as Error).message).toContain('with text/html; charset=utf-8 instead of JSON');
  });

  it('waits out Retry-After on 429 without using up a retry', async () => {
    const { server, client, waits, url } = await setup(
      [json('{"detail":"Throttled."}', 429, { 'retry-after': '7' }), json('{"detail":"Throttled."}', 429, { 'retry-after': '7' }), json('[]')],
      { retries: 0 },
    );
    const { body } = await client.getJson(url('languages/'));
    expect(body).toEqual([]);
    expect(server.hits).toHaveLength(3);
    expect(waits).toHaveLength(2);
    for (const wait of waits) expect(wait).toBeGreaterThan(6_000);
  });

  it('trusts Retry-After over X-RateLimit-Reset', async () => {
    const { waits, client, url } = await setup([
      json('{}', 429, { 'retry-after': '30', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2', 'x-ratelimit-limit': '10' }),
      json('{}'),
    ]);
    await client.getJson(url(''));
    expect(waits.some((wait) => wait > 28_000)).toBe(true);
  });

  it('stops with the wait when Retry-After is longer than --max-wait', async () => {
    const { client, url } = await setup([json('{}', 429, { 'retry-after': '86400' })], { maxWaitMs: 60_000 });
    const error = await client.getJson(url('')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).waitSeconds).toBe(86400);
  });

  it('stops rather than wait past --max-duration, for Retry-After and for the budget alike', async () => {
    // The clock starts at 1,000,000 ms; the deadline is 10 s later. A 30 s wait fits --max-wait
    // (60 s) but would end after the deadline, which a nightly job's time limit then cuts.
    const deadline = 1_010_000;
    const retry = await setup([json('{}', 429, { 'retry-after': '30' })], { deadline });
    const refused = await retry.client.getJson(retry.url('')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect((refused as Error).message).toContain('--max-duration');
    expect(retry.waits).toEqual([]);

    const budget = await setup([json('{}', 200, { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '30' }), json('{}')], {
      deadline,
    });
    await budget.client.getJson(budget.url('a/'));
    const spent = await budget.client.getJson(budget.url('b/')).catch((e: unknown) => e);
    expect(spent).toBeInstanceOf(RateLimitError);
    expect((spent as Error).message).toMatch(/rate budget is spent .*--max-duration/);
    expect(budget.server.hits).toHaveLength(1);
    expect(budget.waits).toEqual([]);

    // Without the deadline the same budget wait is sat through.
    const patient = await setup([json('{}', 200, { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '30' }), json('{}')]);
    await patient.client.getJson(patient.url('a/'));
    await patient.client.getJson(patient.url('b/'));
    expect(patient.waits).toEqual([30_000]);
  });

  it('slows down before the limit: with the budget nearly used it waits for the reset', async () => {
    const { client, waits, url } = await setup([
      json('{}', 200, { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '9' }),
      json('{}', 200, { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '50', 'x-ratelimit-reset': '9' }),
      json('{}'),
    ]);
    await client.getJson(url('a/'));
    expect(waits).toEqual([]);
    await client.getJson(url('b/'));
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(8_000);
    await client.getJson(url('c/'));
    expect(waits).toHaveLength(1);
    expect(client.budget).toEqual({ limit: 100, remaining: 50, reset: 9 });
  });

  it('spaces requests to --max-rps', async () => {
    const { client, waits, url } = await setup([json('{}')], { maxRps: 2 });
    for (const path of ['a/', 'b/', 'c/']) await client.getJson(url(path));
    // The first goes at once; the later ones wait for their slot (up to 500 ms each).
    expect(waits).toHaveLength(2);
    for (const wait of waits) expect(wait).toBeLessThanOrEqual(500);
  });

  it('abandons a stalled request after the timeout and retries it', async () => {
    const { server, client, url } = await setup([stall, json('{"late":false}')], { timeoutMs: 300 });
    const { body, requests } = await client.getJson(url(''));
    expect(body).toEqual({ late: false });
    expect(requests).toBe(2);
    expect(server.hits).toHaveLength(2);
  });

  it('never requests a URL outside the API root', async () => {
    const { server, client } = await setup([json('{}')]);
    const other = await startScriptedServer([json('{}')]);
    servers.push(other);
    for (const target of [`${other.origin}api/`, `${server.origin}admin/`, 'file:///etc/passwd', `${server.origin.replace('http:', 'https:')}api/`]) {
      await expect(client.getJson(target)).rejects.toBeInstanceOf(OffOriginError);
    }
    expect(other.hits).toHaveLength(0);
    expect(server.hits).toHaveLength(0);
  });

  it('keeps the token out of every error message', async () => {
    const { client, url } = await setup([drop], { retries: 1 });
    const error = (await client.getJson(url('')).catch((e: unknown) => e)) as Error;
    expect(`${error.message} ${String(error.cause)} ${error.stack}`).not.toContain(token);
  });

  it('fetches raw bytes of a file', async () => {
    const po = Buffer.from('msgid ""\nmsgstr "Ünïcode"\n');
    const { client, server, url } = await setup([
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/x-gettext-catalog' });
        response.end(po);
      },
    ]);
    const { body, contentType } = await client.getBytes(url('translations/p/c/de/file/'));
    expect(body.equals(po)).toBe(true);
    expect(contentType).toBe('text/x-gettext-catalog');
    expect(server.hits[0]?.headers.accept).toBe('*/*');
  });
});

describe('pacing', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterDelay('120', 0)).toBe(120_000);
    expect(retryAfterDelay('Thu, 01 Jan 1970 00:01:00 GMT', 30_000)).toBe(30_000);
    expect(retryAfterDelay('soon', 0)).toBeUndefined();
    expect(retryAfterDelay(undefined, 0)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped at 30 s', () => {
    expect(backoffDelay(1, () => 0)).toBe(250);
    expect(backoffDelay(1, () => 1)).toBe(500);
    expect(backoffDelay(3, () => 1)).toBe(2_000);
    expect(backoffDelay(20, () => 1)).toBe(30_000);
  });

  it('reads the rate budget and holds requests only near the limit', () => {
    const budget = readRateBudget({ 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '12' });
    expect(budget).toEqual({ limit: 5000, remaining: 3, reset: 12 });
    expect(budgetDelay(budget, 4)).toBe(12_000);
    expect(budgetDelay({ ...budget, remaining: 100 }, 4)).toBe(0);
    expect(budgetDelay({}, 4)).toBe(0);
  });
});

describe('what the 2026 releases bring (issue 23)', () => {
  const page =
    (status: number, which: 'anubis' | 'cloudflare'): Step =>
    (_request, response) => {
      const { headers, body } = challengePage(which);
      response.writeHead(status, { ...headers, 'content-type': 'text/html; charset=utf-8' });
      response.end(body);
    };

  it('sends a key only ever as Token, whatever scheme it was pasted with', async () => {
    expect([authorization('wlu_a'), authorization('Bearer wlu_a'), authorization(' token  wlu_a '), authorization('wlp_b')]).toEqual([
      'Token wlu_a',
      'Token wlu_a',
      'Token wlu_a',
      'Token wlp_b',
    ]);
    const { server, client, url } = await setup([json('{}')], { token: `Bearer ${token}` });
    await client.getJson(url(''));
    expect(server.hits[0]?.headers.authorization).toBe(`Token ${token}`);
  });

  it('a 401 to a request with the key: the key was refused, not retried, said in one line without the key', async () => {
    const { server, client, url } = await setup([json('{"detail":"Invalid token."}', 401, { 'www-authenticate': 'Token' })]);
    const error = await client.getJson(url('')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyRefusedError);
    expect((error as Error).message).toBe(
      `GET ${url('')} answered 401 (Invalid token): the server refused the API key; check WEBLATE_TOKEN (tmsnap crawl --help says where the key came from), or unset it to crawl anonymously.`,
    );
    expect((error as Error).message).not.toContain(token);
    expect(server.hits).toHaveLength(1);
    // Without a key, a 401 is a limit of access (crawler/access.ts), as before.
    const anonymous = await setup([json('{"detail":"Authentication credentials were not provided."}', 401)], { token: undefined });
    expect(await anonymous.client.getJson(anonymous.url('memory/')).catch((e: unknown) => e)).not.toBeInstanceOf(KeyRefusedError);
  });

  it('a bot-protection page with any status it comes with: not retried, not waited out, named', async () => {
    for (const [status, which, maker] of [
      [200, 'anubis', 'Anubis'],
      [429, 'anubis', 'Anubis'],
      [403, 'cloudflare', 'Cloudflare'],
      [503, 'cloudflare', 'Cloudflare'],
    ] as const) {
      const { server, client, url, waits } = await setup([page(status, which), json('{}')]);
      const error = await client.getJson(url('projects/')).catch((e: unknown) => e);
      expect(error, `${status} ${which}`).toBeInstanceOf(BotChallengeError);
      expect((error as BotChallengeError).maker).toBe(maker);
      expect(server.hits).toHaveLength(1);
      expect(waits).toEqual([]);
      // With a key, the remedy is the admin's.
      expect((error as Error).message).toContain(
        `answered ${status} with a bot-protection page (${maker}) instead of JSON: the server put a bot check in front of its API even for this API key; ask the server's admin to allow this client`,
      );
    }
  });

  it('tells a bot-protection page from an HTML error page or an HTML translation file', () => {
    const answer = (status: number, body: string, headers: Record<string, string> = {}) => ({ status, contentType: 'text/html; charset=utf-8', headers, body });
    expect(botChallenge(answer(200, challengePage('anubis').body), true)).toBe('Anubis');
    expect(botChallenge(answer(403, '<html>Just a moment...</html>', { 'cf-mitigated': 'challenge' }), false)).toBe('Cloudflare');
    expect(botChallenge(answer(200, '<p>Please complete the captcha to prove you are not a robot</p>'), true)).toBe('a proof-of-work check');
    // A translation file in HTML may speak of captchas; only a maker's own marks count there.
    expect(botChallenge(answer(200, '<p>Please complete the captcha</p>'), false)).toBeUndefined();
    expect(botChallenge(answer(502, '<title>Bad gateway</title>'), true)).toBeUndefined();
    expect(botChallenge(answer(429, '<center>429 Too Many Requests</center><hr><center>nginx</center>'), true)).toBeUndefined();
    expect(botChallenge({ ...answer(200, challengePage('anubis').body), contentType: 'application/json' }, true)).toBeUndefined();
  });

  it('a refused connection: at once on the first request, retried once the server has answered', async () => {
    const { server, client, url, waits } = await setup([json('{}')], { retries: 2 });
    await client.getJson(url(''));
    const address = new URL(server.origin);
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    // The server answered before: a refusal now is a restart, retried with backoff.
    const later = await client.getJson(url('projects/')).catch((e: unknown) => e);
    expect(later).toBeInstanceOf(RetriesExhaustedError);
    expect((later as RetriesExhaustedError).cause as Error).toBeInstanceOf(NetworkError);
    expect(waits).toHaveLength(2);

    const fresh = new HttpClient({
      apiRoot: new URL('api/', server.origin),
      userAgent: 'tmsnap/0.0.0-test',
      concurrency: 1,
      timeoutMs: 2_000,
      retries: 3,
      maxWaitMs: 60_000,
      sleep: async () => {
        throw new Error('a refused first request must not wait');
      },
    });
    clients.push(fresh);
    const first = await fresh.getJson(url('')).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ConnectionRefusedError);
    expect((first as Error).message).toBe(
      `GET ${url('')} failed: nothing is listening at ${address.host} (connection refused); is the server running, and is --url right?`,
    );
    expect(fresh.requests).toBe(1);
  });
});
