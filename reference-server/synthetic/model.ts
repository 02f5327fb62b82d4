import type { ChangeRow, Model, ProjectRow, UnitRow } from '../model.ts';
import { buildComponents, buildNotifications, buildProjects, buildTranslations, buildUsers } from './catalog.ts';
import { setupChange, setupEventCount, unitChange } from './changes.ts';
import { languageTable } from './languages.ts';
import { type Layout, type TranslationPlan, kindOrdinal, locateUnit, planLayout, unitIdOfOrdinal } from './layout.ts';
import { createPermutation, mix, topic } from './random.ts';
import type { SyntheticSpec } from './spec.ts';
import { type SourceString, createStringSource } from './strings.ts';
import { eventTime, isoMicroseconds } from './timeline.ts';
import { buildUnit } from './units.ts';

/**
 * Source strings recently used. A page of units of one translation is followed by the same
 * strings in the next language, and SipHash is the costly part of a unit, so keeping a
 * bounded number of them around saves most of it.
 */
const STRING_CACHE_SIZE = 50_000;

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
  const stringCache = new Map<number, SourceString>();
  const stringOf = (translation: TranslationPlan, index: number): SourceString => {
    const key = translation.component.index * (layout.unitTotal + 1) + index;
    const cached = stringCache.get(key);
    if (cached) {
      stringCache.delete(key);
      stringCache.set(key, cached);
      return cached;
    }
    const string = (stringSources[translation.component.index] as (index: number) => SourceString)(index);
    stringCache.set(key, string);
    if (stringCache.size > STRING_CACHE_SIZE) stringCache.delete(stringCache.keys().next().value as number);
    return string;
  };

  const setupCount = setupEventCount(layout);
  const sourceTotal = layout.sourceTotal;
  const targetTotal = layout.unitTotal - sourceTotal;
  // Each unit record's latest change: source units in a shuffled order, then target units in another.
  const sourceOrder = createPermutation(sourceTotal, mix(seed, topic.changeOrder, 0));
  const targetOrder = createPermutation(targetTotal, mix(seed, topic.changeOrder, 1));

  const unitAt = (translation: TranslationPlan, index: number): UnitRow => {
    const ordinal = kindOrdinal(translation, index);
    const time = translation.targetIndex < 0
      ? eventTime(seed, 'sources', sourceOrder.inverse(ordinal), sourceTotal)
      : eventTime(seed, 'targets', targetOrder.inverse(ordinal), targetTotal);
    return buildUnit(seed, {
      translation,
      index,
      project: projects[translation.component.projectIndex] as ProjectRow,
      string: stringOf(translation, index),
      timestamp: isoMicroseconds(time),
    });
  };

  const changeAt = (index: number): ChangeRow => {
    if (index < setupCount) return setupChange(layout, users, index, isoMicroseconds(eventTime(seed, 'setup', index, setupCount)));
    const source = index < setupCount + sourceTotal;
    const changeIndex = source ? index - setupCount : index - setupCount - sourceTotal;
    const ordinal = (source ? sourceOrder : targetOrder).forward(changeIndex);
    const located = locateUnit(layout, unitIdOfOrdinal(layout, source, ordinal));
    if (!located) throw new RangeError(`synthetic change ${index + 1} points at no unit`);
    const unit = unitAt(located.translation, located.index);
    return unitChange(layout, users, index + 1, changeIndex, unit, located.translation);
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
    unit: (id) => {
      const located = locateUnit(layout, id);
      return located && unitAt(located.translation, located.index);
    },
    changeCount: () => setupCount + layout.unitTotal,
    changes: (offset, limit) => {
      const [start, end] = window(offset, limit, setupCount + layout.unitTotal);
      return Array.from({ length: end - start }, (_, n) => changeAt(start + n));
    },
  };
}

function translationOf(layout: Layout, id: number): TranslationPlan | undefined {
  return Number.isInteger(id) ? layout.translations[id - 1] : undefined;
}

/** `[start, end)` of a window clipped to `[0, total)`. */
function window(offset: number, limit: number, total: number): [number, number] {
  const start = Math.min(Math.max(0, Math.floor(offset)), total);
  return [start, Math.min(total, start + Math.max(0, Math.floor(limit)))];
}
