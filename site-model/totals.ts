/** String and word counts summed over translations (a component, a project, the whole site). */
export interface Totals {
  total: number;
  translated: number;
  fuzzy: number;
  total_words: number;
  translated_words: number;
  fuzzy_words: number;
  /**
   * Whether review is on where these were summed: then an empty set is 0% translated, not 100%
   * (Weblate's stats; languages and the whole instance always count as reviewed).
   */
  review?: boolean;
  /** The server's own translated percentage, where these are a translation record's. */
  translated_percent?: number;
}

/** Zero figures, to be summed where review is on (`review`) or off. */
export const emptyTotals = (review: boolean): Totals => ({ total: 0, translated: 0, fuzzy: 0, total_words: 0, translated_words: 0, fuzzy_words: 0, review });

export function addTotals(into: Totals, record: Totals): void {
  into.total += record.total;
  into.translated += record.translated;
  into.fuzzy += record.fuzzy;
  into.total_words += record.total_words;
  into.translated_words += record.translated_words;
  into.fuzzy_words += record.fuzzy_words;
}
