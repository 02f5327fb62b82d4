import type { UnitRow } from './model.ts';

/** Unit and word counts of a set of units, by state (weblate-api-facts.md state values). */
export interface Counts {
  total: number;
  totalWords: number;
  translated: number;
  translatedWords: number;
  fuzzy: number;
  fuzzyWords: number;
  approved: number;
  approvedWords: number;
  readonly: number;
  readonlyWords: number;
  failing: number;
  failingWords: number;
  suggestions: number;
  comments: number;
}

export const noCounts: Counts = {
  total: 0, totalWords: 0, translated: 0, translatedWords: 0, fuzzy: 0, fuzzyWords: 0, approved: 0, approvedWords: 0,
  readonly: 0, readonlyWords: 0, failing: 0, failingWords: 0, suggestions: 0, comments: 0,
};

/** What counting reads of a unit. */
export type CountedUnit = Pick<UnitRow, 'state' | 'num_words' | 'has_suggestion' | 'has_comment' | 'has_failing_check'>;

export function countUnits(units: Iterable<CountedUnit>, into: Counts = { ...noCounts }): Counts {
  for (const unit of units) {
    const words = unit.num_words;
    into.total++;
    into.totalWords += words;
    // Weblate counts approved and read-only units as translated too.
    if (unit.state >= 20) {
      into.translated++;
      into.translatedWords += words;
    }
    if (unit.state >= 10 && unit.state < 20) {
      into.fuzzy++;
      into.fuzzyWords += words;
    }
    if (unit.state === 30) {
      into.approved++;
      into.approvedWords += words;
    }
    if (unit.state === 100) {
      into.readonly++;
      into.readonlyWords += words;
    }
    if (unit.has_failing_check) {
      into.failing++;
      into.failingWords += words;
    }
    if (unit.has_suggestion) into.suggestions++;
    if (unit.has_comment) into.comments++;
  }
  return into;
}

export function addCounts(a: Counts, b: Counts): Counts {
  const sum = { ...a };
  for (const key of Object.keys(sum) as (keyof Counts)[]) sum[key] += b[key];
  return sum;
}

/**
 * Weblate's `translation_percent`: one decimal, and never 100.0 unless complete nor 0.0
 * unless nothing at all, so a single missing string still shows.
 */
export function percent(part: number, total: number): number {
  if (total === 0 || part === 0) return 0;
  if (part >= total) return 100;
  const value = Math.round((1000 * part) / total) / 10;
  if (value >= 100) return 99.9;
  return value === 0 ? 0.1 : value;
}

/** The latest change of an object: its time and author's display name. */
export interface LastChange {
  timestamp: string;
  author: string | null;
}

/**
 * The body of a `statistics/` endpoint (and of each entry of the lists of them).
 * `recentChanges` counts the last 24 hours' changes (wlc expects the field).
 */
export function statisticsRecord(counts: Counts, last: LastChange | null, recentChanges: number): Record<string, unknown> {
  const untranslated = counts.total - counts.translated - counts.fuzzy;
  const untranslatedWords = counts.totalWords - counts.translatedWords - counts.fuzzyWords;
  return {
    total: counts.total,
    total_words: counts.totalWords,
    translated: counts.translated,
    translated_words: counts.translatedWords,
    translated_percent: percent(counts.translated, counts.total),
    translated_words_percent: percent(counts.translatedWords, counts.totalWords),
    fuzzy: counts.fuzzy,
    fuzzy_words: counts.fuzzyWords,
    fuzzy_percent: percent(counts.fuzzy, counts.total),
    failing: counts.failing,
    failing_percent: percent(counts.failing, counts.total),
    approved: counts.approved,
    approved_words: counts.approvedWords,
    approved_percent: percent(counts.approved, counts.total),
    readonly: counts.readonly,
    readonly_words: counts.readonlyWords,
    readonly_percent: percent(counts.readonly, counts.total),
    untranslated,
    untranslated_words: untranslatedWords,
    untranslated_percent: percent(untranslated, counts.total),
    suggestions: counts.suggestions,
    comments: counts.comments,
    recent_changes: recentChanges,
    last_change: last?.timestamp ?? null,
    last_author: last?.author ?? null,
  };
}
