/**
 * The release page's rule (archive/releases.ts), on made-up diffs: which string changes count as
 * newly translated, changed or lost, and how added and removed translations count.
 */
import { describe, expect, it } from 'vitest';
import { assembleDiff, type TranslationEntry, type UnitChange } from '../../archive/diff.ts';
import { noFigures } from '../../archive/figures.ts';
import { releaseByLanguage, releaseKind } from '../../archive/releases.ts';

const change = (kind: UnitChange['kind'], before?: [number, string], after?: [number, string]): UnitChange => ({
  kind,
  id: 1,
  position: 1,
  context: '',
  source: ['Save'],
  ...(before ? { before: { state: before[0], target: [before[1]] } } : {}),
  ...(after ? { after: { state: after[0], target: [after[1]] } } : {}),
});

const entry = (component: string, language: string, translated: number, unitsHash = 'h'): TranslationEntry => ({
  path: `api/translations/p/${component}/${language}/`,
  project: { slug: 'p', name: 'P' },
  component: { slug: component, name: component },
  language: { slug: language, name: language.toUpperCase() },
  figures: { ...noFigures, total: 10, translated },
  unitsHash,
});

describe('what a release counts', () => {
  it('counts a string newly translated, changed or lost by its state and text at both releases', () => {
    expect(releaseKind(change('translated', [0, ''], [20, 'Uložit']))).toBe('translated');
    // Straight to approved from untranslated: newly translated, though the diff calls it approved.
    expect(releaseKind(change('approved', [10, 'Ulož'], [30, 'Uložit']))).toBe('translated');
    expect(releaseKind(change('added', undefined, [20, 'Uložit']))).toBe('translated');
    expect(releaseKind(change('changed', [20, 'Ulož'], [20, 'Uložit']))).toBe('changed');
    expect(releaseKind(change('approved', [20, 'Uložit'], [30, 'Uložit']))).toBeUndefined();
    expect(releaseKind(change('marked_for_edit', [20, 'Uložit'], [10, 'Uložit']))).toBe('lost');
    expect(releaseKind(change('changed', [30, 'Uložit'], [0, '']))).toBe('lost');
    // The source dropped the string: not lost work.
    expect(releaseKind(change('removed', [20, 'Uložit']))).toBeUndefined();
    expect(releaseKind(change('changed', [10, 'Ulož'], [10, 'Ulo']))).toBeUndefined();
  });

  it('counts an added translation’s translated strings as newly translated and a removed one’s as lost, per language', () => {
    const before = [entry('a', 'cs', 4, 'x'), entry('gone', 'de', 3)];
    const after = [entry('a', 'cs', 5, 'y'), entry('new', 'cs', 7)];
    const diff = assembleDiff('s1', 's2', before, after, new Map([['api/translations/p/a/cs/', [change('translated', [0, ''], [20, 'Uložit'])]]]));
    expect(
      releaseByLanguage(before, after, diff).map(({ language, translated, changed, lost, before: b, after: a }) => [
        language.slug,
        translated,
        changed,
        lost,
        b.translated,
        a.translated,
      ]),
    ).toEqual([
      ['cs', 8, 0, 0, 4, 12],
      ['de', 0, 0, 3, 3, 0],
    ]);
    // The first release: figures only.
    expect(releaseByLanguage([], after, undefined).map(({ translated, lost }) => translated + lost)).toEqual([0]);
  });

  it('leaves out translations neither release lists (the source language’s)', () => {
    const before = [entry('a', 'cs', 4, 'x')];
    const after = [entry('a', 'cs', 4, 'x')];
    const source = { ...entry('a', 'en', 10, 'x'), path: 'api/translations/p/a/en/' };
    const diff = assembleDiff(
      's1',
      's2',
      [source],
      [{ ...source, unitsHash: 'z' }],
      new Map([[source.path, [change('changed', [100, 'Save'], [100, 'Save all'])]]]),
    );
    expect(releaseByLanguage(before, after, diff).map(({ language, changed }) => [language.slug, changed])).toEqual([['cs', 0]]);
  });
});
