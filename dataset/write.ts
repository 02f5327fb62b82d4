/**
 * `tmsnap dataset`: the archive's snapshots as tables (docs/dataset.md). Which snapshots
 * (`chooseDatasetSnapshots`, pure), then one snapshot at a time through the site's published
 * view (no e-mail address, nothing an anonymous visitor of the server could not see), into a
 * SQLite file or a Parquet folder. A second run adds the snapshots crawled since.
 */
import { sinceOf } from '../archive/credits.ts';
import { describeSeries, sameSeries, seriesOf } from '../archive/series.ts';
import { readTags, resolveSnapshotName, type Tag } from '../archive/tags.ts';
import { compareSnapshotIdsNewestFirst, listSnapshots, openSnapshot, ReadSession, type Manifest, type SnapshotSummary } from '../snapshot/index.ts';
import { redactEmails } from '../site-model/privacy.ts';
import { publishedSnapshot } from '../site-model/published-snapshot.ts';
import { siteRecords } from '../site-model/records.ts';
import { openParquetSink, readParquetState } from './parquet.ts';
import { changeRow, keyText, snapshotRow, snapshotRows, translationKey, withoutNames } from './rows.ts';
import { datasetFormat, type Row } from './schema.ts';
import type { DatasetSink, DatasetState } from './sink.ts';
import { openSqliteSink, readSqliteState } from './sqlite.ts';
import { stepUnits, versionRow, type LiveUnits } from './versions.ts';

export type DatasetFormat = 'sqlite' | 'parquet';

/** Input the command refuses, said in one line (exit 1); nothing has been written. */
export class DatasetError extends Error {
  override name = 'DatasetError';
}

type Complete = SnapshotSummary & { manifest: Manifest };

export interface Chosen {
  /** Oldest first, one server and scope. */
  snapshots: Complete[];
  /** Said when the archive holds snapshots of other servers or scopes, left out. */
  note?: string;
}

/**
 * The snapshots a dataset holds: the complete ones of one server and scope (that of `snapshot`,
 * else of the newest complete one) up to `snapshot` (a release tag or id), from `since` (a tag,
 * an id or a UTC date) on.
 */
export function chooseDatasetSnapshots(
  summaries: readonly SnapshotSummary[],
  tags: readonly Tag[],
  options: { snapshot?: string | undefined; since?: string | undefined; content: string },
): Chosen {
  const complete = summaries.filter((summary): summary is Complete => summary.complete && summary.manifest !== undefined);
  if (complete.length === 0) {
    throw new DatasetError(`no complete snapshot in ${options.content}: a dataset is made of complete snapshots; run \`tmsnap crawl\` until one completes`);
  }
  let newest = complete[0]!;
  if (options.snapshot !== undefined) {
    const id = resolveSnapshotName(tags, options.snapshot);
    const found = complete.find((summary) => summary.id === id);
    if (found === undefined) {
      throw new DatasetError(
        `--snapshot "${options.snapshot}" is not a release tag or a complete snapshot in ${options.content}: \`tmsnap tag\` and \`tmsnap snapshots\` list them`,
      );
    }
    newest = found;
  }
  const series = seriesOf(newest.manifest);
  let chosen = complete.filter((summary) => sameSeries(seriesOf(summary.manifest), series) && summary.manifest.started <= newest.manifest.started);
  if (options.since !== undefined) {
    const since = sinceOf(options.since, tags, summaries);
    if (typeof since === 'string') throw new DatasetError(since);
    chosen = chosen.filter((summary) => Date.parse(summary.manifest.started) >= since.getTime());
    if (chosen.length === 0) throw new DatasetError(`no complete snapshot from --since ${options.since} to ${newest.id} in ${options.content}`);
  }
  const others = complete.length - complete.filter((summary) => sameSeries(seriesOf(summary.manifest), series)).length;
  const note =
    others > 0 ? `the dataset holds snapshots of ${describeSeries(series)}; ${others} complete snapshot(s) of other servers or scopes left out` : undefined;
  return { snapshots: chosen.reverse(), ...(note ? { note } : {}) };
}

