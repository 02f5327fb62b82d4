/** Figures of a progress bar: translated (approved included), needs editing, the rest untranslated. */
export interface Progress {
  total: number;
  translated: number;
  fuzzy: number;
}

export interface ProgressSegments {
  translatedPercent: number;
  fuzzyPercent: number;
  untranslatedPercent: number;
  label: string;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

export function progressSegments({ total, translated, fuzzy }: Progress, unit = 'strings'): ProgressSegments {
  if (total <= 0) return { translatedPercent: 0, fuzzyPercent: 0, untranslatedPercent: 0, label: `no ${unit}` };
  const clampedTranslated = Math.min(Math.max(translated, 0), total);
  const clampedFuzzy = Math.min(Math.max(fuzzy, 0), total - clampedTranslated);
  const translatedPercent = round1((clampedTranslated / total) * 100);
  const fuzzyPercent = round1((clampedFuzzy / total) * 100);
  const untranslatedPercent = round1(Math.max(100 - translatedPercent - fuzzyPercent, 0));
  return {
    translatedPercent,
    fuzzyPercent,
    untranslatedPercent,
    label: `${translatedPercent}% of ${total} ${unit} translated, ${fuzzyPercent}% need editing, ${untranslatedPercent}% untranslated`,
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
