/**
 * Units, read one translation at a time (a whole snapshot's units do not fit in memory).
 *
 * Unit pages and string pages render translation by translation, component by component, so a
 * cache bounded by unit count holds a whole ordinary component: its lists are read once for the
 * string pages' index and reused. Bounded so that a huge component cannot exhaust memory.
 */
import type { StoredUnit } from '../../snapshot/schemas.ts';
import { stringChecksum, unitPageOf } from '../../site/paths.ts';
import { siteTree, type ComponentEntry, type TranslationEntry } from './tree.ts';

const unitCache = new Map<string, { units: Promise<StoredUnit[]>; count: number }>();
const unitCacheLimit = 200_000;
let cachedUnits = 0;

export function units(translation: TranslationEntry): Promise<StoredUnit[]> {
  const hit = unitCache.get(translation.path);
  if (hit) {
    unitCache.delete(translation.path);
    unitCache.set(translation.path, hit);
    return hit.units;
  }
  const entry = { units: siteTree().then(({ snapshot }) => snapshot.units(translation.path)), count: Math.max(translation.record.total, 1) };
  cachedUnits += entry.count;
  unitCache.set(translation.path, entry);
  for (const [path, old] of unitCache) {
    if (cachedUnits <= unitCacheLimit || path === translation.path) break;
    unitCache.delete(path);
    cachedUnits -= old.count;
  }
  return entry.units;
}

/** One translation of a string, for the string's page: where its unit is and what it says. */
export interface StringTranslation {
  translation: TranslationEntry;
  page: number;
  id: number;
  state: number;
  target: string[];
}

/** A string of a component in every language that has it, for its page (docs/site.md, "One page per string"). */
export interface ComponentString {
  /** The unit of the source language when the snapshot holds it, else the first translation's. */
  source: StoredUnit;
  translations: StringTranslation[];
}

/** The component's translation in its source language, when the snapshot holds it. */
function sourceTranslation(component: ComponentEntry): TranslationEntry | undefined {
  return component.translations.find((translation) => translation.language.code === component.sourceLanguage);
}

const keysByComponent = new Map<string, Promise<Set<string>>>();

/**
 * The checksums of the strings of a component that get a page: those of its source translation
 * (in Weblate every unit has its source unit there), or, when the snapshot lacks that
 * translation, of all its translations. None when the component has one translation: its
 * units say it all. Small (a key per string, not per unit), kept for the build.
 */
export function stringKeys(component: ComponentEntry): Promise<Set<string>> {
  let keys = keysByComponent.get(component.path);
  if (!keys) {
    keys = (async () => {
      const found = new Set<string>();
      if (component.translations.length < 2) return found;
      const source = sourceTranslation(component);
      for (const translation of source ? [source] : component.translations) {
        for (const unit of await units(translation)) found.add(stringChecksum(unit.id_hash));
      }
      return found;
    })();
    keysByComponent.set(component.path, keys);
  }
  return keys;
}

// String pages render component by component: the index of the last two components only
// (two, since pages render a few at a time and may straddle a component's end).
const componentIndexes = new Map<string, Promise<Map<string, ComponentString>>>();

/**
 * Every string of a component (by checksum) in each of its languages, in the order of the
 * component's translations (by language name). Holds one component's units, never the instance's.
 */
export function componentStrings(component: ComponentEntry): Promise<Map<string, ComponentString>> {
  let index = componentIndexes.get(component.path);
  if (!index) {
    index = buildComponentStrings(component);
    componentIndexes.set(component.path, index);
    for (const path of componentIndexes.keys()) if (componentIndexes.size > 2) componentIndexes.delete(path);
  }
  return index;
}

async function buildComponentStrings(component: ComponentEntry): Promise<Map<string, ComponentString>> {
  const index = new Map<string, ComponentString>();
  const source = sourceTranslation(component);
  for (const translation of component.translations) {
    const list = await units(translation);
    list.forEach((unit, position) => {
      const key = stringChecksum(unit.id_hash);
      let entry = index.get(key);
      if (!entry) index.set(key, (entry = { source: unit, translations: [] }));
      else if (translation === source) entry.source = unit;
      entry.translations.push({ translation, page: unitPageOf(position, translation.unitPages), id: unit.id, state: unit.state, target: unit.target });
    });
  }
  return index;
}
