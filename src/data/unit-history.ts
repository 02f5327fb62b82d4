/**
 * A string's story across the archive: for each unit of a translation, one row per archived
 * snapshot in which its state or text differed from the snapshot before, oldest first
 * (docs/site.md, "String history"). Unit lists are content-addressed, so a translation whose
 * list did not change between two snapshots has the same hash in both and is read once:
 * the cost follows the number of changed lists, not of snapshots.
 */
import type { Snapshot } from '../../snapshot/index.ts';
import { publishedArchiveSnapshot, timeline } from './archive.ts';
import { perBuild } from './build-input.ts';
import { authorLabel, siteUsers } from './authors.ts';
import { settings } from './settings.ts';
import { siteTree, type TranslationEntry } from './tree.ts';

export interface HistoryRow {
  snapshot: string;
  /** When that snapshot's crawl started. */
  date: string;
  state: number;
  target: string[];
  /** Who made the last change to the string before that snapshot, when the change log names one. */
  author: string | undefined;
}

/** The snapshots of the timeline, oldest first, opened once; empty when history is off or there is one snapshot only. */
const archiveSnapshots: () => Promise<Snapshot[]> = perBuild(async () => {
  if (!settings().history) return [];
  const ids = await timeline();
  if (ids.length < 2) return [];
  const built = (await siteTree()).snapshot;
  return Promise.all(ids.map(async (id) => (id === built.id ? built : publishedArchiveSnapshot(id))));
});

/** Who changed each unit and when, from the built snapshot's change log (read once, only for histories). */
const unitAuthors: () => Promise<Map<number, Array<{ timestamp: string; user: string }>>> = perBuild(async () => {
  const { snapshot, hideAuthors } = await siteTree();
  const byUnit = new Map<number, Array<{ timestamp: string; user: string }>>();
  const users = await siteUsers();
  for await (const change of snapshot.changes()) {
    const id = change.unit === null ? undefined : /units\/(\d+)\/?$/.exec(change.unit)?.[1];
    const user = change.user ?? change.author;
    if (id === undefined || !user) continue;
    const list = byUnit.get(Number(id)) ?? [];
    list.push({ timestamp: change.timestamp, user: authorLabel(user, hideAuthors, true, users) });
    byUnit.set(Number(id), list);
  }
  return byUnit;
});

/** The author of the unit's last change at or before `until` (both ISO timestamps, compared as instants). */
function authorBefore(changes: Array<{ timestamp: string; user: string }> | undefined, until: string): string | undefined {
  if (!changes) return undefined;
  const limit = Date.parse(until);
  let found: { at: number; user: string } | undefined;
  for (const change of changes) {
    const at = Date.parse(change.timestamp);
    if (at <= limit && (!found || at >= found.at)) found = { at, user: change.user };
  }
  return found?.user;
}

const sameTarget = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((text, index) => text === b[index]);

// Unit pages render translation by translation: one translation's histories at a time.
const latest = perBuild((): { current?: { path: string; histories: Promise<Map<number, HistoryRow[]>> } } => ({}));

/** Histories of the units of a translation that changed at least once in the archive, by unit id. */
export function translationHistory(translation: TranslationEntry): Promise<Map<number, HistoryRow[]>> {
  const held = latest();
  if (held.current?.path !== translation.path) held.current = { path: translation.path, histories: buildHistories(translation) };
  return held.current.histories;
}

async function buildHistories(translation: TranslationEntry): Promise<Map<number, HistoryRow[]>> {
  const snapshots = await archiveSnapshots();
  const histories = new Map<number, HistoryRow[]>();
  if (snapshots.length === 0) return histories;
  const listKey = `${translation.path}units/`;
  const rows = new Map<number, HistoryRow[]>();
  let previousHash: string | undefined;
  for (const snapshot of snapshots) {
    const hash = snapshot.index.records[listKey];
    if (hash === undefined) continue;
    // The same list as the snapshot before: no unit differs.
    if (hash === previousHash) continue;
    const list = await snapshot.units(translation.path);
    for (const unit of list) {
      const seen = rows.get(unit.id);
      const last = seen?.at(-1);
      if (last && last.state === unit.state && sameTarget(last.target, unit.target)) continue;
      const row: HistoryRow = { snapshot: snapshot.id, date: snapshot.manifest.started, state: unit.state, target: unit.target, author: undefined };
      if (seen) seen.push(row);
      else rows.set(unit.id, [row]);
    }
    previousHash = hash;
  }
  const changed = [...rows.values()].some((list) => list.length > 1);
  const authors = changed ? await unitAuthors() : new Map<number, Array<{ timestamp: string; user: string }>>();
  for (const [id, list] of rows) {
    if (list.length < 2) continue;
    for (const row of list) row.author = authorBefore(authors.get(id), row.date);
    histories.set(id, list);
  }
  return histories;
}
