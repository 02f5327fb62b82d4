/**
 * What changed between two snapshots: pure functions over stored records, so the rules can be
 * checked against the reference server's mutation records and the CLI and site only render
 * their output. Reading the snapshots (and skipping unit lists whose hash did not change) is
 * `compare.ts`'s job.
 */
import type { StoredUnit } from '../snapshot/index.ts';
import { addFigures, figuresDelta, isZeroDelta, noFigures, type Figures, type FiguresDelta } from './figures.ts';

/**
 * How one string changed in a translation present in both snapshots. Each unit gets exactly one
 * kind, the first that applies: a unit translated straight to approved counts as approved.
 */
export type UnitChangeKind = 'added' | 'removed' | 'approved' | 'translated' | 'marked_for_edit' | 'changed';

export const unitChangeKinds: readonly UnitChangeKind[] = ['added', 'removed', 'translated', 'changed', 'marked_for_edit', 'approved'];

export const unitChangeLabels: Record<UnitChangeKind, string> = {
  added: 'strings added',
  removed: 'strings removed',
  translated: 'newly translated',
  changed: 'changed',
  marked_for_edit: 'marked for editing',
  approved: 'approved',
};

/** A unit's text and state on one side of the comparison. */
export interface UnitSide {
  target: string[];
  state: number;
}

export interface UnitChange {
  kind: UnitChangeKind;
  id: number;
  position: number;
  context: string;
  source: string[];
  before?: UnitSide;
  after?: UnitSide;
}

const isTranslated = (state: number) => state >= 20;
const needsEditing = (state: number) => state >= 10 && state < 20;
const approvedState = 30;

