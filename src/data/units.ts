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
export function sourceTranslation(component: ComponentEntry): TranslationEntry | undefined {
  return component.translations.find((translation) => translation.language.code === component.sourceLanguage);
}

/**
 * Which strings of a component get a page, by checksum: those of its source translation (in
 * Weblate every unit has its source unit there, `sourceUnits`), or, when the snapshot lacks that
 * translation, every string of the component. None when the component has one translation: its
 * units say it all.
 */
export function stringsWithPages(component: ComponentEntry, sourceUnits: readonly StoredUnit[] | undefined): (checksum: string) => boolean {
  if (component.translations.length < 2) return () => false;
  if (sourceUnits === undefined) return () => true;
  const keys = new Set(sourceUnits.map((unit) => stringChecksum(unit.id_hash)));
  return (checksum) => keys.has(checksum);
}

/**
 * Adds one translation's units to its component's strings (by checksum), in the order the
 * translations are added (the component's, by language name). The index holds one component's
 * strings, never the instance's: the bulk writer (site/bulk-pages.ts) adds each translation as it
 * writes its unit pages, then writes the component's string pages and lets the index go.
 */
export function addStrings(index: Map<string, ComponentString>, translation: TranslationEntry, list: readonly StoredUnit[], isSource: boolean): void {
  list.forEach((unit, position) => {
    const key = stringChecksum(unit.id_hash);
    let entry = index.get(key);
    if (!entry) index.set(key, (entry = { source: unit, translations: [] }));
    else if (isSource) entry.source = unit;
    entry.translations.push({ translation, page: unitPageOf(position, translation.unitPages), id: unit.id, state: unit.state, target: unit.target });
  });
}
