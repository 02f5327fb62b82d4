/**
 * Records a scenario's real responses for `npm test` to replay without Python (issue 23):
 * `tmsnap crawl` runs against a recording proxy in front of a real Weblate, and every request
 * it made is saved with the answer (status, the headers a client acts on, body) into
 * `test/fixtures/weblate-<version>-<scenario>.json` (gzipped, `.json.gz`, when the JSON would
 * pass 300 KB). E-mail addresses and keys are redacted; URLs keep the recorded origin, which
 * the replay rewrites to its own (test/crawler/replay.test.ts).
 *
 *   npm run record:weblate                       # starts and seeds Weblate 2026.10.1 (1-4 min), records every scenario
 *   npm run record:weblate -- --release 5.14.3   # the same on the older release
 *   npm run record:weblate -- --url http://127.0.0.1:PORT/api/ --token wlu_… --version 5.14.3 --scenario admin-crawl
 *
 * Scenarios: `admin-crawl`, the whole seeded instance with an admin key; `project-key-crawl`, the
 * same command with the private project's key (wlp_); `parity`, the requests of
 * test/weblate/reference-parity.test.ts (its mirror's reads and its probes, by who asked).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { Exchange, Recording } from '../helpers/replay.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { ask, mirrorRows, probesFor } from './parity.ts';
import { type WeblateRelease, startRealWeblate, weblateReleases } from './server.ts';

export const scenarios = ['admin-crawl', 'project-key-crawl', 'parity'] as const;
export type Scenario = (typeof scenarios)[number];

/** The answer's headers a client acts on; the framework's own (CSP, cookies, dates) are left out. */
const keptHeaders = [
  'content-type',
  'content-disposition',
  'last-modified',
  'location',
  'allow',
  'www-authenticate',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const KEY = /\bwl[up]_[A-Za-z0-9]{20,}/g;

/** No e-mail address nor key leaves the machine: each address becomes one of example.invalid. */
export function redact(text: string): string {
  return text.replace(EMAIL, 'redacted@example.invalid').replace(KEY, 'wlu_REDACTED');
}

/**
 * A proxy on 127.0.0.1 that forwards to `target` (an origin), rewrites its origin to its own for
 * the client, and records; `authOf` labels each exchange with who asked (never the key itself).
 */
async function recordingProxy(target: string, authOf?: (authorization: string | undefined) => string) {
  const exchanges: Exchange[] = [];
  let own = '';
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'accept', 'accept-language', 'if-modified-since', 'user-agent', 'content-type'])
        if (typeof request.headers[name] === 'string') headers[name] = request.headers[name];
      const answer = await fetch(`${target}${request.url}`, {
        method: request.method ?? 'GET',
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : null,
        redirect: 'manual',
      });
      const body = await answer.text();
      const kept = Object.fromEntries(keptHeaders.flatMap((name) => (answer.headers.has(name) ? [[name, answer.headers.get(name)!]] : [])));
      const auth = authOf?.(request.headers.authorization);
      exchanges.push({
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        ...(auth === undefined ? {} : { auth }),
        status: answer.status,
        headers: kept,
        body,
      });
      const rewritten = Object.fromEntries(Object.entries(kept).map(([name, value]) => [name, value.split(target).join(own)]));
      response.writeHead(answer.status, rewritten);
      response.end(body.split(target).join(own));
    })().catch((error: unknown) => {
      console.error('record: proxy failed', error);
      response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  own = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin: own, exchanges, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export function fixturePath(version: string, scenario: string, gzipped: boolean): string {
  return fileURLToPath(new URL(`../fixtures/weblate-${version}-${scenario}.json${gzipped ? '.gz' : ''}`, import.meta.url));
}

/** Crawls `url` with `token` through the recording proxy; the recording, redacted. */
export async function recordCrawl(scenario: Scenario, url: string, token: string, version: string): Promise<Recording> {
  if (scenario === 'parity') return recordParity(url, token, version, 'django-filter');
  const target = new URL(url).origin;
  const proxy = await recordingProxy(target);
  const content = await mkdtemp(join(tmpdir(), 'tmsnap-record-'));
  try {
    const args = ['crawl', '--url', `${proxy.origin}${new URL(url).pathname}`, '--content', join(content, 'content'), '--json'];
    const result = await tmsnap(args, { env: { WEBLATE_TOKEN: token } });
    if (result.code !== 0) throw new Error(`the recorded crawl exited ${result.code}: ${result.stderr.slice(-2000)}`);
    return {
      weblate: version,
      scenario,
      keyed: true,
      recorded: new Date().toISOString(),
      origin: target,
      command: `WEBLATE_TOKEN=<${scenario === 'admin-crawl' ? 'admin' : 'project'} key> tmsnap crawl --url <origin>/api/ --content <dir> --json`,
      exchanges: redactAll(proxy.exchanges),
    };
  } finally {
    await proxy.close();
    await rm(content, { recursive: true, force: true });
  }
}

function redactAll(exchanges: Exchange[]): Exchange[] {
  return exchanges.map((exchange) => ({
    ...exchange,
    headers: Object.fromEntries(Object.entries(exchange.headers).map(([name, value]) => [name, redact(value)])),
    body: redact(exchange.body),
  }));
}

/**
 * `parity`: what test/weblate/reference-parity.test.ts asks of the real server (the mirror's
 * reads with the admin key, then every probe), each exchange labelled `admin`, `anonymous` or
 * `bad` (a key the server does not know), for test/reference-server/parity-5.14.test.ts to
 * compare the reference server with, without Python.
 */
export async function recordParity(url: string, token: string, version: string, privateProject: string): Promise<Recording> {
  const target = new URL(url).origin;
  const proxy = await recordingProxy(target, (header) => (header === undefined ? 'anonymous' : header === `Token ${token}` ? 'admin' : 'bad'));
  try {
    const api = `${proxy.origin}${new URL(url).pathname}`;
    const rows = await mirrorRows(api, token, [privateProject]);
    for (const probe of probesFor(rows)) await ask(api, probe, { admin: token });
    return {
      weblate: version,
      scenario: 'parity',
      keyed: true,
      privateProject,
      recorded: new Date().toISOString(),
      origin: target,
      command: 'mirrorRows and probesFor of test/weblate/parity.ts, through the recording proxy',
      exchanges: redactAll(proxy.exchanges),
    };
  } finally {
    await proxy.close();
  }
}

export async function saveRecording(recording: Recording): Promise<string> {
  // A body equal to an earlier one is stored once (a list asked with two page sizes both within one page).
  const first = new Map<string, number>();
  const exchanges = recording.exchanges.map((exchange, index) => {
    const earlier = first.get(exchange.body);
    if (earlier === undefined) {
      first.set(exchange.body, index);
      return exchange;
    }
    const { body: _body, ...rest } = exchange;
    return { ...rest, body: '', sameBodyAs: earlier };
  });
  const text = `${JSON.stringify({ ...recording, exchanges })}\n`;
  const gzipped = Buffer.byteLength(text) > 300_000;
  const path = fixturePath(recording.weblate, recording.scenario, gzipped);
  await writeFile(path, gzipped ? gzipSync(text, { level: 9 }) : text);
  return path;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      version: { type: 'string' },
      release: { type: 'string', default: weblateReleases[0] },
      scenario: { type: 'string', multiple: true },
    },
  });
  const asked = (values.scenario ?? [...scenarios]) as Scenario[];
  for (const name of asked) if (!scenarios.includes(name)) throw new Error(`record: no scenario "${name}"; scenarios: ${scenarios.join(', ')}`);
  let close = async () => {};
  let url = values.url;
  let tokens: Partial<Record<Scenario, string>> = {};
  let version = values.version;
  if (url === undefined) {
    if (!(weblateReleases as readonly string[]).includes(values.release))
      throw new Error(`record: no release "${values.release}"; releases: ${weblateReleases.join(', ')}`);
    const { seedWeblate } = await import('./seed.ts');
    const server = await startRealWeblate(values.release as WeblateRelease);
    close = () => server.close();
    const seeded = await seedWeblate(server);
    url = server.url;
    tokens = { 'admin-crawl': seeded.tokens.admin, 'project-key-crawl': seeded.tokens.project, parity: seeded.tokens.admin };
    version = server.version;
  } else {
    const token = values.token ?? process.env.WEBLATE_TOKEN;
    if (token === undefined || version === undefined || asked.length !== 1)
      throw new Error('record: with --url, give --token (or WEBLATE_TOKEN), --version and one --scenario');
    tokens = { [asked[0]!]: token };
  }
  try {
    for (const scenario of asked) {
      const recording = await recordCrawl(scenario, url, tokens[scenario]!, version!);
      const path = await saveRecording(recording);
      console.log(`record: ${recording.exchanges.length} requests of ${scenario} saved in ${path}`);
    }
  } finally {
    await close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
