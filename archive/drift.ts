/**
 * Source drift (issue 26): strings whose translation was made against an older source text.
 * The rule, over the units of one translation in the archive's snapshots, oldest first:
 *
 * - A unit is followed by its `id`, which Weblate keeps for a string's whole life (diff.ts).
 *   Each snapshot holding the unit is compared with the last earlier one that held it.
 * - Its **source changed** in a step when `source` differs in any plural form.
 * - It was **worked on** in a step when its `target` or `state` differs and the new state is
 *   translated (20) or approved (30): a translator wrote it, or a reviewer confirmed or approved it.
 * - It is **drifting** when its source changed in some step, it was not worked on in that step
 *   nor in any later one, and its state in the newest snapshot is 20 or 30. A step with both
 *   counts as worked on: snapshots cannot tell which came first, and a translator who edits a
 *   string sees its current source. Weblate itself marks a translation "needs editing" (10)
 *   when its monolingual source changes; such units are not drifting, Weblate already says so.
 * - Not followed: units absent from the newest snapshot (removed strings), read-only units (100),
 *   source-language translations, and bilingual formats' source changes, which make a new unit.
 *
 * Timestamps are not used: `last_updated` moves with any save (a check run, a label), and
 * `timestamp` is when the unit was added (api/unit.ts). Pure, but for `readDrift` at the edge.
 * Reasons: docs/decisions/2026-11-26-levels-drift-credits.md.
 */
import type { Snapshot, StoredUnit } from '../snapshot/index.ts';
import type { Named, TranslationEntry } from './diff.ts';
import { noFilter, translationEntries, type EntryFilter, type RecordCache } from './translations.ts';

const translatedStates: ReadonlySet<number> = new Set([20, 30]);

const sameStrings = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, index) => value === b[index]);

/** What is known of one unit after the snapshots folded so far. */
export interface UnitTrack {
  unit: StoredUnit;
  /** Set while the source has changed since the unit was last worked on. */
  drift?: {
    /** The snapshot whose source first differed from the one the translation was made against. */
    since: string;
    /** The source the current translation was made against. */
    translatedSource: string[];
  };
}

/** The track of a unit after one more snapshot holding it (`previous`: its track before, if any). */
export function stepUnit(previous: UnitTrack | undefined, unit: StoredUnit, snapshot: string): UnitTrack {
  if (previous === undefined) return { unit };
  const before = previous.unit;
  const worked = (!sameStrings(before.target, unit.target) || before.state !== unit.state) && translatedStates.has(unit.state);
  if (worked) return { unit };
  if (!sameStrings(before.source, unit.source) && previous.drift === undefined) return { unit, drift: { since: snapshot, translatedSource: before.source } };
  return previous.drift === undefined ? { unit } : { unit, drift: previous.drift };
}

/**
 * The tracks of a translation's units after one more snapshot of its unit list. Units it does not
 * list keep their tracks: a unit id is never reused, so one that comes back is the same string.
 */
export function stepUnits(previous: ReadonlyMap<number, UnitTrack> | undefined, units: readonly StoredUnit[], snapshot: string): Map<number, UnitTrack> {
  const tracks = new Map(previous ?? []);
  for (const unit of units) tracks.set(unit.id, stepUnit(previous?.get(unit.id), unit, snapshot));
  return tracks;
}

/** Whether a unit's track says it is drifting now. */
export function isDrifting(track: UnitTrack): boolean {
  return track.drift !== undefined && translatedStates.has(track.unit.state);
}

/** A string translated against an older source. */
export interface DriftingUnit {
  /** The translation's path, `api/translations/<project>/<component>/<language>/`. */
  translation: string;
  project: Named;
  component: Named;
  id: number;
  position: number;
  context: string;
  /** The source now. */
  source: string[];
  /** The source its translation was made against. */
  translatedSource: string[];
  target: string[];
  state: number;
  /** The first snapshot whose source differed. */
  since: string;
}

/** The drifting strings of one language, in project, component, position order. */
export interface LanguageDrift {
  language: Named;
  units: DriftingUnit[];
}

/** One snapshot as the fold reads it: its translations and, for those whose unit list changed, the units. */
export interface DriftPoint {
  id: string;
  /** Translations of other languages than their component's source language. */
  entries: readonly TranslationEntry[];
  /** Units by translation path; a translation left out has the same unit list as in the point before. */
  units: ReadonlyMap<string, readonly StoredUnit[]>;
}