/** What the output already holds, read before anything is written. */
export async function readDatasetState(format: DatasetFormat, out: string): Promise<DatasetState | undefined> {
  return format === 'sqlite' ? readSqliteState(out) : readParquetState(out);
}

/**
 * The snapshots a run adds to a dataset holding `state`, or undefined when it must be written
 * anew (another format, server or scope; or a wanted snapshot older than its newest that it
 * lacks). With `exact` (`--since` or `--snapshot` given) the dataset must hold the beginning of
 * `wanted`; without, it keeps what it holds, snapshots pruned from the archive since included,
 * and gains those newer than its newest: the dataset outlives the archive's retention.
 */
export function snapshotsToAdd(
  state: DatasetState | undefined,
  wanted: readonly string[],
  series: { server: string; scope: string | null },
  exact: boolean,
): string[] | undefined {
  if (state === undefined || state.format !== datasetFormat || state.server !== series.server || state.scope !== series.scope) return undefined;
  const newest = state.snapshots.at(-1);
  if (newest === undefined) return undefined;
  if (exact) {
    const prefix = state.snapshots.length <= wanted.length && state.snapshots.every((id, at) => wanted[at] === id);
    return prefix ? wanted.slice(state.snapshots.length) : undefined;
  }
  const held = new Set(state.snapshots);
  if (wanted.some((id) => compareIds(id, newest) <= 0 && !held.has(id))) return undefined;
  return wanted.filter((id) => compareIds(id, newest) > 0);
}

/** Snapshot ids in time order (oldest first). */
const compareIds = (a: string, b: string) => -compareSnapshotIdsNewestFirst(a, b);

export interface DatasetOptions {
  content: string;
  out: string;
  format: DatasetFormat;
  snapshot?: string | undefined;
  since?: string | undefined;
  tmsnapVersion: string;
  /**
   * Name nobody, as a site built with `--hide-authors` (`tmsnap build --dataset`): the columns
   * naming people (`changes.user`, `changes.author`, `translations.last_author`) are null.
   */
  hideAuthors?: boolean | undefined;
  /** One line per snapshot written, and notes. */
  onProgress?: (line: string) => void;
}

export interface DatasetSummary {
  out: string;
  format: DatasetFormat;
  /** Whether the run added to an existing dataset (else it wrote a new one). */
  incremental: boolean;
  snapshots: number;
  added: string[];
  unitVersions: { opened: number; ended: number; live: number };
  changes: number;
}

