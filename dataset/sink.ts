/**
 * What a dataset writer (sqlite.ts, parquet.ts) does for write.ts: tell what the existing
 * dataset holds, take one snapshot's rows at a time, and make the result visible only at the
 * end (`finish`), so that a run stopped half-way leaves the previous dataset as it was.
 */
import type { SnapshotRows } from './rows.ts';
import type { Row } from './schema.ts';
import type { LiveVersion } from './versions.ts';

/** What a dataset remembers between runs, to add snapshots without reading the old ones again. */
export interface DatasetState {
  format: number;
  server: string;
  /** The `--project` scope of the snapshots (comma-separated slugs), or null for the whole instance. */
  scope: string | null;
  /** The snapshots it holds, oldest first. */
  snapshots: string[];
  /** Of the newest snapshot: each translation's unit list hash (equal hash, same units: not read again). */
  units: Record<string, string>;
  /** Of the newest snapshot: its change chunks' hashes (a chunk seen adds no change). */
  changeChunks: string[];
  tmsnap_version: string;
  /** Written naming nobody (`build --dataset` with `--hide-authors`); absent: false. Never added to as the other kind. */
  hide_authors?: boolean;
}

export interface DatasetSink {
  /** The open versions of the newest snapshot the dataset holds (an incremental run goes on from them). */
  liveVersions(): Promise<LiveVersion[]>;
  /** The ids of the changes it holds. */
  changeIds(): Promise<Set<number>>;
  addSnapshot(snapshot: Row, rows: SnapshotRows): Promise<void>;
  /** Changes first seen in `snapshot`. */
  addChanges(snapshot: string, rows: Row[]): Promise<void>;
  /** Writes what is left and makes the new dataset the one at the output path. */
  finish(ended: readonly Row[], live: readonly Row[], releases: readonly Row[], state: DatasetState, previousNewest: string | undefined): Promise<void>;
  /** Leaves the output as it was before the run. */
  abort(): Promise<void>;
}
