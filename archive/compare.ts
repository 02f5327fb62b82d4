/**
 * Reads two snapshots and diffs them (`diff.ts` decides what changed). Unit lists are
 * content-addressed: a translation whose list hash is the same on both sides is skipped
 * without reading its units, so a diff costs in proportion to what changed.
 */
import { listSnapshots, openSnapshot, type SnapshotSummary } from '../snapshot/reader.ts';
import { assembleDiff, diffUnits, pairTranslations, unitsDiffer, type SnapshotDiff, type UnitChange } from './diff.ts';
import { noFilter, translationEntries, type EntryFilter, type RecordCache } from './translations.ts';

export class CompareError extends Error {
  override name = 'CompareError';
}

/** The two snapshots to compare: as given, or the two newest complete ones (`to` alone: against the newest complete). */
export async function chooseSnapshots(contentDir: string, from?: string, to?: string): Promise<{ from: string; to: string }> {
  const summaries = await listSnapshots(contentDir);
  for (const id of [from, to]) {
    if (id !== undefined && !summaries.some((summary) => summary.finished && summary.id === id)) {
      throw new CompareError(`no finished snapshot "${id}" in ${contentDir}; \`tmsnap snapshots --content ${contentDir}\` lists them`);
    }
  }
  if (from !== undefined && to !== undefined) return { from, to };
  const complete = summaries.filter((summary) => summary.complete).map((summary) => summary.id);
  if (from !== undefined) {
    const newest = complete[0];
    if (newest === undefined || newest === from) throw new CompareError(`nothing newer than ${from} to compare it with in ${contentDir}`);
    return { from, to: newest };
  }
  const [newest, previous] = complete;
  if (newest === undefined || previous === undefined) {
    throw new CompareError(`${contentDir} holds ${complete.length} complete snapshot(s); a diff needs two (or name them: tmsnap diff A B)`);
  }
  return { from: previous, to: newest };
}

export async function compareSnapshots(
  contentDir: string,
  fromId: string,
  toId: string,
  filter: EntryFilter = noFilter,
  cache: RecordCache = new Map(),
): Promise<SnapshotDiff> {
  const [before, after] = await Promise.all([openSnapshot(contentDir, fromId), openSnapshot(contentDir, toId)]);
  const beforeEntries = await translationEntries(before, filter, cache);
  const afterEntries = await translationEntries(after, filter, cache);
  const unitChanges = new Map<string, UnitChange[]>();
  for (const pair of pairTranslations(beforeEntries, afterEntries)) {
    if (!unitsDiffer(pair)) continue;
    unitChanges.set(pair.path, diffUnits(await before.units(pair.path), await after.units(pair.path)));
  }
  return assembleDiff(fromId, toId, beforeEntries, afterEntries, unitChanges);
}

/**
 * The snapshots a site built from `built` draws its history and diffs from, oldest first:
 * the complete ones up to `built`, and `built` itself.
 */
export function chooseSnapshotsForSite(summaries: readonly SnapshotSummary[], built: string): string[] {
  const builtSummary = summaries.find((summary) => summary.id === built);
  const builtStart = builtSummary?.manifest?.started ?? '';
  return summaries
    .filter((summary) => summary.id === built || (summary.complete && (summary.manifest?.started ?? '') <= builtStart))
    .map((summary) => summary.id)
    .reverse();
}
