/**
 * What changed for each language between two pinned releases (issue 26, release pages): from
 * the diff of the two tagged snapshots (diff.ts), per language, the strings
 * - **translated**: not translated at the earlier release (untranslated, needing editing, or not
 *   there yet) and translated at the later one; a translation added between the two brings all
 *   its translated strings;
 * - **changed**: translated at both, with a different text;
 * - **lost**: translated at the earlier release, still there and no longer translated at the
 *   later one (marked for editing, emptied); a translation removed between the two loses all its
 *   translated strings. A removed string is not lost work: the source dropped it.
 * and the figures at each release. Source-language translations are left out, as for levels
 * (levels.ts `levelEntries`): their strings are the source. Pure.
 * Reasons: docs/decisions/2026-11-27-releases.md.
 */
import { addFigures, noFigures, type Figures } from './figures.ts';
import type { Named, SnapshotDiff, TranslationEntry, UnitChange } from './diff.ts';

export interface LanguageRelease {
  language: Named;
  /** Summed over the language's translations at the earlier release (none: no earlier release). */
  before: Figures;
  after: Figures;
  translated: number;
  changed: number;
  lost: number;
}

const isTranslated = (state: number | undefined) => state !== undefined && state >= 20;

const sameStrings = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, index) => value === b[index]);

/** How one string's change counts in a release: translated, changed, lost, or not at all. */
export function releaseKind(change: UnitChange): 'translated' | 'changed' | 'lost' | undefined {
  if (change.kind === 'removed') return undefined;
  const [before, after] = [change.before, change.after];
  if (isTranslated(after?.state) && !isTranslated(before?.state)) return 'translated';
  if (isTranslated(before?.state) && !isTranslated(after?.state)) return 'lost';
  if (before && after && isTranslated(before.state) && !sameStrings(before.target, after.target)) return 'changed';
  return undefined;
}

/**
 * Per language code, sorted by code: the figures at both releases and the strings translated,
 * changed and lost between them (no diff: the first release, figures only). `before` and
 * `after` are the entries of both snapshots, source-language translations left out
 * (levels.ts `levelEntries`); the diff's translations neither side lists are not counted.
 */
export function releaseByLanguage(before: readonly TranslationEntry[], after: readonly TranslationEntry[], diff: SnapshotDiff | undefined): LanguageRelease[] {
  const listed = new Set([...before, ...after].map((entry) => entry.path));
  const languages = new Map<string, LanguageRelease>();
  const of = (language: Named) => {
    let entry = languages.get(language.slug);
    if (!entry) languages.set(language.slug, (entry = { language, before: noFigures, after: noFigures, translated: 0, changed: 0, lost: 0 }));
    return entry;
  };
  for (const entry of before) of(entry.language).before = addFigures(of(entry.language).before, entry.figures);
  for (const entry of after) {
    const language = of(entry.language);
    language.language = entry.language;
    language.after = addFigures(language.after, entry.figures);
  }
  for (const translation of diff?.translations ?? []) {
    if (!listed.has(translation.path)) continue;
    const language = of(translation.language);
    if (translation.status === 'added') language.translated += translation.figures.after.translated;
    else if (translation.status === 'removed') language.lost += translation.figures.before.translated;
    else {
      for (const change of translation.changes) {
        const kind = releaseKind(change);
        if (kind !== undefined) language[kind] += 1;
      }
    }
  }
  return [...languages.values()].sort((a, b) => (a.language.slug < b.language.slug ? -1 : a.language.slug > b.language.slug ? 1 : 0));
}
