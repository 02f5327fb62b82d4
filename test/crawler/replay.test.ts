/**
 * Issue 23: crawls of a real Weblate, replayed without Python. Each recording in test/fixtures
 * (`weblate-<version>-<scenario>.json[.gz]`, made by test/weblate/record.ts: the answers a real
 * server gave one `tmsnap crawl` of the seeded instance) is served again from 127.0.0.1, its
 * URLs rewritten to the replay's origin; tmsnap crawls it and must finish complete, without
 * problems, asking exactly what was recorded, its snapshot holding every recorded translation
 * and unit.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../api/json.ts';
import { crawl } from '../../crawler/crawl.ts';
import { openSnapshot } from '../../snapshot/reader.ts';
import { useTempFolders } from '../helpers/temp.ts';

interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Recording {
  weblate: string;
  scenario: string;
  keyed?: boolean;
  origin: string;
  exchanges: Exchange[];
}

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const recordings = readdirSync(fixtures)
  .filter((name) => /^weblate-.+\.json(\.gz)?$/.test(name))
  .sort()
  .map((name) => {
    const bytes = readFileSync(`${fixtures}${name}`);
    return JSON.parse((name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')) as Recording;
  });

const folder = useTempFolders('tmsnap-replay-', 'all');

/**
 * A request's key: method and path with its query, the crawl's time window left out (each crawl
 * fixes its changes window with `timestamp_before=<its start>`, so a replay asks another time).
 */
const keyOf = (method: string | undefined, path: string | undefined) => `${method} ${(path ?? '').replace(/(timestamp_(?:before|after)=)[^&]*/g, '$1*')}`;

/** Serves the recorded answers by method and path, each in recorded order (the last again when asked more often). */
async function startReplay(recorded: Recording) {
  const answers = new Map<string, Exchange[]>();
  for (const exchange of recorded.exchanges) {
    const key = keyOf(exchange.method, exchange.path);
    answers.set(key, [...(answers.get(key) ?? []), exchange]);
  }
  const served = new Map<string, number>();
  const unrecorded: string[] = [];
  let origin = '';
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const key = keyOf(request.method, request.url);
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
  return { url: `${origin}/api/`, served, unrecorded, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The recorded JSON answers to `path` (query left out), parsed exactly. */
function recordedJson(recording: Recording, path: RegExp): unknown[] {
  return recording.exchanges
    .filter((e) => path.test(e.path.split('?')[0]!) && e.status === 200 && /json/.test(e.headers['content-type'] ?? ''))
    .map((e) => parseJson(e.body));
}

it('finds the recordings', () => {
  expect(recordings.map((r) => r.scenario)).toContain('admin-crawl');
});

describe.each(recordings.map((recording) => [`${recording.weblate} ${recording.scenario}`, recording] as const))(
  'a crawl of a real Weblate %s, replayed',
  (_name, recording) => {
    let replay: Awaited<ReturnType<typeof startReplay>>;
    let result: Awaited<ReturnType<typeof crawl>>;
    let content: string;

    beforeAll(async () => {
      replay = await startReplay(recording);
      content = await folder();
      result = await crawl({
        apiRoot: new URL(replay.url),
        contentDir: content,
        projects: [],
        token: recording.keyed === false ? undefined : 'wlu_replayedKey00000000000000000000000000',
        concurrency: 4,
        timeoutMs: 30_000,
        retries: 2,
        maxWaitMs: 5_000,
        tmsnapVersion: '0.0.0-test',
        userAgent: 'tmsnap-test',
      });
    });

    afterAll(async () => {
      await replay?.close();
    });

    it(`is complete, with no problems, asking exactly the ${recording.exchanges.length} recorded requests`, () => {
      expect(result.message).toBeUndefined();
      expect(result.problems).toEqual([]);
      expect(result.outcome).toBe('complete');
      expect(replay.unrecorded).toEqual([]);
      // Every recorded request was made again: the replay is the crawl the real server saw.
      const missed = recording.exchanges.map((e) => keyOf(e.method, e.path)).filter((key) => !replay.served.has(key));
      expect(missed).toEqual([]);
    });

    it('holds every recorded translation, and every recorded unit in its translation', async () => {
      const snapshot = await openSnapshot(content);
      const base = new URL(recording.origin).href;
      const pathOf = (url: string) => url.slice(base.length);
      const translations = recordedJson(recording, /^\/api\/translations\/$/).flatMap(
        (page) => (page as { results: { url: string; total: number }[] }).results,
      );
      expect(translations.length).toBeGreaterThan(10);
      const stored = new Set((await snapshot.translations()).map((entry) => entry.path));
      expect([...translations.map((t) => pathOf(t.url))].filter((path) => !stored.has(path))).toEqual([]);

      const units = recordedJson(recording, /\/units\/$/).flatMap(
        (page) => (page as { results: { id: number; translation: string; target: string[] }[] }).results,
      );
      expect(units.length).toBeGreaterThan(100);
      const byTranslation = new Map<string, { id: number; target: string[] }[]>();
      for (const unit of units) byTranslation.set(pathOf(unit.translation), [...(byTranslation.get(pathOf(unit.translation)) ?? []), unit]);
      for (const translation of translations) {
        const expected = byTranslation.get(pathOf(translation.url)) ?? [];
        expect(expected.length, translation.url).toBe(translation.total);
        const kept = new Map((await snapshot.units(pathOf(translation.url))).map((unit) => [unit.id, unit]));
        for (const unit of expected) {
          expect(kept.has(unit.id), `unit ${unit.id} of ${translation.url}`).toBe(true);
          expect(kept.get(unit.id)!.target, `unit ${unit.id}`).toEqual(unit.target);
        }
      }
    });
  },
);
