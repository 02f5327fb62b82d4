import type { ChangeRow, Model, ProjectRow, UnitRow } from '../model.ts';
import { countUnits } from '../statistics.ts';
import { buildComponents, buildNotifications, buildProjects, buildTranslations, buildUsers, translatorOf } from './collections.ts';
import { setupChange, setupEventCount, unitAction, unitChange } from './changes.ts';
import { drawEdits, editChange, editedStatus, editedUnit, editTime } from './edits.ts';
import { languageTable } from './languages.ts';
import { type Layout, type TranslationPlan, kindOrdinal, locateUnit, planLayout, unitIdOfOrdinal } from './layout.ts';
import { type Permutation, createBlockPermutation, mix, topic } from './random.ts';
import type { SyntheticSpec } from './spec.ts';
import { type SourceString, createStringSource } from './strings.ts';
import { eventTime, isoMicroseconds } from './timeline.ts';
import { type UnitPlace, buildUnit, stateOf, statusOf } from './units.ts';

/**
 * How many source strings to keep (about 1 kB each, so at most ~100 MB). A page of units of
 * one translation is followed by the same strings in the next language, and a window of
 * changes jumps between sessions all over the instance; building a string and its SipHash
 * is the costly part of both, so a 1M-unit instance (91k strings by default) fits whole.
 */
const STRING_CACHE_SIZE = 100_000;

/** Units a translator saves in one sitting: consecutive changes touch neighbouring strings. */
const SESSION_UNITS = 50;

/**
 * A deterministic Weblate instance of the spec's size, computed on demand: only the small
 * collections (projects, components, translations, users, notifications) exist up front;
 * each unit and change is computed from its id, so a window costs time in proportion to
 * its length and memory stays bounded whatever the instance size.
 *
 * `languages()` lists the whole language table, used or not, like a real server's.
 */
