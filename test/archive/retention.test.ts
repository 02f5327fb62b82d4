import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoWeek, planRetention, type DatedSnapshot } from '../../archive/retention.ts';

function snapshot(iso: string, complete = true): DatedSnapshot {
  return { id: iso.replace(/[-:]/g, '').replace(/\.\d+/, ''), date: new Date(iso), complete };
}

const ids = (list: readonly DatedSnapshot[]) => list.map((s) => s.id);

describe('isoWeek', () => {
  it.each([
    ['2026-01-01T00:00:00Z', '2026-W01'], // a Thursday: week 1 of its own year
    ['2027-01-01T12:00:00Z', '2026-W53'], // a Friday: still the last week of 2026
    ['2024-12-30T23:59:59Z', '2025-W01'], // a Monday in December opening 2025's week 1
    ['2026-11-22T04:15:00Z', '2026-W47'], // a Sunday: the last day of its week
    ['2026-11-23T00:00:00Z', '2026-W48'],
  ])('%s is in %s', (iso, week) => {
    expect(isoWeek(new Date(iso))).toBe(week);
  });
});

describe('planRetention', () => {
  it('keeps the newest snapshot of each of the last N days, not several of one day', () => {
    const list = [
      snapshot('2026-11-22T18:00:00Z'),
      snapshot('2026-11-22T04:00:00Z'),
      snapshot('2026-11-21T04:00:00Z'),
      snapshot('2026-11-19T04:00:00Z'),
      snapshot('2026-11-18T04:00:00Z'),
    ];
    const plan = planRetention(list, { daily: 3, weekly: 0, monthly: 0 });
    expect(ids(plan.keep.map((k) => k.snapshot))).toEqual(ids([list[0]!, list[2]!, list[3]!]));
    expect(ids(plan.remove)).toEqual(ids([list[1]!, list[4]!]));
    expect(plan.keep[0]?.reasons).toEqual(['newest complete', 'daily 2026-11-22']);
  });

  it('keeps weekly and monthly representatives independently of the daily rule', () => {
    const list = [
      snapshot('2026-11-22T04:00:00Z'), // Sunday, W47, November
      snapshot('2026-11-16T04:00:00Z'), // Monday, W47
      snapshot('2026-11-15T04:00:00Z'), // Sunday, W46
      snapshot('2026-10-31T04:00:00Z'), // W44, October
      snapshot('2026-10-01T04:00:00Z'), // W40, October
      snapshot('2026-09-30T04:00:00Z'), // W40, September
    ];
    const plan = planRetention(list, { daily: 1, weekly: 2, monthly: 3 });
    const kept = new Map(plan.keep.map((k) => [k.snapshot.id, k.reasons]));
    expect(kept.get(list[0]!.id)).toEqual(['newest complete', 'daily 2026-11-22', 'weekly 2026-W47', 'monthly 2026-11']);
    expect(kept.get(list[2]!.id)).toEqual(['weekly 2026-W46']);
    expect(kept.get(list[3]!.id)).toEqual(['monthly 2026-10']);
    expect(kept.get(list[5]!.id)).toEqual(['monthly 2026-09']);
    expect(ids(plan.remove)).toEqual(ids([list[1]!, list[4]!]));
  });

  it('never removes the newest complete snapshot, even with every count at zero', () => {
    const list = [snapshot('2026-11-22T04:00:00Z', false), snapshot('2026-11-21T04:00:00Z'), snapshot('2026-11-20T04:00:00Z')];
    const plan = planRetention(list, { daily: 0, weekly: 0, monthly: 0 });
    expect(plan.keep.map((k) => [k.snapshot.id, k.reasons])).toEqual([[list[1]!.id, ['newest complete']]]);
    expect(ids(plan.remove)).toEqual(ids([list[0]!, list[2]!]));
  });

  it('sorts its input newest first whatever order it comes in', () => {
    const list = [snapshot('2026-11-20T04:00:00Z'), snapshot('2026-11-22T04:00:00Z'), snapshot('2026-11-21T04:00:00Z')];
    const plan = planRetention(list, { daily: 2, weekly: 0, monthly: 0 });
    expect(ids(plan.keep.map((k) => k.snapshot))).toEqual(ids([list[1]!, list[2]!]));
    expect(ids(plan.remove)).toEqual(ids([list[0]!]));
  });

  it('refuses counts that are not whole numbers from 0 up', () => {
    expect(() => planRetention([], { daily: -1, weekly: 0, monthly: 0 })).toThrow(/keep-daily must be a whole number/);
    expect(() => planRetention([], { daily: 0, weekly: 1.5, monthly: 0 })).toThrow(/keep-weekly/);
  });

  it('holds its invariants on random histories', () => {
    const history = fc.uniqueArray(fc.record({ minutes: fc.integer({ min: 0, max: 60 * 24 * 800 }), complete: fc.boolean() }), {
      selector: (s) => s.minutes,
      maxLength: 60,
    });
    const count = fc.integer({ min: 0, max: 10 });
    fc.assert(
      fc.property(history, count, count, count, (rows, daily, weekly, monthly) => {
        const list = rows.map(({ minutes, complete }) => snapshot(new Date(Date.UTC(2025, 0, 1) + minutes * 60_000).toISOString(), complete));
        const plan = planRetention(list, { daily, weekly, monthly });
        // Every snapshot is decided exactly once.
        expect(plan.keep.length + plan.remove.length).toBe(list.length);
        expect(new Set([...ids(plan.keep.map((k) => k.snapshot)), ...ids(plan.remove)]).size).toBe(list.length);
        // The newest complete one survives.
        const newestComplete = [...list].filter((s) => s.complete).sort((a, b) => b.date.getTime() - a.date.getTime())[0];
        if (newestComplete) expect(ids(plan.keep.map((k) => k.snapshot))).toContain(newestComplete.id);
        // The daily rule keeps exactly the newest snapshot of each of the min(N, distinct days) latest days.
        const days = [...new Set(list.map((s) => s.date.toISOString().slice(0, 10)))].sort().reverse().slice(0, daily);
        const dailyKept = plan.keep.filter((k) => k.reasons.some((r) => r.startsWith('daily '))).map((k) => k.snapshot);
        expect(
          dailyKept
            .map((s) => s.date.toISOString().slice(0, 10))
            .sort()
            .reverse(),
        ).toEqual(days);
        for (const kept of dailyKept) {
          const day = kept.date.toISOString().slice(0, 10);
          const newer = list.filter((s) => s.date.toISOString().slice(0, 10) === day && s.date > kept.date);
          expect(newer).toEqual([]);
        }
        expect(plan.keep.length).toBeLessThanOrEqual(daily + weekly + monthly + 1);
      }),
      { numRuns: 200 },
    );
  });
});
