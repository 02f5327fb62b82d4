import { percent } from './format.ts';

/** Figures of a progress bar: translated (approved included), needs editing, the rest untranslated. */
export interface Progress {
  total: number;
  translated: number;
  fuzzy: number;
  /** The server's figure, where the progress is a translation record's: shown as it is. */
  translated_percent?: number;
  /** Review on where the figures were summed: an empty set is then 0% translated (Weblate's stats). */
  review?: boolean;
}

/** The translated percentage the server shows for these figures (docs/weblate-api.md, Values). */
export function translatedPercent(progress: Progress): number {
  return progress.translated_percent ?? percent(progress.translated, progress.total, progress.review !== true);
}

export interface ProgressSegments {
  translatedPercent: number;
  fuzzyPercent: number;
  untranslatedPercent: number;
  label: string;
}

/** The bar's shares, rounded as the server rounds them, so that bar and figure never disagree. */
export function progressSegments(progress: Progress, unit = 'strings'): ProgressSegments {
  const { total, translated, fuzzy } = progress;
  if (total <= 0) return { translatedPercent: translatedPercent(progress), fuzzyPercent: 0, untranslatedPercent: 0, label: `no ${unit}` };
  const clampedTranslated = Math.min(Math.max(translated, 0), total);
  const clampedFuzzy = Math.min(Math.max(fuzzy, 0), total - clampedTranslated);
  const translatedShare = unit === 'strings' ? translatedPercent({ ...progress, translated: clampedTranslated }) : percent(clampedTranslated, total);
  const fuzzyPercent = percent(clampedFuzzy, total, false);
  // Each share of its own count, as Weblate floors each (docs/weblate-api.md, Values): the rest
  // of 100 would exceed the untranslated share by up to 0.2 points (issue 35).
  const untranslatedPercent = percent(total - clampedTranslated - clampedFuzzy, total, false);
  return {
    translatedPercent: translatedShare,
    fuzzyPercent,
    untranslatedPercent,
    label: `${translatedShare}% of ${total} ${unit} translated, ${fuzzyPercent}% need editing, ${untranslatedPercent}% untranslated`,
  };
}

/** Progress classes for the components × languages matrix cells. */
export function progressClass(percent: number): string {
  if (percent >= 100) return 'p100';
  if (percent >= 90) return 'p90';
  if (percent >= 50) return 'p50';
  if (percent > 0) return 'p1';
  return 'p0';
}
