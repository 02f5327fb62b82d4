/**
 * Strings as versions (issue 37): a unit's row lasts from the snapshot it was first seen in
 * with this content to the last one it was seen in unchanged, so 30 snapshots of a million
 * strings are about a million rows, not 30 million. Pure: the caller reads the units.
 */
import type { StoredUnit } from '../snapshot/index.ts';
import { sameVersion, unitContent, type TranslationKey, type UnitContent } from './rows.ts';
import type { Row } from './schema.ts';

/** A version still open: seen in the newest snapshot read so far. */
export interface LiveVersion {
  key: TranslationKey;
  unit: number;
  first_snapshot: string;
  content: UnitContent;
}

/** The open versions of one translation, by unit id. */
export type LiveUnits = Map<number, LiveVersion>;

export interface UnitStep {
  /** The translation's open versions after this snapshot. */
  live: LiveUnits;
  /** Versions that ended: their unit changed or went away (last seen in the snapshot before). */
  ended: LiveVersion[];
  /** How many versions began in this snapshot. */
  opened: number;
}

/** One translation's versions after seeing its `units` in `snapshot`; `live` (the open ones before) is not changed. */
export function stepUnits(live: ReadonlyMap<number, LiveVersion> | undefined, key: TranslationKey, units: readonly StoredUnit[], snapshot: string): UnitStep {
  const next: LiveUnits = new Map();
  const ended: LiveVersion[] = [];
  let opened = 0;
  for (const unit of units) {
    const content = unitContent(unit);
    const before = live?.get(unit.id);
    if (before !== undefined && sameVersion(before.content, content)) {
      next.set(unit.id, before);
      continue;
    }
    if (before !== undefined) ended.push(before);
    next.set(unit.id, { key, unit: unit.id, first_snapshot: snapshot, content });
    opened += 1;
  }
  if (live) for (const [id, version] of live) if (!next.has(id)) ended.push(version);
  return { live: next, ended, opened };
}

/** A version as a row of `unit_versions`, last seen in `last`. */
export function versionRow(version: LiveVersion, last: string): Row {
  return {
    project: version.key.project,
    component: version.key.component,
    language: version.key.language,
    unit: version.unit,
    first_snapshot: version.first_snapshot,
    last_snapshot: last,
    ...version.content,
  };
}

/** The version a row of `unit_versions` holds (read back for an incremental run). */
export function versionOfRow(row: Record<string, unknown>): LiveVersion {
  const text = (name: string) => String(row[name] ?? '');
  return {
    key: { project: text('project'), component: text('component'), language: text('language') },
    unit: Number(row.unit),
    first_snapshot: text('first_snapshot'),
    content: {
      position: Number(row.position),
      context: text('context'),
      source: text('source'),
      target: text('target'),
      state: Number(row.state),
      flags: text('flags'),
    },
  };
}
