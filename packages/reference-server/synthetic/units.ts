import type { ProjectRow, UnitRow } from '../model.ts';
import type { TranslationPlan } from './layout.ts';
import { chance, topic } from './random.ts';
import { type SourceString, renderForms } from './strings.ts';
import { englishWords, wordTables } from './words.ts';

/** Where a unit sits: its translation, its index there, and the string it translates. */
export interface UnitPlace {
  translation: TranslationPlan;
  index: number;
  project: ProjectRow;
  string: SourceString;
}

/** How far a target translation has got; a quarter of them are complete. */
function progressOf(seed: number, translationId: number): number {
  if (chance(seed, topic.translationProgress, translationId, 0) < 0.25) return 1;
  return 0.1 + 0.85 * chance(seed, topic.translationProgress, translationId, 1);
}

/**
 * A unit's state: source units are read-only (100), as are targets of `read-only` strings;
 * approved (30) only where the project reviews translations.
 */
export function stateOf(seed: number, place: UnitPlace): number {
  const { translation, index, project, string } = place;
  if (translation.targetIndex < 0 || string.readOnly) return 100;
  // Plain calls rather than a helper closure: this runs for every unit of every scan.
  if (chance(seed, topic.unitState, translation.id, index, 0) < progressOf(seed, translation.id)) {
    return project.translation_review && chance(seed, topic.unitState, translation.id, index, 1) < 0.5 ? 30 : 20;
  }
  return chance(seed, topic.unitState, translation.id, index, 2) < 0.35 ? 10 : 0;
}

export function targetOf(state: number, place: UnitPlace): string[] {
  const { translation, string } = place;
  if (state === 100) return [...string.source];
  const forms = translation.language.row.plural.number;
  if (state === 0) return Array.from({ length: string.shape.kind === 'plural' ? forms : 1 }, () => '');
  return renderForms(string.shape, wordTables[translation.language.script], forms);
}

/** The fields of a unit that statistics count, drawn without building its text or hash. */
export type UnitStatus = Pick<UnitRow, 'state' | 'num_words' | 'pending' | 'has_suggestion' | 'has_comment' | 'has_failing_check'> & {
  /** The string's source (shared, not copied): character statistics count it. */
  source: readonly string[];
};

export function statusOf(seed: number, place: UnitPlace): UnitStatus {
  const { translation, index, string } = place;
  const state = stateOf(seed, place);
  const translated = state >= 20;
  return {
    state,
    num_words: string.numWords,
    source: string.source,
    pending: translated && state !== 100 && chance(seed, topic.unitDetail, translation.id, index, 1) < 0.02,
    has_suggestion: chance(seed, topic.unitDetail, translation.id, index, 2) < (state < 20 ? 0.05 : 0.01),
    has_comment: chance(seed, topic.unitDetail, translation.id, index, 3) < 0.02,
    has_failing_check: translated && state !== 100 && chance(seed, topic.unitDetail, translation.id, index, 4) < 0.04,
  };
}

/**
 * The unit row; `timestamp` is its latest change's (the change log decides when that was).
 * The texts written in the target language are getters, computed when read: a `q=` filter on
 * state or time, statistics and the change log's scans read millions of rows and never the
 * text, which is most of a row's cost (a spread or JSON rendering reads them as usual).
 */
export function buildUnit(seed: number, place: UnitPlace, timestamp: string): UnitRow {
  const { translation, index, string } = place;
  const status = statusOf(seed, place);
  const { state } = status;
  let target: string[] | undefined;
  let previousSource: string | undefined;
  return {
    id: translation.firstUnitId + index,
    translationId: translation.id,
    sourceUnitId: translation.sourceFirstUnitId + index,
    position: string.position,
    source: [...string.source],
    get previous_source() {
      return (previousSource ??= state === 10 && chance(seed, topic.unitDetail, translation.id, index, 0) < 0.5 ? previousSourceOf(string) : '');
    },
    get target() {
      return (target ??= targetOf(state, place));
    },
    context: string.context,
    note: string.note,
    location: string.location,
    flags: string.flags,
    extra_flags: string.extraFlags,
    labels: [],
    state,
    idHash: string.hash(),
    contentHash: string.hash(),
    num_words: status.num_words,
    priority: string.priority,
    explanation: string.explanation,
    pending: status.pending,
    has_suggestion: status.has_suggestion,
    has_comment: status.has_comment,
    has_failing_check: status.has_failing_check,
    timestamp,
  };
}

/** The wording a fuzzy unit was translated from: one word fewer (or more) than now. */
function previousSourceOf(string: SourceString): string {
  const { words } = string.shape;
  const older = words.length > 1 ? words.slice(0, -1) : [...words, ((words[0] ?? 0) + 1) % englishWords.length];
  return renderForms({ ...string.shape, words: older, markup: undefined }, wordTables.en, 2, true)[0] ?? '';
}
