import { action } from '../../../api/change.ts';
import type { ChangeRow, UnitRow, UserRow } from '../model.ts';
import { translatorOf } from './collections.ts';
import type { Layout, TranslationPlan } from './layout.ts';
import { chance, mix, topic } from './random.ts';
import type { SourceString } from './strings.ts';
import { eventTime, isoMicroseconds } from './timeline.ts';
import type { UnitStatus } from './units.ts';

/**
 * The spec's `edited` key: per mille of the target units a translator edited after the rest of
 * the history, as on the night after a crawl (issue 27). Each edited unit gets a new target,
 * state translated (20) and pending, and one change at the end of the log, in unit id order:
 * the instance with `edited=0` and the same seed is the same instance a night earlier.
 */
export interface Edits {
  /** Edited unit ids, ascending: edit `i` is change `base + i`. */
  readonly ids: readonly number[];
  /** Edit index by unit id. */
  readonly indexOf: ReadonlyMap<number, number>;
  /** A translation's newest edit index, by translation id. */
  readonly newestOf: ReadonlyMap<number, number>;
}

/**
 * Draws the edited units: each target unit by its own draw, read-only strings left out (Weblate
 * does not let them be edited). A pass over every target unit's id, and a string per drawn one.
 */
export function drawEdits(layout: Layout, stringOf: (translation: TranslationPlan, index: number) => SourceString): Edits {
  const { seed, edited = 0 } = layout.spec;
  const ids: number[] = [];
  const indexOf = new Map<number, number>();
  const newestOf = new Map<number, number>();
  if (edited === 0) return { ids, indexOf, newestOf };
  const rate = edited / 1000;
  for (const translation of layout.translations) {
    if (translation.targetIndex < 0) continue;
    for (let index = 0; index < translation.unitCount; index++) {
      const id = translation.firstUnitId + index;
      if (chance(seed, topic.edit, id) >= rate || stringOf(translation, index).readOnly) continue;
      indexOf.set(id, ids.length);
      newestOf.set(translation.id, ids.length);
      ids.push(id);
    }
  }
  return { ids, indexOf, newestOf };
}

/** When edit `index` of `count` happened. */
export function editTime(seed: number, index: number, count: number): string {
  return isoMicroseconds(eventTime(seed, 'edits', index, count));
}

/** A unit as the edit left it: a new target, translated, pending until a commit; added when it was (`timestamp`). */
export function editedUnit(unit: UnitRow, timestamp: string): UnitRow {
  const target = unit.target.map((form) => `${form === '' ? (unit.source[0] ?? '') : form} (edited)`);
  return { ...unit, target, state: 20, previous_source: '', pending: true, last_updated: timestamp, changed: timestamp };
}

/** What statistics count of an edited unit. */
export function editedStatus(status: UnitStatus): UnitStatus {
  return { ...status, state: 20, pending: true };
}

/** The change of edit `index`: "Translation added" where the unit was empty, else "Translation changed". */
export function editChange(
  layout: Layout,
  users: readonly UserRow[],
  id: number,
  unit: UnitRow,
  translation: TranslationPlan,
  before: number,
  timestamp: string,
): ChangeRow {
  const { username } = translatorOf(users, translation.targetIndex, mix(layout.spec.seed, topic.changeUser, id));
  return {
    id,
    action: before === 0 ? action.translationAdded : action.translationChanged,
    timestamp,
    user: username,
    author: username,
    unitId: unit.id,
    translationId: translation.id,
    componentId: translation.component.index + 1,
    target: unit.target[0] ?? '',
  };
}
