/**
 * The site's seam to the whole archive (every snapshot, not only the one being built): history
 * series and snapshot diffs, computed by `archive/` and memoized for the build. Pages and
 * components only render what these return.
 */
import { chooseSnapshotsForSite, compareSnapshots } from '../../archive/compare.ts';
import type { SnapshotDiff } from '../../archive/diff.ts';
import { buildHistory, type History, type SnapshotPoint } from '../../archive/history.ts';
import { noFilter, translationEntries, type EntryFilter, type RecordCache } from '../../archive/translations.ts';
import { listSnapshots, openSnapshot, type Snapshot } from '../../snapshot/index.ts';
import { redactValue } from '../../site-model/privacy.ts';
import { publishedSnapshot, sharedProjects } from '../../site-model/published-snapshot.ts';
import { buildInput, perBuild } from './build-input.ts';
import { siteTree } from './tree.ts';

/** What-changed pages are built for this many of the latest snapshot pairs. */
export const diffPages = 10;
/** String lines a what-changed page lists per translation; `tmsnap diff` shows them all. */
export const unitLinesPerTranslation = 100;

export interface SnapshotPair {
  from: string;
  to: string;
}

const recordCache = perBuild((): RecordCache => new Map());

export function contentDir(): string {
  return buildInput().content;
}

/** A snapshot of the archive as this build publishes it. */
export async function publishedArchiveSnapshot(id: string): Promise<Snapshot> {
  return publishedSnapshot(await openSnapshot(contentDir(), id), buildInput());
}

/**
 * The snapshots the history is drawn from, oldest first: every complete snapshot up to the one
 * being built (incomplete ones would show dips that are gaps in the crawl, not in the work).
 */
export const timeline: () => Promise<string[]> = perBuild(async (input) => {
  const built = (await siteTree()).snapshot.id;
  const summaries = await listSnapshots(input.content);
  return chooseSnapshotsForSite(summaries, built);
});

export const history: () => Promise<History> = perBuild(async () => {
  const points: SnapshotPoint[] = [];
  for (const id of await timeline()) {
    // Each snapshot as it may be published: an older keyed crawl's private projects stay out of the figures.
    const snapshot = await publishedArchiveSnapshot(id);
    points.push({ id, date: new Date(snapshot.manifest.started), entries: await translationEntries(snapshot, undefined, recordCache()) });
  }
  return buildHistory(points);
});

/** The latest consecutive snapshot pairs, newest first. */
export async function snapshotPairs(): Promise<SnapshotPair[]> {
  const ids = await timeline();
  const pairs: SnapshotPair[] = [];
  for (let at = ids.length - 1; at > 0 && pairs.length < diffPages; at--) pairs.push({ from: ids[at - 1]!, to: ids[at]! });
  return pairs;
}

const diffs = perBuild(() => new Map<string, Promise<SnapshotDiff>>());

export function diffOf(pair: SnapshotPair): Promise<SnapshotDiff> {
  const key = `${pair.from}--${pair.to}`;
  let diff = diffs().get(key);
  if (!diff) {
    diff = publishedFilter(pair).then(async ({ filter, emails }) => {
      const compared = await compareSnapshots(contentDir(), pair.from, pair.to, filter, recordCache());
      return emails ? compared : redactValue(compared);
    });
    diffs().set(key, diff);
  }
  return diff;
}

/**
 * The projects a what-changed page may show: those published from both snapshots of the pair
 * (a project either side leaves out stays out), as the archive's filter of project slugs.
 */
async function publishedFilter(pair: SnapshotPair): Promise<{ filter: EntryFilter; emails: boolean }> {
  const { every, shown, emails } = await sharedProjects(await Promise.all([pair.from, pair.to].map((id) => publishedArchiveSnapshot(id))));
  if (every) return { filter: noFilter, emails };
  // An empty list means every project to the archive: a slug no project can have stands for none.
  return { filter: { projects: shown.length > 0 ? shown : ['\u0000'], languages: [] }, emails };
}
