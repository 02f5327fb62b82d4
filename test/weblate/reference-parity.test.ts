import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryModel, type ModelRows } from '../../packages/reference-server/memory-model.ts';
import type { ProfileName } from '../../packages/reference-server/profiles.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { type Difference, ask, compareAnswers, explained, explanationOf, line, mirrorRows, probesFor } from './parity.ts';
import { resetThrottle, weblate } from './helpers.ts';

/**
 * Issue 23, "The reference server, measured against the real one": the reference server over
 * the rows the real server holds (read through its API by `mirrorRows`: same ids, hashes,
 * timestamps, change log) and the real server get the same GET requests, as an admin and
 * anonymously, errors included; every difference of status, headers, key sets, value types,
 * nesting and values is printed (docs/decisions/2026-11-26-reference-vs-weblate-5.14.md).
 * The `weblate-5.14` profile may differ only where `explained` says why.
 */

let rows: ModelRows;

async function differencesOn(profile: ProfileName): Promise<Difference[]> {
  const { url, tokens } = weblate();
  const reference = await startTestServer({ data: new MemoryModel(rows), profile, behaviours: { tokens: [tokens.admin] } });
  try {
    await resetThrottle();
    const origins = { real: new URL(url).origin, reference: reference.origin };
    const found: Difference[] = [];
    for (const probe of probesFor(rows)) {
      const real = await ask(url, probe, tokens);
      const answer = await ask(reference.url, probe, tokens);
      found.push(...compareAnswers(probe, real, answer, origins));
    }
    console.log(`test:weblate: reference server (${profile}) against Weblate ${weblate().version}: ${found.length} differences\n${found.map(line).join('\n')}`);
    return found;
  } finally {
    await reference.close();
  }
}

describe(`the reference server against a real Weblate (${weblate().version}), same data, same requests`, () => {
  const found = new Map<ProfileName, Difference[]>();

  beforeAll(async () => {
    await resetThrottle();
    const { url, tokens, privateProject } = weblate();
    rows = await mirrorRows(url, tokens.admin, [privateProject]);
    expect(rows.units.length).toBeGreaterThan(500);
    found.set('weblate-5.4', await differencesOn('weblate-5.4'));
    found.set('weblate-5.14', await differencesOn('weblate-5.14'));
  });

  afterAll(() => {
    const after = found.get('weblate-5.14') ?? [];
    const reasons = new Map<string, number>();
    for (const difference of after) {
      const why = explanationOf(difference)?.why ?? 'UNEXPLAINED';
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
    console.log(`test:weblate: weblate-5.4 ${found.get('weblate-5.4')?.length}, weblate-5.14 ${after.length} differences; 5.14's by reason:`);
    for (const [why, count] of reasons) console.log(`  ${count}: ${why}`);
  });

  it('weblate-5.14 differs only where the reference server is explained to (no unexplained difference)', () => {
    const unexplained = found.get('weblate-5.14')!.filter((difference) => explanationOf(difference) === undefined);
    expect(unexplained.map(line)).toEqual([]);
  });

  it('every explanation still explains a difference (a stale one is taken out of the list and the record)', () => {
    const after = found.get('weblate-5.14')!;
    expect(explained.filter((rule) => !after.some((difference) => explanationOf(difference) === rule)).map((rule) => rule.why)).toEqual([]);
  });

  it('weblate-5.14 answers statuses, error bodies, rate-limit headers, pagination and figures as the real server does', () => {
    const after = found.get('weblate-5.14')!;
    expect(after.filter((d) => d.where === 'status' || d.where.startsWith('header x-ratelimit') || d.where === 'header content-type').map(line)).toEqual([]);
    expect(after.filter((d) => /\$\.(count|next|previous|errors|type|detail)\b/.test(d.where) && !/categories|groups|roles/.test(d.probe)).map(line)).toEqual(
      [],
    );
    expect(after.filter((d) => /statistics|languages\/$/.test(d.probe)).map(line)).toEqual([]);
  });

  it('weblate-5.14 is closer to the real server than weblate-5.4', () => {
    expect(found.get('weblate-5.14')!.length).toBeLessThan(found.get('weblate-5.4')!.length / 3);
  });
});
