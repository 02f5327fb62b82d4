import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRows } from '../../packages/reference-server/memory-model.ts';
import type { ProfileName } from '../../packages/reference-server/profiles.ts';
import { type Difference, type Probe, differencesFrom, explainedBy, explanationOf, line, mirrorRows, probes2026, probesFor } from '../weblate/parity.ts';
import { type Recording, type Replay, keyOf, loadRecordings, startReplay } from '../helpers/replay.ts';

/**
 * parity-5.14.test.ts for Weblate 2026.10.1 (issue 38): the real server's recorded answers
 * (test/fixtures/weblate-2026.10.1-parity.json.gz, and for the endpoints 2026 added the
 * whole-instance crawl's, weblate-2026.10.1-admin-crawl.json.gz, recorded from the same
 * seeded server a minute before) are served from 127.0.0.1, the reference server is started
 * on the rows read from them, and both answers to every probe are compared. `weblate-2026` may
 * differ only where `explainedBy['weblate-2026']` says why
 * (docs/decisions/2026-11-28-reference-vs-weblate-2026.md).
 */

const recordings = loadRecordings();
const parity = recordings.find((r) => r.scenario === 'parity' && r.weblate === '2026.10.1')!;
const crawl = recordings.find((r) => r.scenario === 'admin-crawl' && r.weblate === '2026.10.1')!;
const ADMIN = 'wlu_replayedAdminKey000000000000000000000';
const explained = explainedBy['weblate-2026'];

/**
 * The parity recording, with the crawl's answers beside it (asked with the admin key) for what
 * the parity probes did not ask: the endpoints 2026 added.
 */
function merged(): Recording {
  const keyed = (exchange: Recording['exchanges'][number]) => keyOf(exchange.method, exchange.path, exchange.auth);
  const asked = new Set(parity.exchanges.map(keyed));
  const extra = crawl.exchanges
    .map((exchange) => ({ ...exchange, auth: 'admin', body: exchange.body.split(crawl.origin).join(parity.origin) }))
    .filter((exchange) => !asked.has(keyed(exchange)));
  return { ...parity, exchanges: [...parity.exchanges, ...extra] };
}

let replay: Replay;
let rows: ModelRows;
let probes: Probe[];
/** Probes the recordings do not hold (answered by the live tier only, until recorded again). */
let unrecordedProbes: Probe[];

beforeAll(async () => {
  const recording = merged();
  replay = await startReplay(recording, (header) => (header === undefined ? 'anonymous' : header === `Token ${ADMIN}` ? 'admin' : 'bad'));
  rows = await mirrorRows(replay.url, ADMIN, [parity.privateProject!]);
  const recorded = new Set(recording.exchanges.map((exchange) => keyOf(exchange.method, exchange.path, exchange.auth)));
  const all = [...probesFor(rows), ...probes2026(rows)];
  const held = (probe: Probe) => recorded.has(keyOf('GET', `/api/${probe.path}`, probe.as));
  probes = all.filter(held);
  unrecordedProbes = all.filter((probe) => !held(probe));
});

afterAll(async () => {
  await replay?.close();
});

function differencesOn(profile: ProfileName): Promise<Difference[]> {
  return differencesFrom(replay.url, rows, profile, probes, ADMIN);
}

describe(`the reference server against Weblate ${parity?.weblate}'s recorded answers, same data, same requests`, () => {
  it('replays every request from the recordings: the parity probes and the 2026 endpoints', async () => {
    expect(parity, 'test/fixtures/weblate-2026.10.1-parity.json.gz').toBeDefined();
    expect(crawl, 'test/fixtures/weblate-2026.10.1-admin-crawl.json.gz').toBeDefined();
    expect(rows.units.length).toBeGreaterThan(1000);
    // Only the anonymous reports/ are missing: the recordings asked them with no key nowhere.
    expect(unrecordedProbes.map((probe) => `${probe.as} ${probe.path}`)).toEqual(['anonymous reports/', 'anonymous projects/humanize/reports/']);
    expect(probes.filter((probe) => /metrics|announcements|reports|suggestions/.test(probe.path)).length).toBe(12);
    await differencesOn('weblate-2026');
    expect(replay.unrecorded).toEqual([]);
  });

  it('weblate-2026 differs only where it is explained to, and each explanation still holds', async () => {
    const found = await differencesOn('weblate-2026');
    expect(found.filter((difference) => explanationOf(difference, explained) === undefined).map(line)).toEqual([]);
    expect(explained.filter((rule) => !found.some((difference) => explanationOf(difference, explained) === rule)).map((rule) => rule.why)).toEqual([]);
    expect(found.filter((d) => d.where === 'status' || d.where.startsWith('header ')).map(line)).toEqual([]);
    expect(found.filter((d) => /statistics|languages\/$|metrics/.test(d.probe)).map(line)).toEqual([]);
  });

  it('the profile written from changelogs (now weblate-2026.11-announced) and weblate-5.14 differ in hundreds of places: the comparison sees them', async () => {
    const announced = await differencesOn('weblate-2026.11-announced');
    expect(announced.length).toBeGreaterThan(100);
    // Anonymous clients meet the bot protection's HTML; lists carry cursors and no count; a project's languages/ is paged.
    expect(announced.map(line)).toContainEqual(expect.stringMatching(/^anonymous GET projects\/ \| body \| real JSON, reference not JSON/));
    expect(announced.map(line)).toContainEqual(expect.stringMatching(/^admin GET projects\/ \| \$\.count \| only on real/));
    expect(announced.map(line)).toContainEqual(expect.stringMatching(/^admin GET projects\/humanize\/languages\/ \| \$ \| type: real array/));
    const older = await differencesOn('weblate-5.14');
    expect(older.length).toBeGreaterThan(300);
    expect(older.map(line)).toContainEqual(expect.stringMatching(/^admin GET projects\/humanize\/ \| \$\.credits_url \| only on reference/));
    expect(older.map(line)).toContainEqual(
      expect.stringMatching(/^admin GET projects\/humanize\/metrics\/\?page_size=1000 \| status \| real 200, reference 404/),
    );
  });
});