export async function writeDataset(options: DatasetOptions): Promise<DatasetSummary> {
  const say = options.onProgress ?? (() => {});
  const summaries = await listSnapshots(options.content);
  const tags = await readTags(options.content);
  const { snapshots, note } = chooseDatasetSnapshots(summaries, tags, options);
  if (note !== undefined) say(note);
  const ids = snapshots.map((summary) => summary.id);
  const first = snapshots[0]!.manifest;
  const scope = first.scope.projects?.length ? [...first.scope.projects].sort().join(',') : null;
  const state = await readDatasetState(options.format, options.out);
  const exact = options.since !== undefined || options.snapshot !== undefined;
  const hideAuthors = options.hideAuthors ?? false;
  const sameNaming = (state?.hide_authors ?? false) === hideAuthors;
  const toAdd = sameNaming ? snapshotsToAdd(state, ids, { server: first.server.base_url, scope }, exact) : undefined;
  const incremental = toAdd !== undefined;
  if (state !== undefined && !incremental) say(`the dataset at ${options.out} holds other snapshots: written anew`);
  const held = incremental ? state!.snapshots : [];
  const added = toAdd ?? ids;
  const all = [...held, ...added];
  const sink: DatasetSink =
    options.format === 'sqlite'
      ? await openSqliteSink(options.out, incremental)
      : await openParquetSink(options.out, incremental, `tmsnap ${options.tmsnapVersion}`);
  try {
    const live = new Map<string, LiveUnits>();
    for (const version of await sink.liveVersions()) {
      const key = keyText(version.key);
      let units = live.get(key);
      if (!units) live.set(key, (units = new Map()));
      units.set(version.unit, version);
    }
    const knownChanges = await sink.changeIds();
    let hashes: Record<string, string> = incremental ? state!.units : {};
    let chunks = new Set(incremental ? state!.changeChunks : []);
    let previous = held.at(-1);
    const endedRows: Row[] = [];
    let opened = 0;
    let changes = 0;
    const session = new ReadSession();
    const named = hideAuthors ? withoutNames : (row: Row) => row;
    for (const [at, id] of added.entries()) {
      const snapshot = await publishedSnapshot(await openSnapshot(options.content, id, { session }), { publish: [], hideAuthors });
      const records = await siteRecords(snapshot);
      const rows = snapshotRows(id, records);
      if (hideAuthors) rows.translations = rows.translations.map(named);
      await sink.addSnapshot(snapshotRow(snapshot.manifest), rows);
      // Strings: a translation whose unit list did not change keeps its versions open unread.
      const nextHashes: Record<string, string> = {};
      const seen = new Set<string>();
      let openedHere = 0;
      for (const { path } of records.translations) {
        const key = keyText(translationKey(path));
        if (seen.has(key)) continue;
        seen.add(key);
        const hash = snapshot.paths().get(`${path}units/`);
        if (hash !== undefined) nextHashes[path] = hash;
        if (hash !== undefined && hashes[path] === hash && live.has(key)) continue;
        const step = stepUnits(live.get(key), translationKey(path), await snapshot.units(path), id);
        live.set(key, step.live);
        for (const version of step.ended) endedRows.push(versionRow(version, previous!));
        openedHere += step.opened;
      }
      for (const [key, units] of live) {
        if (seen.has(key)) continue;
        for (const version of units.values()) endedRows.push(versionRow(version, previous!));
        live.delete(key);
      }
      // Changes: each once, in the first snapshot that holds it; a chunk seen before holds none new.
      const users = new Map((await snapshot.users()).map(({ path, record }) => [path, record]));
      const changeRows: Row[] = [];
      for (const chunk of snapshot.index.changes) {
        if (chunks.has(chunk.hash)) continue;
        // The view's chunk is published: its changes filtered and redacted (site-model/published-snapshot.ts).
        for (const change of await snapshot.changesIn(chunk)) {
          if (knownChanges.has(change.id)) continue;
          knownChanges.add(change.id);
          changeRows.push(named(changeRow(change, id, users, redactEmails)));
        }
      }
      if (changeRows.length > 0) await sink.addChanges(id, changeRows);
      changes += changeRows.length;
      opened += openedHere;
      hashes = nextHashes;
      chunks = new Set(snapshot.index.changes.map((chunk) => chunk.hash));
      previous = id;
      say(
        `snapshot ${at + 1}/${added.length} ${id}: ${rows.translations.length} translations, ${openedHere} new string versions, ${changeRows.length} new changes`,
      );
    }
    const newest = all.at(-1)!;
    const liveRows: Row[] = [];
    for (const units of live.values()) for (const version of units.values()) liveRows.push(versionRow(version, newest));
    const releases = tags.filter((tag) => all.includes(tag.snapshot)).map((tag) => ({ tag: tag.name, snapshot: tag.snapshot }));
    const nextState: DatasetState = {
      format: datasetFormat,
      server: first.server.base_url,
      scope,
      snapshots: all,
      units: hashes,
      changeChunks: [...chunks],
      tmsnap_version: options.tmsnapVersion,
      ...(hideAuthors ? { hide_authors: true } : {}),
    };
    await sink.finish(endedRows, liveRows, releases, nextState, held.at(-1));
    return {
      out: options.out,
      format: options.format,
      incremental,
      snapshots: all.length,
      added,
      unitVersions: { opened, ended: endedRows.length, live: liveRows.length },
      changes,
    };
  } catch (error) {
    await sink.abort();
    throw error;
  }
}
