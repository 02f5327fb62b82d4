/**
 * Where each unit of a translation sits in position order, so that a changes page links a change
 * to its unit's page by id (docs/site.md, "Changes pages' unit links"): the unit ids sorted, with
 * a binary search. Built from the units Astro's thread reads once for the consistency pages
 * (src/data/changes.ts).
 */
/** Unit ids sorted, each with its index in position order. */
export interface UnitPositions {
  ids: Int32Array;
  indexes: Int32Array;
}

/** From a translation's units in position order. */
export function unitPositions(units: ReadonlyArray<{ id: number }>): UnitPositions {
  const order = units.map((unit, at) => [unit.id, at] as const).sort((a, b) => a[0] - b[0]);
  return { ids: Int32Array.from(order, ([id]) => id), indexes: Int32Array.from(order, ([, at]) => at) };
}

/** The index in position order of unit `unitId`, or undefined when the translation does not hold it. */
export function positionOf({ ids, indexes }: UnitPositions, unitId: number): number | undefined {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const id = ids[middle]!;
    if (id === unitId) return indexes[middle];
    if (id < unitId) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}
