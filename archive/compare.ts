/**
 * Reads two snapshots and diffs them (`diff.ts` decides what changed). Unit lists are
 * content-addressed: a translation whose list hash is the same on both sides is skipped
 * without reading its units, so a diff costs in proportion to what changed.
 */
import { compareSnapshotIdsNewestFirst, listSnapshots, openSnapshot, ReadSession, type SnapshotSummary } from '../snapshot/index.ts';
import { assembleDiff, diffUnits, pairTranslations, unitsDiffer, type SnapshotDiff, type UnitChange } from './diff.ts';
import { describeSeries, holdsProjects, newestComplete, sameSeries, seriesIn, seriesOf } from './series.ts';
import { noFilter, translationEntries, type EntryFilter, type RecordCache } from './translations.ts';

export class CompareError extends Error {
  override name = 'CompareError';
}

/** The two snapshots a diff compares, and, when the user should know, which and why. */
export interface ChosenSnapshots {
  from: string;
  to: string;
  /**
   * Said when the archive holds snapshots of more than one server or scope (the snapshots taken
   * by default are of one series, archive/series.ts), or when the two named are not of one.
   */
  note?: string;
}

/**
 * The two snapshots to compare: as given; with `from` alone, `from` against the newest complete
 * snapshot of its server and scope; with neither, the newest two complete snapshots of one
 * server and scope that hold the `projects` the diff is limited to (any, when none are named).
 */
export async function chooseSnapshots(contentDir: string, from?: string, to?: string, projects: readonly string[] = []): Promise<ChosenSnapshots> {
  const summaries = await listSnapshots(contentDir);
  const seriesNamed = (id: string) => {
    const summary = summaries.find((candidate) => candidate.id === id);
    if (summary?.manifest === undefined) {
      throw new CompareError(`no finished snapshot "${id}" in ${contentDir}; \`tmsnap snapshots --content ${contentDir}\` lists them`);
    }
    return seriesOf(summary.manifest);
  };
  const mixed = seriesIn(summaries).length > 1;
  if (from !== undefined) {
    const fromSeries = seriesNamed(from);
    if (to !== undefined) {
      const toSeries = seriesNamed(to);
      if (sameSeries(fromSeries, toSeries)) return { from, to };
      return { from, to, note: `${from} is of ${describeSeries(fromSeries)}, ${to} of ${describeSeries(toSeries)}: only what both hold compares` };
    }
    const newest = newestComplete(summaries, fromSeries, from);
    if (newest === undefined || compareSnapshotIdsNewestFirst(newest.id, from) > 0) {
      throw new CompareError(`nothing newer than ${from} of ${describeSeries(fromSeries)} to compare it with in ${contentDir} (or name both: tmsnap diff A B)`);
    }
    return { from, to: newest.id, ...(mixed ? { note: `${newest.id} is the newest complete snapshot of ${describeSeries(fromSeries)}` } : {}) };
  }
  // The newest pair of one series (summaries come newest first): an archive whose newest
  // snapshot is a one-off `--project` crawl still diffs its nightly whole-instance ones.
  for (const newest of summaries) {
    if (!newest.complete || newest.manifest === undefined) continue;
    const series = seriesOf(newest.manifest);
    if (!holdsProjects(series, projects)) continue;
    const previous = newestComplete(summaries, series, newest.id);
    if (previous === undefined) continue;
    const note = `${previous.id} and ${newest.id} are the two newest complete snapshots of ${describeSeries(series)}; the archive holds other servers or scopes too`;
    return { from: previous.id, to: newest.id, ...(mixed ? { note } : {}) };
  }
  const complete = summaries.filter((summary) => summary.complete).length;
  const holding = projects.length > 0 ? ` holding ${projects.join(', ')}` : '';
  const of = mixed || projects.length > 0 ? `, no two of the same server and scope${holding}` : '';
  throw new CompareError(`${contentDir} holds ${complete} complete snapshot(s)${of}; a diff needs two (or name them: tmsnap diff A B)`);
}

export async function compareSnapshots(
  contentDir: string,
  fromId: string,
  toId: string,
  filter: EntryFilter = noFilter,
  cache: RecordCache = new Map(),
): Promise<SnapshotDiff> {
  // One session: the two snapshots share the index parts and delta bases they have in common.
  const session = new ReadSession();
  const [before, after] = await Promise.all([openSnapshot(contentDir, fromId, { session }), openSnapshot(contentDir, toId, { session })]);
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
 * the complete ones up to `built` of its server and scope (archive/series.ts: a one-project
 * crawl's figures beside a whole instance's would draw a cliff), and `built` itself.
 */
export function chooseSnapshotsForSite(summaries: readonly SnapshotSummary[], built: string): string[] {
  const builtSummary = summaries.find((summary) => summary.id === built);
  const builtStart = builtSummary?.manifest?.started ?? '';
  const series = builtSummary?.manifest && seriesOf(builtSummary.manifest);
  const ofSeries = (summary: SnapshotSummary) => series === undefined || (summary.manifest !== undefined && sameSeries(seriesOf(summary.manifest), series));
  return summaries
    .filter((summary) => summary.id === built || (summary.complete && ofSeries(summary) && (summary.manifest?.started ?? '') <= builtStart))
    .map((summary) => summary.id)
    .reverse();
}
