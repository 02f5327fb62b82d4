import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRows } from '../../packages/reference-server/memory-model.ts';
import type { ProfileName } from '../../packages/reference-server/profiles.ts';
import {
  type Difference,
  type Probe,
  differencesFrom,
  explainedBy,
  explanationOf,
  line,
  measuredProfileOf,
  mirrorRows,
  probes2026,
  probesFor,
} from './parity.ts';
import { resetThrottle, weblate } from './helpers.ts';

/**
 * Issue 23, "The reference server, measured against the real one": the reference server over
 * the rows the real server holds (read through its API by `mirrorRows`: same ids, hashes,
 * timestamps, change log) and the real server get the same GET requests, as an admin and
 * anonymously, errors included; every difference of status, headers, key sets, value types,
 * nesting and values is printed (docs/decisions/2026-11-26-reference-vs-weblate-5.14.md).
 * The profile measured for the release under test (`weblate-2026` on 2026.10.1, `weblate-5.14`
 * on 5.14.3; docs/decisions/2026-11-28-reference-vs-weblate-2026.md) may differ only where
 * `explainedBy` says why; on 2026.10.1 the endpoints 2026 added are asked too (`probes2026`).
 */

let rows: ModelRows;
const release = weblate().release;
if (release !== '2026.10.1' && release !== '5.14.3') throw new Error(`reference-parity: no profile measured for Weblate ${release}`);
const measured = measuredProfileOf[release];
const explained = explainedBy[measured];
const probes = (): Probe[] => (release === '2026.10.1' ? [...probesFor(rows), ...probes2026(rows)] : probesFor(rows));

async function differencesOn(profile: ProfileName): Promise<Difference[]> {
  const { url, tokens } = weblate();
  await resetThrottle();
  const found = await differencesFrom(url, rows, profile, probes(), tokens.admin);
  console.log(`test:weblate: reference server (${profile}) against Weblate ${weblate().version}: ${found.length} differences\n${found.map(line).join('\n')}`);
  return found;
}

describe(`the reference server against a real Weblate (${weblate().version}), same data, same requests`, () => {
  const found = new Map<ProfileName, Difference[]>();

  beforeAll(async () => {
    await resetThrottle();
    const { url, tokens, privateProject } = weblate();
    rows = await mirrorRows(url, tokens.admin, [privateProject]);
    expect(rows.units.length).toBeGreaterThan(500);
    found.set('weblate-5.4', await differencesOn('weblate-5.4'));
    found.set(measured, await differencesOn(measured));
  });

  afterAll(() => {
    const after = found.get(measured) ?? [];
    const reasons = new Map<string, number>();
    for (const difference of after) {
      const why = explanationOf(difference, explained)?.why ?? 'UNEXPLAINED';
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
    console.log(`test:weblate: weblate-5.4 ${found.get('weblate-5.4')?.length}, ${measured} ${after.length} differences; ${measured}'s by reason:`);
    for (const [why, count] of reasons) console.log(`  ${count}: ${why}`);
  });

  it(`${measured} differs only where the reference server is explained to (no unexplained difference)`, () => {
    const unexplained = found.get(measured)!.filter((difference) => explanationOf(difference, explained) === undefined);
    expect(unexplained.map(line)).toEqual([]);
  });

  it('every explanation still explains a difference (a stale one is taken out of the list and the record)', () => {
    const after = found.get(measured)!;
    expect(explained.filter((rule) => !after.some((difference) => explanationOf(difference, explained) === rule)).map((rule) => rule.why)).toEqual([]);
  });

  it(`${measured} answers statuses, error bodies, rate-limit headers, pagination and figures as the real server does`, () => {
    const after = found.get(measured)!;
    expect(after.filter((d) => d.where === 'status' || d.where.startsWith('header x-ratelimit') || d.where === 'header content-type').map(line)).toEqual([]);
    expect(after.filter((d) => /\$\.(count|next|previous|errors|type|detail)\b/.test(d.where) && !/categories|groups|roles/.test(d.probe)).map(line)).toEqual(
      [],
    );
    expect(after.filter((d) => /statistics|languages\/$|metrics/.test(d.probe)).map(line)).toEqual([]);
  });

  it(`${measured} is closer to the real server than weblate-5.4`, () => {
    expect(found.get(measured)!.length).toBeLessThan(found.get('weblate-5.4')!.length / 3);
  });
});
