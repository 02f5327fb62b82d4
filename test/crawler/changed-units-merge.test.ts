import { describe, expect, it } from 'vitest';
import { action } from '../../api/change.ts';
import { listWorthIt, mergeUnits, noteChange, noUnitChanges, type UnitChanges } from '../../crawler/tasks/changed-units.ts';

/** The pure half of a night after edits (crawler/tasks/changed-units.ts): what the log says, and when a merge is proven right. */

const unit = (id: number, fields: Record<string, unknown> = {}) => ({ id, url: `http://h/api/units/${id}/`, target: [`t${id}`], pending: false, ...fields });
const pathOf = (record: unknown) => /api\/units\/\d+\//.exec(String((record as { url?: unknown }).url))?.[0];

function log(...entries: [number, number | undefined][]): UnitChanges {
  const changes = noUnitChanges();
  for (const [code, id] of entries) noteChange(changes, code, id === undefined ? undefined : `api/units/${id}/`);
  return changes;
}

describe('noteChange', () => {
  it('lists units of content actions, and marks suggestions, comments, removals and unknown translation-wide actions unexplained', () => {
    expect([...log([action.translationChanged, 1], [action.translationApproved, 2]).listed]).toEqual(['api/units/1/', 'api/units/2/']);
    expect(log([action.translationChanged, 1]).unexplained).toBe(false);
    for (const code of [action.suggestionAdded, action.commentAdded, action.sourceStringAdded, action.labelAdded])
      expect(log([code, 1]).unexplained, `${code}`).toBe(true);
    for (const code of [action.stringRemoved, action.languageAdded, action.resourceUpdated, action.repositoryMerged])
      expect(log([code, undefined]).unexplained, `${code}`).toBe(true);
    expect(log([action.translationCompleted, undefined], [action.changesPushed, undefined]).unexplained).toBe(false);
    // Weblate 5.14.3 names the unit of a user's first edit in a translation in "Contributor joined".
    expect(log([action.contributorJoined, 1], [action.translationChanged, 1]).unexplained).toBe(false);
    const committed = log([action.changesCommitted, undefined]);
    expect([committed.committed, committed.unexplained]).toEqual([true, false]);
  });
});

describe('mergeUnits', () => {
  const previous = [unit(1), unit(2), unit(3)];

  it('replaces changed units and adds new ones', () => {
    const merged = mergeUnits({
      previous,
      changed: [unit(2, { target: ['new'] }), unit(4)],
      pathOf,
      log: log([action.translationChanged, 2], [action.stringAdded, 4]),
      total: 4,
    });
    expect('units' in merged && merged.units).toEqual([unit(1), unit(2, { target: ['new'] }), unit(3), unit(4)]);
    // What the writer stores as it was, and what it validates and normalizes (putMergedUnits).
    expect('kept' in merged && merged.kept).toEqual([unit(1), unit(3)]);
    expect('fresh' in merged && merged.fresh).toEqual([unit(2, { target: ['new'] }), unit(4)]);
  });

  it('reads previous units as stored through their own paths, a unit changed twice once', () => {
    const stored = [1, 2, 3].map((id) => ({ id, url: `api/units/${id}/`, pending: false }));
    const merged = mergeUnits({
      previous: stored,
      changed: [unit(2, { target: ['first'] }), unit(2, { target: ['second'] })],
      pathOf,
      previousPathOf: (record) => String((record as { url: string }).url),
      log: log([action.translationChanged, 2]),
      total: 3,
    });
    expect('kept' in merged && merged.kept).toEqual([stored[0], stored[2]]);
    expect('fresh' in merged && merged.fresh).toEqual([unit(2, { target: ['second'] })]);
    // Without their own paths, the stored links name no unit under the API root: no merge.
    expect(mergeUnits({ previous: stored, changed: [], pathOf: () => undefined, log: log(), total: 3 })).toHaveProperty('fallback');
  });

  it('falls back when the count is not the total, a listed unit is missing, the log is unexplained, or a commit may have cleared pending', () => {
    const changed = [unit(2, { target: ['new'] })];
    expect(mergeUnits({ previous, changed, pathOf, log: log([action.translationChanged, 2]), total: 4 })).toHaveProperty('fallback');
    expect(mergeUnits({ previous, changed, pathOf, log: log([action.translationChanged, 2]), total: undefined })).toHaveProperty('fallback');
    expect(mergeUnits({ previous, changed, pathOf, log: log([action.translationChanged, 2], [action.translationChanged, 3]), total: 3 })).toHaveProperty(
      'fallback',
    );
    expect(mergeUnits({ previous, changed, pathOf, log: log([action.translationChanged, 2], [action.suggestionAdded, 1]), total: 3 })).toHaveProperty(
      'fallback',
    );
    const pending = [unit(1, { pending: true }), unit(2), unit(3)];
    expect(
      mergeUnits({ previous: pending, changed, pathOf, log: log([action.translationChanged, 2], [action.changesCommitted, undefined]), total: 3 }),
    ).toHaveProperty('fallback');
    // Without a commit, or with the pending unit in the list, the merge stands.
    expect(mergeUnits({ previous: pending, changed, pathOf, log: log([action.translationChanged, 2]), total: 3 })).toHaveProperty('units');
    expect(
      mergeUnits({
        previous: pending,
        changed: [unit(1), ...changed],
        pathOf,
        log: log([action.translationChanged, 2], [action.changesCommitted, undefined]),
        total: 3,
      }),
    ).toHaveProperty('units');
  });

  it('after a commit, with what commits wrote in the list, keeps a previous pending unit the list does not name (the commit left it)', () => {
    const pending = [unit(1, { pending: true }), unit(2), unit(3, { pending: true })];
    const merged = mergeUnits({
      previous: pending,
      changed: [unit(3, { last_updated: 'later' })],
      pathOf,
      log: log([action.changesCommitted, undefined]),
      total: 3,
      commitsListed: true,
    });
    expect('units' in merged && merged.units).toEqual([unit(1, { pending: true }), unit(2), unit(3, { last_updated: 'later' })]);
  });
});

describe('listWorthIt', () => {
  it('takes the list when it costs fewer requests than one units/ per mergeable translation', () => {
    expect(listWorthIt(2, 5, 10_000)).toBe(true);
    expect(listWorthIt(1, 5, 10_000)).toBe(false);
    expect(listWorthIt(3, 25_000, 10_000)).toBe(false);
    expect(listWorthIt(4, 25_000, 10_000)).toBe(true);
    expect(listWorthIt(10_100, 100_000, 10_000)).toBe(true);
    // After a commit a second list, of what commits wrote, costs a request more.
    expect(listWorthIt(2, 5, 10_000, true)).toBe(false);
    expect(listWorthIt(3, 5, 10_000, true)).toBe(true);
  });
});
