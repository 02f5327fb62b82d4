import { readFileSync, readdirSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { type CrawlResult, crawl } from '../../crawler/crawl.ts';

/**
 * Recordings of a real Weblate's answers (test/weblate/record.ts, issue 23) and a server on
 * 127.0.0.1 that answers them again, for the tests of `npm test` that need no Python.
 */

/** One request and the real server's answer. */
export interface Exchange {
  method: string;
  /** Path and query, as the client sent them. */
  path: string;
  /** Who asked, when the recording tells keys apart (`anonymous`, `admin`, `bad`). */
  auth?: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Stored instead of a body equal to an earlier exchange's: that exchange's index. */
  sameBodyAs?: number;
}

export interface Recording {
  weblate: string;
  scenario: string;
  /** When it was recorded (ISO 8601), and the command that made the requests. */
  recorded?: string;
  command?: string;
  /** The crawl had a key (its value is not recorded): a replay crawls with one too. */
  keyed?: boolean;
  /** The seeded instance's private project, for scenarios that mirror its data. */
  privateProject?: string;
  /** The origin the recorded URLs name; a replay puts its own in its place. */
  origin: string;
  exchanges: Exchange[];
}

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Every recording in test/fixtures (`weblate-<version>-<scenario>.json[.gz]`), by file name. */
export function loadRecordings(): Recording[] {
  return readdirSync(fixtures)
    .filter((name) => /^weblate-.+\.json(\.gz)?$/.test(name))
    .sort()
    .map((name) => {
      const bytes = readFileSync(`${fixtures}${name}`);
      const recording = JSON.parse((name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')) as Recording;
      for (const exchange of recording.exchanges) if (exchange.sameBodyAs !== undefined) exchange.body = recording.exchanges[exchange.sameBodyAs]!.body;
      return recording;
    });
}

/**
 * A request's key: method, who asked (when recorded) and path with its query, a changes
 * window's bounds left out (each crawl fixes its window with `timestamp_before=<its start>`,
 * so a replay asks for another time).
 */
export function keyOf(method: string | undefined, path: string | undefined, auth?: string): string {
  return `${method} ${auth === undefined ? '' : `[${auth}] `}${(path ?? '').replace(/(timestamp_(?:before|after)=)[^&]*/g, '$1*')}`;
}

export interface Replay {
  /** The API root, `http://127.0.0.1:PORT/api/`. */
  url: string;
  origin: string;
  /** How often each recorded key was asked. */
  served: Map<string, number>;
  /** Keys asked that were not recorded (answered an HTML 404). */
  unrecorded: string[];
  close(): Promise<void>;
}

/**
 * Serves the recorded answers by key, each in recorded order (the last again when asked more
 * often), the recorded origin rewritten to its own. `authOf` names who asks from the request's
 * `Authorization` header, for recordings whose exchanges name it.
 */
export async function startReplay(recorded: Recording, authOf?: (authorization: string | undefined) => string): Promise<Replay> {
  const answers = new Map<string, Exchange[]>();
  for (const exchange of recorded.exchanges) {
    const key = keyOf(exchange.method, exchange.path, exchange.auth);
    answers.set(key, [...(answers.get(key) ?? []), exchange]);
  }
  const served = new Map<string, number>();
  const unrecorded: string[] = [];
  let origin = '';
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const key = keyOf(request.method, request.url, authOf?.(request.headers.authorization));
    const list = answers.get(key);
    if (list === undefined) {
      unrecorded.push(key);
      response.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end('<h1>Not Found</h1><p>Not recorded.</p>');
      return;
    }
    const times = served.get(key) ?? 0;
    served.set(key, times + 1);
    const exchange = list[Math.min(times, list.length - 1)]!;
    // The recorded origin (a port of the recording run) becomes the replay's own.
    const body = exchange.body.split(recorded.origin).join(origin);
    const headers = Object.fromEntries(Object.entries(exchange.headers).map(([name, value]) => [name, value.split(recorded.origin).join(origin)]));
    response.writeHead(exchange.status, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/api/`,
    origin,
    served,
    unrecorded,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** `tmsnap crawl`'s work against a replay into `contentDir`, with a key unless the recording had none. */
export function crawlReplay(replay: Replay, contentDir: string, keyed = true): Promise<CrawlResult> {
  return crawl({
    apiRoot: new URL(replay.url),
    contentDir,
    projects: [],
    token: keyed ? 'wlu_replayedKey00000000000000000000000000' : undefined,
    concurrency: 4,
    timeoutMs: 30_000,
    retries: 2,
    maxWaitMs: 5_000,
    tmsnapVersion: '0.0.0-test',
    userAgent: 'tmsnap-test',
  });
}
