import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRows } from '../../packages/reference-server/memory-model.ts';
import type { ProfileName } from '../../packages/reference-server/profiles.ts';
import { type Difference, differencesFrom, explained, explanationOf, line, mirrorRows, probesFor } from '../weblate/parity.ts';
import { type Replay, loadRecordings, startReplay } from '../helpers/replay.ts';

/**
 * test/weblate/reference-parity.test.ts without Python: the real Weblate 5.14.3's answers to the
 * same requests (test/fixtures/weblate-5.14.3-parity.json.gz, recorded by
 * `npm run record:weblate -- --scenario parity …`) are served from 127.0.0.1, the reference
 * server is started on the rows read from them, and both answers to every probe are compared.
 * `weblate-5.14` may differ only where `explained` says why
 * (docs/decisions/2026-11-26-reference-vs-weblate-5.14.md); `weblate-5.4` shows the comparison
 * sees differences.
 */

const recording = loadRecordings().find((r) => r.scenario === 'parity' && r.weblate === '5.14.3')!;
const ADMIN = 'wlu_replayedAdminKey000000000000000000000';

let replay: Replay;
let rows: ModelRows;

beforeAll(async () => {
  // Who asked decides which recorded answer comes back: the admin key, none, or another.
  replay = await startReplay(recording, (header) => (header === undefined ? 'anonymous' : header === `Token ${ADMIN}` ? 'admin' : 'bad'));
  rows = await mirrorRows(replay.url, ADMIN, [recording.privateProject!]);
});

afterAll(async () => {
  await replay?.close();
});

function differencesOn(profile: ProfileName): Promise<Difference[]> {
  return differencesFrom(replay.url, rows, profile, probesFor(rows), ADMIN);
}

describe(`the reference server against Weblate ${recording?.weblate}'s recorded answers, same data, same requests`, () => {
  it('replays every request from the recording', async () => {
    expect(recording, 'test/fixtures/weblate-5.14.3-parity.json.gz').toBeDefined();
    expect(rows.units.length).toBeGreaterThan(1000);
    await differencesOn('weblate-5.14');
    expect(replay.unrecorded).toEqual([]);
  });

  it('weblate-5.14 differs only where it is explained to, and each explanation still holds', async () => {
    const found = await differencesOn('weblate-5.14');
    expect(found.filter((difference) => explanationOf(difference) === undefined).map(line)).toEqual([]);
    expect(explained.filter((rule) => !found.some((difference) => explanationOf(difference) === rule)).map((rule) => rule.why)).toEqual([]);
    expect(found.filter((d) => d.where === 'status' || d.where.startsWith('header ')).map(line)).toEqual([]);
    expect(found.filter((d) => /statistics|languages\/$/.test(d.probe)).map(line)).toEqual([]);
  });

  it('weblate-5.4 differs in hundreds of places: the comparison sees them', async () => {
    const found = await differencesOn('weblate-5.4');
    expect(found.length).toBeGreaterThan(300);
    expect(found.map(line)).toContainEqual(expect.stringMatching(/^admin GET projects\/nope\/ \| \$\.errors \| only on real/));
    expect(found.map(line)).toContainEqual(expect.stringMatching(/translations\/humanize\/humanize\/de\/statistics\/ \| \$\.translated_chars \| value/));
  });
});
