/**
 * Where help is needed (issue 26): what a translation still needs — untranslated strings, strings
 * marked for editing, failing checks, suggestions, and strings waiting for review where the
 * project reviews — counted from the server's figures for a language's page, and listed from the
 * units for the static lists behind each count (src/templates/need-pages.ts). One set of rules
 * for both, Weblate's own (packages/reference-server/statistics.ts counts the same way; docs/guide.md, "Language").
 */
import type { StoredStatistics, StoredTranslation, StoredUnit } from '../../snapshot/index.ts';
import type { LanguageEntry, TranslationEntry } from './tree.ts';

/** What a string can need, in the order pages show them; each is a folder name of the lists (site-model/paths.ts). */
export const needs = ['untranslated', 'needs-editing', 'failing-checks', 'suggestions', 'waiting-for-review'] as const;
export type Need = (typeof needs)[number];

/**
 * Whether approval is the last step of a translation: Weblate's `enable_review` is the project's
 * `translation_review` (source review concerns the source strings, not translations).
 */
export function reviewsTranslations(translation: TranslationEntry): boolean {
  return translation.component.project.record.translation_review === true && !isSourceTranslation(translation);
}

/** The component's own language: its strings are the source, nothing to translate. */
export function isSourceTranslation(translation: TranslationEntry): boolean {
  return translation.record.is_source === true || translation.language.code === translation.component.sourceLanguage;
}

/**
 * What one string needs. States as Weblate counts them: below 10 untranslated, 10–19 marked
 * for editing (5.15 splits 10 into 10, 11, 12), 20 and up translated, of which approved (30)
 * and read-only (100) need no review; the flags as the units API sends them.
 */
export function unitNeeds(unit: Pick<StoredUnit, 'state' | 'has_failing_check' | 'has_suggestion'>, review: boolean): Need[] {
  const found: Need[] = [];
  if (unit.state < 10) found.push('untranslated');
  else if (unit.state < 20) found.push('needs-editing');
  if (unit.has_failing_check) found.push('failing-checks');
  if (unit.has_suggestion) found.push('suggestions');
  if (review && unit.state >= 20 && unit.state !== 30 && unit.state !== 100) found.push('waiting-for-review');
  return found;
}

/** A translation's units by what they need, each list in position order as given. */
export function unitsByNeed<U extends Pick<StoredUnit, 'state' | 'has_failing_check' | 'has_suggestion'>>(
  units: readonly U[],
  review: boolean,
): Map<Need, U[]> {
  const lists = new Map<Need, U[]>();
  for (const unit of units) {
    for (const need of unitNeeds(unit, review)) {
      const list = lists.get(need);
      if (list) list.push(unit);
      else lists.set(need, [unit]);
    }
  }
  return lists;
}

export type NeedCounts = Partial<Record<Need, number>>;

/**
 * A translation's counts from the server's figures, as Weblate's statistics name them: the
 * record's `total − translated − fuzzy`, `fuzzy`, `failing_checks`, `have_suggestion`; strings
 * waiting for review only from the `statistics/` record (`translated − approved − readonly`),
 * which the translation record lacks, so absent without it.
 */
export function needCounts(
  record: Pick<StoredTranslation, 'total' | 'translated' | 'fuzzy' | 'failing_checks' | 'have_suggestion'>,
  statistics: (Pick<StoredStatistics, 'translated' | 'approved'> & { readonly?: unknown }) | undefined,
  review: boolean,
): NeedCounts {
  const counts: NeedCounts = {
    untranslated: Math.max(0, record.total - record.translated - record.fuzzy),
    'needs-editing': record.fuzzy,
    'failing-checks': record.failing_checks,
    suggestions: record.have_suggestion,
  };
  if (review && statistics) {
    const readonly = typeof statistics.readonly === 'number' ? statistics.readonly : 0;
    counts['waiting-for-review'] = Math.max(0, statistics.translated - statistics.approved - readonly);
  }
  return counts;
}

/** `needCounts` of a translation of the tree, review as its project has it. */
export function translationNeedCounts(translation: TranslationEntry, statistics: StoredStatistics | undefined): NeedCounts {
  return needCounts(translation.record, statistics, reviewsTranslations(translation));
}

/** One translation of a language on its page's "where help is needed" table. */
export interface HelpRow {
  translation: TranslationEntry;
  counts: NeedCounts;
  /** Words not yet translated: the second key of the order. */
  wordsLeft: number;
  priority: number;
}

/** Weblate's default priority ("Medium", `PRIORITY_CHOICES` in weblate/trans/util.py) for a record without one. */
const defaultPriority = 100;

/**
 * The translations of a language that need something, most important first: by the component's
 * `priority` (lower first: Weblate orders components `priority, is_glossary, name` and offers
 * higher-priority ones first, 60 "Very high" … 140 "Very low"), then most words left, then by
 * project and component name. Source-language translations are left out (nothing to translate),
 * and so, by construction, every component where the language does not exist.
 */
export function helpRows(language: LanguageEntry, statistics: (translation: TranslationEntry) => StoredStatistics | undefined): HelpRow[] {
  const rows: HelpRow[] = [];
  for (const translation of language.translations) {
    if (isSourceTranslation(translation)) continue;
    const { record } = translation;
    const counts = translationNeedCounts(translation, statistics(translation));
    if (!Object.values(counts).some((count) => count > 0)) continue;
    rows.push({
      translation,
      counts,
      wordsLeft: Math.max(0, record.total_words - record.translated_words),
      priority: translation.component.record.priority ?? defaultPriority,
    });
  }
  const name = (row: HelpRow) => `${row.translation.component.project.record.name}\u0000${row.translation.component.record.name}`;
  return rows.sort((a, b) => a.priority - b.priority || b.wordsLeft - a.wordsLeft || name(a).localeCompare(name(b), 'en'));
}
