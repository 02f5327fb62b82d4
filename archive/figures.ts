/**
 * Progress figures of a translation, or summed over a project, component or language: the
 * numbers the diff's deltas and the history charts are drawn from. Pure.
 */

import { weblatePercent } from '../api/statistics.ts';

/** Unit counts as Weblate's statistics count them: approved and read-only units are translated too. */
export interface Figures {
  total: number;
  translated: number;
  fuzzy: number;
  total_words: number;
  translated_words: number;
}

export const noFigures: Figures = { total: 0, translated: 0, fuzzy: 0, total_words: 0, translated_words: 0 };

/** A translation record's figures (the record carries its statistics). */
export function translationFigures(record: Figures): Figures {
  return {
    total: record.total,
    translated: record.translated,
    fuzzy: record.fuzzy,
    total_words: record.total_words,
    translated_words: record.translated_words,
  };
}

export function addFigures(a: Figures, b: Figures): Figures {
  return {
    total: a.total + b.total,
    translated: a.translated + b.translated,
    fuzzy: a.fuzzy + b.fuzzy,
    total_words: a.total_words + b.total_words,
    translated_words: a.translated_words + b.translated_words,
  };
}

export interface FiguresDelta {
  before: Figures;
  after: Figures;
  /** after − before, per figure. */
  delta: Figures;
}

export function figuresDelta(before: Figures, after: Figures): FiguresDelta {
  return {
    before,
    after,
    delta: {
      total: after.total - before.total,
      translated: after.translated - before.translated,
      fuzzy: after.fuzzy - before.fuzzy,
      total_words: after.total_words - before.total_words,
      translated_words: after.translated_words - before.translated_words,
    },
  };
}

export function isZeroDelta({ delta }: FiguresDelta): boolean {
  return Object.values(delta).every((value) => value === 0);
}

/** A share with one decimal as the server writes it (api/statistics.ts); 0 for an empty set. */
export function percent(part: number, total: number): number {
  return weblatePercent(part, total, false);
}
