/**
 * A translation's strings counted by unit page and state group: what the translation page
 * shows instead of a row per string (docs/site.md, "Translation pages"). The strings are on
 * the unit pages; this tells which page holds the strings of each state.
 */
import type { StoredUnit } from '../../snapshot/index.ts';
import { unitPageOf } from '../../site-model/paths.ts';
import { stateGroup } from '../utils/names.ts';

export type StateGroup = ReturnType<typeof stateGroup>;

export interface UnitPageSummary {
  page: number;
  /** `position` of the page's first and last string (file order, as the unit pages number them). */
  first: number;
  last: number;
  counts: Map<StateGroup, number>;
}

export interface StringsByPage {
  /** The groups present, in a fixed order, each with a state that names it and its count over all pages. */
  groups: Array<{ group: StateGroup; state: number; count: number }>;
  pages: UnitPageSummary[];
}

const groupOrder: readonly StateGroup[] = ['empty', 'fuzzy', 'needs-rewriting', 'needs-checking', 'translated', 'approved', 'readonly', 'other'];

/** `units` in position order, `pages` the translation's unit page count (`unitPageOf` places each unit). */
export function stringsByPage(units: readonly Pick<StoredUnit, 'position' | 'state'>[], pages: number): StringsByPage {
  const summaries: UnitPageSummary[] = [];
  const totals = new Map<StateGroup, { state: number; count: number }>();
  units.forEach((unit, index) => {
    const page = unitPageOf(index, pages);
    let summary = summaries.at(-1);
    if (summary?.page !== page) summaries.push((summary = { page, first: unit.position, last: unit.position, counts: new Map() }));
    summary.last = unit.position;
    const group = stateGroup(unit.state);
    summary.counts.set(group, (summary.counts.get(group) ?? 0) + 1);
    const total = totals.get(group) ?? { state: unit.state, count: 0 };
    total.count += 1;
    totals.set(group, total);
  });
  const groups = groupOrder.flatMap((group) => {
    const total = totals.get(group);
    return total ? [{ group, ...total }] : [];
  });
  return { groups, pages: summaries };
}