export function createSyntheticModel(spec: SyntheticSpec): Model {
  const layout = planLayout(spec);
  const { seed } = spec;
  const projects = buildProjects(layout);
  const components = buildComponents(layout, projects);
  const translations = buildTranslations(layout, components);
  const users = buildUsers();
  const notifications = buildNotifications(layout, users);
  const languages = languageTable.map((language) => language.row);

  const stringSources = layout.components.map((component) => createStringSource(seed, component));
  // Direct-mapped: neighbouring strings take neighbouring slots. (A Map used as an LRU
  // slows down badly here: V8 iterates over the holes that evictions leave at its front.)
  const cachedKeys = new Float64Array(STRING_CACHE_SIZE).fill(-1);
  const cachedStrings = new Array<SourceString | undefined>(STRING_CACHE_SIZE);
  const stringOf = (translation: TranslationPlan, index: number): SourceString => {
    const key = translation.component.sourceBase + index;
    const slot = key % STRING_CACHE_SIZE;
    const cached = cachedStrings[slot];
    if (cached && cachedKeys[slot] === key) return cached;
    const string = (stringSources[translation.component.index] as (index: number) => SourceString)(index);
    cachedKeys[slot] = key;
    cachedStrings[slot] = string;
    return string;
  };

  const setupCount = setupEventCount(layout);
  const sourceTotal = layout.sourceTotal;
  const targetTotal = layout.unitTotal - sourceTotal;
  // Each unit record's latest change: source units in a shuffled order, then target units in another.
  const sourceOrder = createBlockPermutation(sourceTotal, SESSION_UNITS, mix(seed, topic.changeOrder, 0));
  const targetOrder = createBlockPermutation(targetTotal, SESSION_UNITS, mix(seed, topic.changeOrder, 1));

  const placeOf = (translation: TranslationPlan, index: number): UnitPlace => ({
    translation,
    index,
    project: projects[translation.component.projectIndex] as ProjectRow,
    string: stringOf(translation, index),
  });

  // The spec's `edited` units (./edits.ts): their changes follow the rest of the log.
  const edits = drawEdits(layout, stringOf);
  const historyCount = setupCount + layout.unitTotal;

  const baseUnitAt = (translation: TranslationPlan, index: number): UnitRow => {
    const ordinal = kindOrdinal(translation, index);
    const time =
      translation.targetIndex < 0
        ? eventTime(seed, 'sources', sourceOrder.inverse(ordinal), sourceTotal)
        : eventTime(seed, 'targets', targetOrder.inverse(ordinal), targetTotal);
    return buildUnit(seed, placeOf(translation, index), isoMicroseconds(time));
  };

  const unitAt = (translation: TranslationPlan, index: number): UnitRow => {
    const unit = baseUnitAt(translation, index);
    const edit = edits.indexOf.get(unit.id);
    return edit === undefined ? unit : editedUnit(unit, editTime(seed, edit, edits.ids.length));
  };

  const changeAt = (index: number): ChangeRow => {
    if (index >= historyCount) {
      const edit = index - historyCount;
      const located = locateUnit(layout, edits.ids[edit] as number);
      if (!located) throw new RangeError(`synthetic edit ${edit + 1} points at no unit`);
      const before = baseUnitAt(located.translation, located.index);
      const timestamp = editTime(seed, edit, edits.ids.length);
      return editChange(layout, users, index + 1, editedUnit(before, timestamp), located.translation, before.state, timestamp);
    }
    if (index < setupCount) return setupChange(layout, users, index, isoMicroseconds(eventTime(seed, 'setup', index, setupCount)));
    const source = index < setupCount + sourceTotal;
    const changeIndex = source ? index - setupCount : index - setupCount - sourceTotal;
    const ordinal = (source ? sourceOrder : targetOrder).forward(changeIndex);
    const located = locateUnit(layout, unitIdOfOrdinal(layout, source, ordinal));
    if (!located) throw new RangeError(`synthetic change ${index + 1} points at no unit`);
    const time = eventTime(seed, source ? 'sources' : 'targets', changeIndex, source ? sourceTotal : targetTotal);
    return unitChange(layout, users, index + 1, changeIndex, placeOf(located.translation, located.index), isoMicroseconds(time));
  };

  // Each translation's newest change, found by arithmetic rather than by reading the log
  // backwards: a source translation's newest change lies before every target change, so the
  // backward read went through the whole log (10M changes for a 10M-unit instance).
  const newestChanges = new Map<number, ChangeRow>();
  const newestChange = (translation: TranslationPlan): ChangeRow => {
    const edit = edits.newestOf.get(translation.id);
    if (edit !== undefined) return changeAt(historyCount + edit);
    const source = translation.targetIndex < 0;
    const newest = newestInOrder(source ? sourceOrder : targetOrder, kindOrdinal(translation, 0), translation.unitCount);
    return changeAt(setupCount + (source ? 0 : sourceTotal) + newest);
  };

  // Who translated what (changes 2 and 5 by author, and in which languages), counted over the
  // target units in place of the log: the same draws `changeAt` makes, without building a change
  // (a full scan of a 10M-change log kept the server busy for minutes).
  const tallyTranslators = (): Map<string, { translated: number; languages: Set<string> }> => {
    const tally = new Map<string, { translated: number; languages: Set<string> }>();
    for (const translation of layout.translations) {
      if (translation.targetIndex < 0) continue;
      for (let index = 0; index < translation.unitCount; index++) {
        const state = stateOf(seed, placeOf(translation, index));
        const changeIndex = targetOrder.inverse(kindOrdinal(translation, index));
        const { action, byUser } = unitAction(seed, state, false, changeIndex);
        if (!byUser || (action !== 2 && action !== 5)) continue;
        const id = setupCount + sourceTotal + changeIndex + 1;
        const { username } = translatorOf(users, translation.targetIndex, mix(seed, topic.changeUser, id));
        let entry = tally.get(username);
        if (!entry) tally.set(username, (entry = { translated: 0, languages: new Set() }));
        entry.translated++;
        entry.languages.add(translation.language.row.code);
      }
    }
    // Each edit is a translation changed or added (2 or 5) by a translator: counted as one more.
    for (let edit = 0; edit < edits.ids.length; edit++) {
      const change = changeAt(historyCount + edit);
      const translation = translationOf(layout, change.translationId ?? 0);
      if (change.user === null || translation === undefined) continue;
      let entry = tally.get(change.user);
      if (!entry) tally.set(change.user, (entry = { translated: 0, languages: new Set() }));
      entry.translated++;
      entry.languages.add(translation.language.row.code);
    }
    return tally;
  };

  return {
    languages: () => languages,
    projects: () => projects,
    components: () => components,
    translations: () => translations,
    users: () => users,
    notifications: () => notifications,
    unitCount: (translationId) => translationOf(layout, translationId)?.unitCount ?? 0,
    units: (translationId, offset, limit) => {
      const translation = translationOf(layout, translationId);
      if (!translation) return [];
      const [start, end] = window(offset, limit, translation.unitCount);
      return Array.from({ length: end - start }, (_, n) => unitAt(translation, start + n));
    },
    // Statistics need only each unit's state and flags: no target text, hash or timestamp.
    unitCounts: (translationId) => {
      const translation = translationOf(layout, translationId);
      const statuses = function* () {
        for (let index = 0; translation && index < translation.unitCount; index++) {
          const status = statusOf(seed, placeOf(translation, index));
          yield edits.indexOf.has(translation.firstUnitId + index) ? editedStatus(status) : status;
        }
      };
      return countUnits(statuses());
    },
    unit: (id) => {
      const located = locateUnit(layout, id);
      return located && unitAt(located.translation, located.index);
    },
    newestChange: (translationId) => {
      const translation = translationOf(layout, translationId);
      if (!translation || translation.unitCount === 0) return undefined;
      let change = newestChanges.get(translation.id);
      if (!change) newestChanges.set(translation.id, (change = newestChange(translation)));
      return change;
    },
    translators: tallyTranslators,
    // A unit's timestamp is its one change's (`unitAt` and `changeAt` draw the same time).
    unitTimesInLog: true,
    changeCount: () => historyCount + edits.ids.length,
    changes: (offset, limit) => {
      const [start, end] = window(offset, limit, historyCount + edits.ids.length);
      return Array.from({ length: end - start }, (_, n) => changeAt(start + n));
    },
  };
}

/**
 * The latest position that `order` gives any of the `count` consecutive ordinals from `first`.
 * A block permutation keeps each block's ordinals in order, so only the last ordinal of each
 * block in the range can be the latest: a translation's newest unit change costs a step per block.
 */
function newestInOrder(order: Permutation, first: number, count: number): number {
  let newest = -1;
  for (let ordinal = first; ordinal < first + count;) {
    const blockEnd = Math.min(first + count, (Math.floor(ordinal / SESSION_UNITS) + 1) * SESSION_UNITS);
    newest = Math.max(newest, order.inverse(blockEnd - 1));
    ordinal = blockEnd;
  }
  return newest;
}

function translationOf(layout: Layout, id: number): TranslationPlan | undefined {
  return Number.isInteger(id) ? layout.translations[id - 1] : undefined;
}

/** `[start, end)` of a window clipped to `[0, total)`. */
function window(offset: number, limit: number, total: number): [number, number] {
  const start = Math.min(Math.max(0, Math.floor(offset)), total);
  return [start, Math.min(total, start + Math.max(0, Math.floor(limit)))];
}
