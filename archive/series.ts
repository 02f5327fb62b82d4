/**
 * Which snapshots of an archive compare with each other. An archive may hold crawls of more
 * than one server, and whole-instance crawls beside `--project` ones: a diff of a one-project
 * snapshot against a whole-instance one says "no changes", a search of a snapshot that lacks
 * the project asked for finds nothing (issue 24). Snapshots of the same server and the same
 * projects form a series; commands that take a snapshot by default take it in the series of
 * the one they compare with, and say which they took when the archive holds more than one. Pure.
 */
import type { Manifest, Scope, SnapshotSummary } from '../snapshot/index.ts';
import { describeScope } from './listing.ts';

/**
 * A snapshot's series: its server and the projects it was limited to (sorted; none for the
 * whole instance). `--changes-since` is left out: it narrows only the change log, which neither
 * a diff nor a search nor the history reads (docs/crawl.md).
 */
export interface Series {
  server: string;
  projects: readonly string[];
}

export function seriesOf(manifest: Pick<Manifest, 'server' | 'scope'>): Series {
  return { server: manifest.server.base_url, projects: [...(manifest.scope.projects ?? [])].sort() };
}

export function sameSeries(a: Series, b: Series): boolean {
  return a.server === b.server && a.projects.length === b.projects.length && a.projects.every((project, at) => project === b.projects[at]);
}

/** `projects humanize on https://…/`, `whole instance on https://…/`. */
export function describeSeries(series: Series): string {
  const scope: Scope = series.projects.length > 0 ? { projects: [...series.projects] } : {};
  return `${describeScope(scope)} on ${series.server}`;
}

/** Whether a snapshot of this series holds every project named (any, for a whole-instance one). */
export function holdsProjects(series: Series, projects: readonly string[]): boolean {
  return series.projects.length === 0 || projects.every((project) => series.projects.includes(project));
}

type Finished = SnapshotSummary & { manifest: Manifest };

const finished = (summaries: readonly SnapshotSummary[]): Finished[] => summaries.filter((summary): summary is Finished => summary.manifest !== undefined);

/** The series the finished snapshots of an archive belong to, one of each. */
export function seriesIn(summaries: readonly SnapshotSummary[]): Series[] {
  const found: Series[] = [];
  for (const summary of finished(summaries)) {
    const series = seriesOf(summary.manifest);
    if (!found.some((known) => sameSeries(known, series))) found.push(series);
  }
  return found;
}

/** The newest complete snapshot (summaries newest first) of the series, other than `except`. */
export function newestComplete(summaries: readonly SnapshotSummary[], series: Series, except?: string): Finished | undefined {
  return finished(summaries).find((summary) => summary.complete && summary.id !== except && sameSeries(seriesOf(summary.manifest), series));
}

/**
 * The snapshot a search takes by default: the newest complete one holding every project asked
 * for (the newest complete one when none does: the search then says the project is unknown),
 * with a note naming it when the archive holds more than one series. Undefined: none complete.
 */
export function chooseSearchSnapshot(summaries: readonly SnapshotSummary[], projects: readonly string[]): { id: string; note?: string } | undefined {
  const complete = finished(summaries).filter((summary) => summary.complete);
  const chosen = complete.find((summary) => holdsProjects(seriesOf(summary.manifest), projects)) ?? complete[0];
  if (chosen === undefined) return undefined;
  if (seriesIn(summaries).length <= 1) return { id: chosen.id };
  const holding = projects.length > 0 && holdsProjects(seriesOf(chosen.manifest), projects) ? ` holding ${projects.join(', ')}` : '';
  return {
    id: chosen.id,
    note: `searched ${chosen.id}, the newest complete snapshot${holding} (${describeSeries(seriesOf(chosen.manifest))}); --snapshot ID picks another`,
  };
}
