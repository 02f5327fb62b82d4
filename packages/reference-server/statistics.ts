import type { Counts, UnitRow } from './model.ts';

export type { Counts } from './model.ts';

export const noCounts: Counts = {
  total: 0,
  totalWords: 0,
  translated: 0,
  translatedWords: 0,
  fuzzy: 0,
  fuzzyWords: 0,
  approved: 0,
  approvedWords: 0,
  readonly: 0,
  readonlyWords: 0,
  failing: 0,
  failingWords: 0,
  failingChars: 0,
  failingSeparators: 0,
  suggestions: 0,
  comments: 0,
  totalChars: 0,
  translatedChars: 0,
  fuzzyChars: 0,
  approvedChars: 0,
  readonlyChars: 0,
  totalSeparators: 0,
  translatedSeparators: 0,
  fuzzySeparators: 0,
  approvedSeparators: 0,
  readonlySeparators: 0,
};

/** What counting reads of a unit. */
export type CountedUnit = Pick<UnitRow, 'state' | 'num_words' | 'has_suggestion' | 'has_comment' | 'has_failing_check'> & {
  source?: readonly string[];
};

/** Characters of a unit's source, every plural form counted. */
export function charsOf(unit: CountedUnit): number {
  return unit.source ? unit.source.reduce((sum, form) => sum + form.length, 0) : 0;
}

export function countUnits(units: Iterable<CountedUnit>, into: Counts = { ...noCounts }): Counts {
  for (const unit of units) {
    const words = unit.num_words;
    const chars = charsOf(unit);
    const separators = unit.source && unit.source.length > 1 ? 2 * (unit.source.length - 1) : 0;
    into.total++;
    into.totalWords += words;
    into.totalChars += chars;
    into.totalSeparators += separators;
    // Weblate counts approved and read-only units as translated too.
    if (unit.state >= 20) {
      into.translated++;
      into.translatedWords += words;
      into.translatedChars += chars;
      into.translatedSeparators += separators;
    }
    if (unit.state >= 10 && unit.state < 20) {
      into.fuzzy++;
      into.fuzzyWords += words;
      into.fuzzyChars += chars;
      into.fuzzySeparators += separators;
    }
    if (unit.state === 30) {
      into.approved++;
      into.approvedWords += words;
      into.approvedChars += chars;
      into.approvedSeparators += separators;
    }
    if (unit.state === 100) {
      into.readonly++;
      into.readonlyWords += words;
      into.readonlyChars += chars;
      into.readonlySeparators += separators;
    }
    if (unit.has_failing_check) {
      into.failing++;
      into.failingWords += words;
      into.failingChars += chars;
      into.failingSeparators += separators;
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

/**
 * 5.14's `translation_percent` (weblate/trans/util.py): rounded down to one decimal, 0.1 and
 * 99.9 instead of a misleading 0.0 or 100.0, and an empty set `zeroComplete` (100) for the
 * figure that means done: translated, or approved where the translation is reviewed.
 */
export function percentRoundedDown(part: number, total: number, zeroComplete = false): number {
  if (total === 0) return zeroComplete ? 100 : 0;
  const value = Math.floor((1000 * part) / total) / 10;
  if (value === 0 && part !== 0) return 0.1;
  if (value === 100 && part < total) return 99.9;
  return value;
}

/** How 5.14 writes statistics (profile `statistics514`); `review`: the objects counted are reviewed. */
export interface Statistics514 {
  review: boolean;
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
export function statisticsRecord(
  counts: Counts,
  last: LastChange | null,
  recentChanges: number,
  weblateFields = false,
  v514?: Statistics514,
): Record<string, unknown> {
  if (v514) return statisticsRecord514(counts, last, recentChanges, v514);
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
    ...(weblateFields ? charStatistics(counts) : {}),
  };
}

/** What 5.4 adds to every statistics object: character counts and the missing word percentages. */
function charStatistics(counts: Counts): Record<string, number> {
  return {
    total_chars: counts.totalChars,
    translated_chars: counts.translatedChars,
    translated_chars_percent: percent(counts.translatedChars, counts.totalChars),
    fuzzy_chars: counts.fuzzyChars,
    fuzzy_chars_percent: percent(counts.fuzzyChars, counts.totalChars),
    fuzzy_words_percent: percent(counts.fuzzyWords, counts.totalWords),
    approved_chars: counts.approvedChars,
    approved_chars_percent: percent(counts.approvedChars, counts.totalChars),
    approved_words_percent: percent(counts.approvedWords, counts.totalWords),
    readonly_chars: counts.readonlyChars,
    readonly_chars_percent: percent(counts.readonlyChars, counts.totalChars),
    readonly_words_percent: percent(counts.readonlyWords, counts.totalWords),
  };
}

/**
 * A statistics object as Weblate 5.14 writes it (measured against 5.14.3,
 * docs/decisions/2026-11-26-reference-vs-weblate-5.14.md): no `untranslated*` nor
 * `last_author`, percentages rounded down, characters counted with the plural separators.
 */
function statisticsRecord514(counts: Counts, last: LastChange | null, recentChanges: number, { review }: Statistics514): Record<string, unknown> {
  const done = (base: 'translated' | 'approved') => (review ? base === 'approved' : base === 'translated');
  const pct = (part: number, total: number, base?: 'translated' | 'approved') => percentRoundedDown(part, total, base !== undefined && done(base));
  const chars = {
    total: counts.totalChars + counts.totalSeparators,
    translated: counts.translatedChars + counts.translatedSeparators,
    fuzzy: counts.fuzzyChars + counts.fuzzySeparators,
    approved: counts.approvedChars + counts.approvedSeparators,
    readonly: counts.readonlyChars + counts.readonlySeparators,
  };
  return {
    total: counts.total,
    total_words: counts.totalWords,
    total_chars: chars.total,
    last_change: last?.timestamp ?? null,
    recent_changes: recentChanges,
    translated: counts.translated,
    translated_words: counts.translatedWords,
    translated_percent: pct(counts.translated, counts.total, 'translated'),
    translated_words_percent: pct(counts.translatedWords, counts.totalWords, 'translated'),
    translated_chars: chars.translated,
    translated_chars_percent: pct(chars.translated, chars.total, 'translated'),
    fuzzy: counts.fuzzy,
    fuzzy_percent: pct(counts.fuzzy, counts.total),
    fuzzy_words: counts.fuzzyWords,
    fuzzy_words_percent: pct(counts.fuzzyWords, counts.totalWords),
    fuzzy_chars: chars.fuzzy,
    fuzzy_chars_percent: pct(chars.fuzzy, chars.total),
    failing: counts.failing,
    failing_percent: pct(counts.failing, counts.total),
    approved: counts.approved,
    approved_percent: pct(counts.approved, counts.total, 'approved'),
    approved_words: counts.approvedWords,
    approved_words_percent: pct(counts.approvedWords, counts.totalWords, 'approved'),
    approved_chars: chars.approved,
    approved_chars_percent: pct(chars.approved, chars.total, 'approved'),
    readonly: counts.readonly,
    readonly_percent: pct(counts.readonly, counts.total),
    readonly_words: counts.readonlyWords,
    readonly_words_percent: pct(counts.readonlyWords, counts.totalWords),
    readonly_chars: chars.readonly,
    readonly_chars_percent: pct(chars.readonly, chars.total),
    suggestions: counts.suggestions,
    comments: counts.comments,
  };
}
