import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareSnapshots } from '../../archive/compare.ts';
import { classifyUnit, diffUnits, type SnapshotDiff } from '../../archive/diff.ts';
import { formatDiff } from '../../archive/report.ts';
import type { StoredUnit } from '../../snapshot/index.ts';
import { fixtureModel, startTestServer } from '../helpers/reference-server.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { randomActivity, type ExpectedDiff } from './activity.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import type { ReferenceServer } from '../../packages/reference-server/server.ts';

/**
 * What these tests need from a server, said explicitly so they pass under any default profile:
 * a token (private projects are hidden from anonymous clients of real servers) and limits no
 * crawl here reaches (a 5.4 server allows anonymous clients 100 requests a day).
 */
const token = 'diff-test-token';
const behaviours = { tokens: [token], rateLimit: raisedRateLimit };
const crawlInto = async (server: ReferenceServer, content: string) => (await crawlComplete(server, content, { token })).snapshotId;

const isTranslated = (state: number | undefined) => (state ?? 0) >= 20;

function checkAgainstRecords(diff: SnapshotDiff, expected: ExpectedDiff): void {
  const actual = new Map<string, string>();
  const targets = new Map<string, string[]>();
  for (const translation of diff.translations.filter((t) => t.status === 'changed')) {
    for (const change of translation.changes) {
      actual.set(`${translation.path}#${change.id}`, change.kind);
      if (change.after) targets.set(`${translation.path}#${change.id}`, change.after.target);
    }
    // The unit lines and the server's own statistics must tell the same story.
    const moved = translation.changes.reduce((sum, c) => sum + Number(isTranslated(c.after?.state)) - Number(isTranslated(c.before?.state)), 0);
    expect(translation.figures.delta.translated, translation.path).toBe(moved);
  }
  expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected.units));
  for (const [key, target] of expected.targets) expect(targets.get(key), key).toEqual(target);
  const withStatus = (status: string) => new Set(diff.translations.filter((t) => t.status === status).map((t) => t.path));
  expect(withStatus('added')).toEqual(expected.addedTranslations);
  expect(withStatus('removed')).toEqual(expected.removedTranslations);
  expect(diff.totals.translated).toBe([...expected.units.values()].filter((kind) => kind === 'translated').length);
}

describe('tmsnap diff against the reference server', () => {
  const contentDir = useContentFolders('tmsnap-archive-', 'all');

  it('reports exactly the strings the mutation records name, with their kinds and texts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (seed) => {
        const model = fixtureModel();
        const server = await startTestServer({ data: model, behaviours });
        try {
          const content = await contentDir();
          let before = await crawlInto(server, content);
          // Two rounds: the second meets the units the first marked for editing or approved.
          for (const round of [1, 2]) {
            const expected = randomActivity(model, seed * 2 + round, { unitMutations: 6, structural: true });
            const after = await crawlInto(server, content);
            const diff = await compareSnapshots(content, before, after);
            checkAgainstRecords(diff, expected);
            before = after;
          }
        } finally {
          await server.close();
        }
      }),
      { numRuns: 6 },
    );
  }, 120_000);

  it('diffs nothing between two crawls of an unchanged server', async () => {
    const server = await startTestServer({ behaviours });
    try {
      const content = await contentDir();
      const first = await crawlInto(server, content);
      const second = await crawlInto(server, content);
      const diff = await compareSnapshots(content, first, second);
      expect(diff.translations).toEqual([]);
      expect(diff.projects).toEqual([]);
      // An unknown language is refused as search refuses it, not answered "no changes" (issue 35).
      const known = await tmsnap(['diff', '--lang', 'cs', '--content', content]);
      expect(known.code, known.stderr).toBe(0);
      expect(known.stdout).toContain('no changes');
      const typo = await tmsnap(['diff', '--lang', 'cz', '--content', content]);
      expect(typo.code).toBe(2);
      expect(typo.stderr.split('\n')[0]).toMatch(
        new RegExp(`^tmsnap diff: no language "cz" in snapshot ${first} or ${second} \\(known: [a-z, ]*cs[a-z, ]*\\): did you mean --lang cs\\?$`),
      );
      expect(typo.stdout).toBe('');
    } finally {
      await server.close();
    }
  });
});

function unit(fields: Partial<StoredUnit>): StoredUnit {
  return { id: 1, position: 1, state: 0, target: [''], source: ['Open'], context: '', ...fields } as StoredUnit;
}

describe('classifyUnit', () => {
  it.each([
    [0, 20, 'translated'],
    [10, 20, 'translated'],
    [0, 30, 'approved'],
    [20, 30, 'approved'],
    [20, 10, 'marked_for_edit'],
    [30, 12, 'marked_for_edit'],
    [20, 11, 'marked_for_edit'],
    [11, 20, 'translated'],
    // 5.15's kinds of needs editing among themselves: still needing editing, another state.
    [10, 11, 'changed'],
    [12, 10, 'changed'],
    [30, 20, 'changed'],
    [20, 0, 'changed'],
  ] as const)('state %i → %i is %s', (from, to, kind) => {
    expect(classifyUnit(unit({ state: from, target: ['a'] }), unit({ state: to, target: ['a'] }))).toBe(kind);
  });

  it('sees a new target text in the same state as changed, and nothing else as a change', () => {
    expect(classifyUnit(unit({ state: 20, target: ['a'] }), unit({ state: 20, target: ['b'] }))).toBe('changed');
    expect(classifyUnit(unit({ state: 20, target: ['a'], timestamp: 'x' }), unit({ state: 20, target: ['a'], timestamp: 'y' }))).toBeUndefined();
  });

  it('matches units by id, lists removed ones at their old position', () => {
    const changes = diffUnits([unit({ id: 1, position: 1 }), unit({ id: 2, position: 2 })], [unit({ id: 3, position: 1 }), unit({ id: 1, position: 2 })]);
    expect(changes.map((c) => [c.kind, c.id])).toEqual([
      ['added', 3],
      ['removed', 2],
    ]);
  });
});

describe('formatDiff', () => {
  it('names states and empty texts in the site’s words, and the release tags beside their snapshots (issue 35)', () => {
    const [change] = diffUnits([unit({ id: 1, position: 1, state: 0, target: [''] })], [unit({ id: 1, position: 1, state: 11, target: ['b'] })]);
    const named = { slug: 'x', name: 'X' };
    const figures = { before: { total: 1, translated: 0, fuzzy: 0, translated_words: 0 }, after: { total: 1, translated: 0, fuzzy: 1, translated_words: 0 } };
    const diff = {
      from: '2026-11-10T041500Z',
      to: '2026-11-11T041500Z',
      totals: { added: 0, removed: 0, translated: 0, changed: 0, marked_for_edit: 1, approved: 0 },
      projects: [],
      components: [],
      languages: [],
      translations: [
        {
          path: 'api/translations/x/y/de/',
          status: 'changed',
          project: named,
          component: named,
          language: { slug: 'de', name: 'German' },
          counts: { added: 0, removed: 0, translated: 0, changed: 0, marked_for_edit: 1, approved: 0 },
          figures: { ...figures, delta: { total: 0, translated: 0, fuzzy: 1, translated_words: 0 } },
          changes: [change!],
        },
      ],
    } as unknown as SnapshotDiff;
    const text = formatDiff(diff, new Map([['2026-11-11T041500Z', ['v2.0']]]));
    expect(text.split('\n')[0]).toBe('Changes from snapshot 2026-11-10T041500Z to 2026-11-11T041500Z (v2.0)');
    expect(text).toContain('        before: (untranslated) [untranslated]\n        after:  "b" [needs editing (needs rewriting)]');
  });
});