/** The kind of change from `before` to `after` of the same unit, or `undefined` when its text and state are unchanged. */
export function classifyUnit(before: StoredUnit, after: StoredUnit): UnitChangeKind | undefined {
  if (after.state === approvedState && before.state !== approvedState) return 'approved';
  if (isTranslated(after.state) && !isTranslated(before.state)) return 'translated';
  if (needsEditing(after.state) && !needsEditing(before.state)) return 'marked_for_edit';
  if (after.state !== before.state || !sameStrings(after.target, before.target) || !sameStrings(after.source, before.source)) {
    return 'changed';
  }
  return undefined;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

const side = (unit: StoredUnit): UnitSide => ({ target: unit.target, state: unit.state });

function describe(kind: UnitChangeKind, unit: StoredUnit, before?: StoredUnit, after?: StoredUnit): UnitChange {
  return {
    kind,
    id: unit.id,
    position: unit.position,
    context: unit.context,
    source: unit.source,
    ...(before ? { before: side(before) } : {}),
    ...(after ? { after: side(after) } : {}),
  };
}

/**
 * The string changes of one translation present in both snapshots, in the newer snapshot's file
 * order (removed strings at their old position). Units are matched by `id`, which Weblate keeps
 * for a string's whole life: a string whose source changes in the repository is a new unit.
 */
export function diffUnits(before: readonly StoredUnit[], after: readonly StoredUnit[]): UnitChange[] {
  const old = new Map(before.map((unit) => [unit.id, unit]));
  const changes: UnitChange[] = [];
  for (const unit of after) {
    const previous = old.get(unit.id);
    if (!previous) {
      changes.push(describe('added', unit, undefined, unit));
      continue;
    }
    old.delete(unit.id);
    const kind = classifyUnit(previous, unit);
    if (kind) changes.push(describe(kind, unit, previous, unit));
  }
  for (const unit of old.values()) changes.push(describe('removed', unit, unit));
  return changes.sort((a, b) => a.position - b.position || a.id - b.id);
}

/** How many changes of each kind: the summary line of a translation. */
export function countKinds(changes: readonly UnitChange[]): Record<UnitChangeKind, number> {
  const counts = Object.fromEntries(unitChangeKinds.map((kind) => [kind, 0])) as Record<UnitChangeKind, number>;
  for (const change of changes) counts[change.kind]++;
  return counts;
}

/** A project, component or language as the diff names it: slug (code for a language) and display name. */
export interface Named {
  slug: string;
  name: string;
}

/** What the diff needs to know of one translation in one snapshot. */
export interface TranslationEntry {
  /** The translation record's stored path, `api/translations/<project>/<component>/<language>/`. */
  path: string;
  project: Named;
  component: Named;
  language: Named;
  figures: Figures;
  /** Hash of its stored unit list: equal hashes mean equal units, so they need not be read. */
  unitsHash: string | undefined;
}

export type PresenceStatus = 'added' | 'removed' | 'changed';

export interface TranslationPair {
  path: string;
  before: TranslationEntry | undefined;
  after: TranslationEntry | undefined;
}

export interface TranslationDiff {
  path: string;
  project: Named;
  component: Named;
  language: Named;
  /** Added and removed translations list no strings: every string of theirs came or went with them. */
  status: PresenceStatus;
  figures: FiguresDelta;
  counts: Record<UnitChangeKind, number>;
  changes: UnitChange[];
}

export interface GroupDelta {
  key: string;
  name: string;
  status: PresenceStatus;
  figures: FiguresDelta;
}

export interface SnapshotDiff {
  from: string;
  to: string;
  translations: TranslationDiff[];
  projects: GroupDelta[];
  components: GroupDelta[];
  languages: GroupDelta[];
  /** Changes of each kind over all translations present in both snapshots. */
  totals: Record<UnitChangeKind, number>;
}

const entryOrder = (entry: TranslationEntry) => `${entry.project.slug}\u0000${entry.component.slug}\u0000${entry.language.slug}`;

/** Translations of both snapshots matched by path, in project, component, language order. */
export function pairTranslations(before: readonly TranslationEntry[], after: readonly TranslationEntry[]): TranslationPair[] {
  const pairs = new Map<string, TranslationPair>();
  for (const entry of before) pairs.set(entry.path, { path: entry.path, before: entry, after: undefined });
  for (const entry of after) pairs.set(entry.path, { path: entry.path, before: pairs.get(entry.path)?.before, after: entry });
  const key = (pair: TranslationPair) => entryOrder((pair.after ?? pair.before)!);
  return [...pairs.values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Whether the pair's unit lists must be read and compared: present on both sides with different contents. */
export function unitsDiffer(pair: TranslationPair): boolean {
  return pair.before !== undefined && pair.after !== undefined && pair.before.unitsHash !== pair.after.unitsHash;
}

/** One translation's diff, or `undefined` when nothing about it changed. */
export function translationDiff(pair: TranslationPair, changes: readonly UnitChange[]): TranslationDiff | undefined {
  const entry = (pair.after ?? pair.before)!;
  const status: PresenceStatus = pair.before === undefined ? 'added' : pair.after === undefined ? 'removed' : 'changed';
  const figures = figuresDelta(pair.before?.figures ?? noFigures, pair.after?.figures ?? noFigures);
  if (status === 'changed' && changes.length === 0 && isZeroDelta(figures)) return undefined;
  return {
    path: pair.path,
    project: entry.project,
    component: entry.component,
    language: entry.language,
    status,
    figures,
    counts: countKinds(changes),
    changes: [...changes],
  };
}

/** Figures summed per project, component or language on both sides; groups whose figures did not move are left out. */
export function groupDeltas(
  before: readonly TranslationEntry[],
  after: readonly TranslationEntry[],
  groupOf: (entry: TranslationEntry) => Named & { key: string },
): GroupDelta[] {
  const sum = (entries: readonly TranslationEntry[]) => {
    const groups = new Map<string, { name: string; figures: Figures }>();
    for (const entry of entries) {
      const { key, name } = groupOf(entry);
      groups.set(key, { name, figures: addFigures(groups.get(key)?.figures ?? noFigures, entry.figures) });
    }
    return groups;
  };
  const old = sum(before);
  const now = sum(after);
  const deltas: GroupDelta[] = [];
  for (const key of new Set([...old.keys(), ...now.keys()])) {
    const figures = figuresDelta(old.get(key)?.figures ?? noFigures, now.get(key)?.figures ?? noFigures);
    const status: PresenceStatus = !old.has(key) ? 'added' : !now.has(key) ? 'removed' : 'changed';
    if (status === 'changed' && isZeroDelta(figures)) continue;
    deltas.push({ key, name: (now.get(key) ?? old.get(key))!.name, status, figures });
  }
  return deltas.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export const groupings = {
  project: (entry: TranslationEntry) => ({ ...entry.project, key: entry.project.slug }),
  component: (entry: TranslationEntry) => ({ ...entry.component, key: `${entry.project.slug}/${entry.component.slug}` }),
  language: (entry: TranslationEntry) => ({ ...entry.language, key: entry.language.slug }),
};

/** The whole diff from the entries of both snapshots and the unit changes of the pairs that needed them. */
export function assembleDiff(
  from: string,
  to: string,
  before: readonly TranslationEntry[],
  after: readonly TranslationEntry[],
  unitChanges: ReadonlyMap<string, readonly UnitChange[]>,
): SnapshotDiff {
  const translations: TranslationDiff[] = [];
  for (const pair of pairTranslations(before, after)) {
    const diff = translationDiff(pair, unitChanges.get(pair.path) ?? []);
    if (diff) translations.push(diff);
  }
  const totals = countKinds(translations.flatMap((translation) => translation.changes));
  return {
    from,
    to,
    translations,
    projects: groupDeltas(before, after, groupings.project),
    components: groupDeltas(before, after, groupings.component),
    languages: groupDeltas(before, after, groupings.language),
    totals,
  };
}
