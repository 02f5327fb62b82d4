/**
 * The rules of "where help is needed" (src/data/help-needed.ts) on their own: what a string
 * needs by state and flags, what the server's figures count, and the order of a language's
 * translations. The pages built from them are test/site/help-needed.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { helpRows, needCounts, unitNeeds, unitsByNeed } from '../../src/data/help-needed.ts';
import type { LanguageEntry, TranslationEntry } from '../../src/data/tree.ts';

const unit = (state: number, flags: { check?: boolean; suggestion?: boolean } = {}) => ({
  state,
  has_failing_check: flags.check ?? false,
  has_suggestion: flags.suggestion ?? false,
});

describe('what a string needs', () => {
  it('reads the state as Weblate counts it, 5.15’s needs rewriting and checking as needing editing', () => {
    expect(unitNeeds(unit(0), false)).toEqual(['untranslated']);
    for (const state of [10, 11, 12]) expect(unitNeeds(unit(state), false)).toEqual(['needs-editing']);
    expect(unitNeeds(unit(20), false)).toEqual([]);
    expect(unitNeeds(unit(30), true)).toEqual([]);
    expect(unitNeeds(unit(100), true)).toEqual([]);
  });

  it('waits for review only where the project reviews, and adds the flags the API sends', () => {
    expect(unitNeeds(unit(20), true)).toEqual(['waiting-for-review']);
    expect(unitNeeds(unit(20, { check: true, suggestion: true }), true)).toEqual(['failing-checks', 'suggestions', 'waiting-for-review']);
    expect(unitNeeds(unit(0, { suggestion: true }), true)).toEqual(['untranslated', 'suggestions']);
  });

  it('lists a translation’s units under each need in the order given', () => {
    const units = [unit(0), unit(20, { check: true }), unit(0), unit(30)].map((u, index) => ({ ...u, position: index + 1 }));
    const lists = unitsByNeed(units, true);
    expect(lists.get('untranslated')?.map((u) => u.position)).toEqual([1, 3]);
    expect(lists.get('failing-checks')?.map((u) => u.position)).toEqual([2]);
    expect(lists.get('waiting-for-review')?.map((u) => u.position)).toEqual([2]);
    expect(lists.has('suggestions')).toBe(false);
  });
});

describe('the server’s figures', () => {
  const record = { total: 10, translated: 6, fuzzy: 1, failing_checks: 2, have_suggestion: 3 };

  it('counts untranslated as total − translated − fuzzy, and review from statistics only', () => {
    expect(needCounts(record, undefined, true)).toEqual({ untranslated: 3, 'needs-editing': 1, 'failing-checks': 2, suggestions: 3 });
    expect(needCounts(record, { translated: 6, approved: 2, readonly: 1 }, true)['waiting-for-review']).toBe(3);
    expect(needCounts(record, { translated: 6, approved: 2, readonly: 1 }, false)['waiting-for-review']).toBeUndefined();
  });
});

describe('a language’s translations, most important first', () => {
  /** A translation of `component` (priority, words left) into a language, with what it needs. */
  function translation(component: string, priority: number, wordsLeft: number, untranslated: number): TranslationEntry {
    return {
      record: {
        total: 10,
        translated: 10 - untranslated,
        fuzzy: 0,
        failing_checks: 0,
        have_suggestion: 0,
        total_words: 100,
        translated_words: 100 - wordsLeft,
      },
      language: { code: 'cs' },
      component: { sourceLanguage: 'en', record: { name: component, priority }, project: { record: { name: 'P', translation_review: false } } },
    } as unknown as TranslationEntry;
  }

  it('orders by priority (lower first), then most words left, and leaves out what needs nothing', () => {
    const language = {
      translations: [
        translation('a', 100, 50, 5),
        translation('b', 60, 1, 1),
        translation('c', 100, 80, 2),
        translation('done', 60, 0, 0),
        translation('d', 140, 90, 9),
      ],
    } as unknown as LanguageEntry;
    expect(helpRows(language, () => undefined).map((row) => row.translation.component.record.name)).toEqual(['b', 'c', 'a', 'd']);
  });
});
