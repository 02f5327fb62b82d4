/**
 * Units, read one translation at a time (a whole snapshot's units do not fit in memory).
 *
 * Unit pages render translation by translation, component by component, so a cache bounded
 * by unit count holds a whole ordinary component: its lists are read once for the same-string
 * index and reused by its pages. Bounded so that a huge component cannot exhaust memory.
 */
import type { StoredUnit } from '../../snapshot/schemas.ts';
import { unitPageOf } from '../../site/paths.ts';
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

export interface UnitLocation {
  translation: TranslationEntry;
  page: number;
  id: number;
}

// Pages of one component render together: one component's index at a time.
let componentIndex: { path: string; index: Promise<Map<string, UnitLocation[]>> } | undefined;

/** Where each string (by `id_hash`) of a component sits in each of its languages: the "other languages" links. */
export function sameStringIndex(component: ComponentEntry): Promise<Map<string, UnitLocation[]>> {
  if (componentIndex?.path !== component.path) {
    componentIndex = { path: component.path, index: buildSameStringIndex(component) };
  }
  return componentIndex.index;
}

async function buildSameStringIndex(component: ComponentEntry): Promise<Map<string, UnitLocation[]>> {
  const index = new Map<string, UnitLocation[]>();
  for (const translation of component.translations) {
    const list = await units(translation);
    list.forEach((unit, position) => {
      const key = unit.id_hash.toString();
      const locations = index.get(key) ?? [];
      locations.push({ translation, page: unitPageOf(position, translation.unitPages), id: unit.id });
      index.set(key, locations);
    });
  }
  return index;
}