/** What the fold knows of one translation: the entry and unit list of the last snapshot holding it, and every unit's track. */
export interface TranslationTracks {
  entry: TranslationEntry;
  tracks: Map<number, UnitTrack>;
  /** Ids of the units of its last unit list. */
  listed: ReadonlySet<number>;
  /** The last snapshot holding it. */
  seenIn: string;
}

/** The fold's state: the last snapshot folded, and every translation seen so far by path. */
export interface DriftState {
  last: string | undefined;
  translations: Map<string, TranslationTracks>;
}

export const noDrift = (): DriftState => ({ last: undefined, translations: new Map() });

/**
 * The state after one more snapshot, oldest first. A translation it lacks keeps its tracks (a
 * later snapshot holding it compares with the last that did), but only the translations and
 * units of the newest snapshot are reported: removed ones do not drift.
 */
export function foldDrift(state: DriftState, point: DriftPoint): DriftState {
  const translations = new Map(state.translations);
  for (const entry of point.entries) {
    const previous = state.translations.get(entry.path);
    const units = point.units.get(entry.path);
    translations.set(entry.path, {
      entry,
      tracks: units === undefined ? (previous?.tracks ?? new Map<number, UnitTrack>()) : stepUnits(previous?.tracks, units, point.id),
      listed: units === undefined ? (previous?.listed ?? new Set<number>()) : new Set(units.map((unit) => unit.id)),
      seenIn: point.id,
    });
  }
  return { last: point.id, translations };
}

const order = (unit: DriftingUnit) => `${unit.project.slug}\u0000${unit.component.slug}\u0000${String(unit.position).padStart(12, '0')}`;

/** The drifting strings of a folded state, per language code, languages sorted by code. */
export function driftByLanguage(state: DriftState): LanguageDrift[] {
  const languages = new Map<string, LanguageDrift>();
  for (const [path, { entry, tracks, listed, seenIn }] of state.translations) {
    if (seenIn !== state.last) continue;
    for (const track of tracks.values()) {
      if (!listed.has(track.unit.id) || !isDrifting(track)) continue;
      let language = languages.get(entry.language.slug);
      if (!language) languages.set(entry.language.slug, (language = { language: entry.language, units: [] }));
      const { unit } = track;
      language.units.push({
        translation: path,
        project: entry.project,
        component: entry.component,
        id: unit.id,
        position: unit.position,
        context: unit.context,
        source: unit.source,
        translatedSource: track.drift!.translatedSource,
        target: unit.target,
        state: unit.state,
        since: track.drift!.since,
      });
    }
  }
  for (const language of languages.values()) language.units.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : a.id - b.id));
  return [...languages.values()].sort((a, b) => (a.language.slug < b.language.slug ? -1 : a.language.slug > b.language.slug ? 1 : 0));
}

/**
 * The drift over snapshots (any order; they are folded oldest first by crawl start): each
 * snapshot's translations are read, then unit lists only of the translations whose list changed
 * somewhere in the series (a list that never changed holds no source change), each only when
 * its hash differs from the one folded before: the cost follows what changed, not the archive's
 * size (a 1M-string archive of unchanged nights reads no unit list).
 */
export async function readDrift(snapshots: readonly Snapshot[], filter: EntryFilter = noFilter): Promise<LanguageDrift[]> {
  const ordered = [...snapshots].sort((a, b) => Date.parse(a.manifest.started) - Date.parse(b.manifest.started) || (a.id < b.id ? -1 : 1));
  const cache: RecordCache = new Map();
  const entriesOf: TranslationEntry[][] = [];
  const hashes = new Map<string, Set<string | undefined>>();
  for (const snapshot of ordered) {
    const sources = new Set((await snapshot.translations()).filter(({ record }) => record.is_source).map(({ path }) => path));
    const entries = (await translationEntries(snapshot, filter, cache)).filter((entry) => !sources.has(entry.path));
    for (const entry of entries) hashes.set(entry.path, (hashes.get(entry.path) ?? new Set()).add(entry.unitsHash));
    entriesOf.push(entries);
  }
  let state = noDrift();
  for (const [at, snapshot] of ordered.entries()) {
    const units = new Map<string, StoredUnit[]>();
    for (const entry of entriesOf[at]!) {
      if (hashes.get(entry.path)!.size < 2) continue;
      const before = state.translations.get(entry.path)?.entry.unitsHash;
      if (before === undefined || before !== entry.unitsHash) units.set(entry.path, await snapshot.units(entry.path));
    }
    state = foldDrift(state, { id: snapshot.id, entries: entriesOf[at]!, units });
  }
  return driftByLanguage(state);
}
