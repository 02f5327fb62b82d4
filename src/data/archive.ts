/**
 * The site's seam to the whole archive (every snapshot, not only the one being built): history
 * series and snapshot diffs, computed by `archive/` and memoized for the build. Pages and
 * components only render what these return.
 */
import { chooseSnapshotsForSite, compareSnapshots } from '../../archive/compare.ts';
import type { SnapshotDiff } from '../../archive/diff.ts';
import { buildHistory, type History, type SnapshotPoint } from '../../archive/history.ts';
import { noFilter, translationEntries, type EntryFilter, type RecordCache } from '../../archive/translations.ts';
import { listSnapshots, openSnapshot } from '../../snapshot/reader.ts';
import { siteEnv } from '../../site/env.ts';
import { redactValue } from '../../site/privacy.ts';
import { publicationOfView, publishedSnapshot } from '../../site/published-snapshot.ts';
import { siteTree } from './tree.ts';

/** What-changed pages are built for this many of the latest snapshot pairs. */
export const diffPages = 10;
/** String lines a what-changed page lists per translation; `tmsnap diff` shows them all. */
export const unitLinesPerTranslation = 100;

export interface SnapshotPair {
  from: string;
  to: string;
}

const cache: RecordCache = new Map();

export function contentDir(): string {
  const content = process.env[siteEnv.content];
  if (!content) throw new Error(`${siteEnv.content} is not set: build the site with \`tmsnap build --content DIR\`, which sets it.`);
  return content;
}

let timelinePromise: Promise<string[]> | undefined;

/**
 * The snapshots the history is drawn from, oldest first: every complete snapshot up to the one
 * being built (incomplete ones would show dips that are gaps in the crawl, not in the work).
 */
export function timeline(): Promise<string[]> {
  timelinePromise ??= (async () => {
    const built = (await siteTree()).snapshot.id;
    const summaries = await listSnapshots(contentDir());
    return chooseSnapshotsForSite(summaries, built);
  })();
  return timelinePromise;
}

let historyPromise: Promise<History> | undefined;

export function history(): Promise<History> {
  historyPromise ??= (async () => {
    const points: SnapshotPoint[] = [];
    for (const id of await timeline()) {
      // Each snapshot as it may be published: an older keyed crawl's private projects stay out of the figures.
      const snapshot = await publishedSnapshot(await openSnapshot(contentDir(), id));
      points.push({ id, date: new Date(snapshot.manifest.started), entries: await translationEntries(snapshot, undefined, cache) });
    }
    return buildHistory(points);
  })();
  return historyPromise;
}

/** The latest consecutive snapshot pairs, newest first. */
export async function snapshotPairs(): Promise<SnapshotPair[]> {
  const ids = await timeline();
  const pairs: SnapshotPair[] = [];
  for (let at = ids.length - 1; at > 0 && pairs.length < diffPages; at--) pairs.push({ from: ids[at - 1]!, to: ids[at]! });
  return pairs;
}

const diffs = new Map<string, Promise<SnapshotDiff>>();

export function diffOf(pair: SnapshotPair): Promise<SnapshotDiff> {
  const key = `${pair.from}--${pair.to}`;
  let diff = diffs.get(key);
  if (!diff) {
    diff = publishedFilter(pair).then(async ({ filter, emails }) => {
      const compared = await compareSnapshots(contentDir(), pair.from, pair.to, filter, cache);
      return emails ? compared : redactValue(compared);
    });
    diffs.set(key, diff);
  }
  return diff;
}

/**
 * The projects a what-changed page may show: those published from both snapshots of the pair
 * (a project either side leaves out stays out), as the archive's filter of project slugs.
 */
async function publishedFilter(pair: SnapshotPair): Promise<{ filter: EntryFilter; emails: boolean }> {
  const views = await Promise.all([pair.from, pair.to].map(async (id) => publishedSnapshot(await openSnapshot(contentDir(), id))));
  const publications = views.map((view) => publicationOfView(view));
  const emails = publications.every((publication) => publication?.emails === true);
  if (publications.every((publication) => publication !== undefined && publication.hiddenProjects.size === 0)) return { filter: noFilter, emails };
  const hidden = new Set(publications.flatMap((publication) => [...(publication?.hiddenProjects ?? [])]));
  const shown = new Set<string>();
  for (const view of views) for (const { path, record } of await view.projects()) if (!hidden.has(path)) shown.add(record.slug);
  // An empty list means every project to the archive: a slug no project can have stands for none.
  return { filter: { projects: shown.size > 0 ? [...shown] : ['\u0000'], languages: [] }, emails };
}
