/**
 * Issue 23: crawls of a real Weblate, replayed without Python. Each recording in test/fixtures
 * (`weblate-<version>-<scenario>.json[.gz]`, made by test/weblate/record.ts: the answers a real
 * server gave one `tmsnap crawl` of the seeded instance) is served again from 127.0.0.1, its
 * URLs rewritten to the replay's origin; tmsnap crawls it and must finish complete, without
 * problems, asking exactly what was recorded, its snapshot holding every recorded translation
 * and unit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../api/json.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { type Recording, keyOf, crawlReplay, loadRecordings, startReplay } from '../helpers/replay.ts';
import { useTempFolders } from '../helpers/temp.ts';

/**
 * The drift each server's crawl reports (docs/weblate-api.md, "Drift"): none from 5.14.3, the
 * shape api/ is measured against; what 2026.10.1 removed and added, named, from 2026.10.1.
 */
const expectedDrift: Record<string, (drift: string[]) => void> = {
  '5.14.3': (drift) => expect(drift).toEqual([]),
  '2026.10.1': (drift) =>
    expect(drift).toEqual(
      expect.arrayContaining([
        'project set_language_team missing',
        'project credits_url missing',
        'component credits_url missing',
        'unit automatically_translated new',
      ]),
    ),
};

/** The recordings of a crawl (the others, `parity`, are read by test/reference-server/parity-5.14.test.ts). */
const recordings = loadRecordings().filter((recording) => recording.scenario.endsWith('-crawl'));

const folder = useTempFolders('tmsnap-replay-', 'all');

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
    let result: Awaited<ReturnType<typeof crawlReplay>>;
    let content: string;

    beforeAll(async () => {
      replay = await startReplay(recording);
      content = await folder();
      result = await crawlReplay(replay, content, recording.keyed !== false);
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

    it('reports the drift of its server from the shape api/ is measured against, and only that', () => {
      const check = expectedDrift[recording.weblate];
      expect(check, `the drift expected of Weblate ${recording.weblate}`).toBeDefined();
      check!((result.drift ?? []).map(({ resource, field, change }) => `${resource} ${field} ${change}`));
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
