/**
 * The dataset as a folder of Parquet files (docs/dataset.md, "Parquet"), written with
 * hyparquet-writer (pure JavaScript, docs/decisions/2026-11-29-dataset-format.md). Each run
 * writes into a folder beside the output, holding hard links to the files it keeps, and swaps
 * the two at the end: a run stopped half-way leaves the previous folder whole, and a file once
 * written is never changed in place (an object-store copy may sync by name).
 */
import { link, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { parquetWriteFile, type BasicType } from 'hyparquet-writer';
import { constants as zlibConstants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { datasetFormat, formatKey, parquetMarker, tables, type Column, type Row, type TableName, type Value } from './schema.ts';
import type { DatasetSink, DatasetState } from './sink.ts';
import { versionOfRow, type LiveVersion } from './versions.ts';

/** The suffixes of the folders a run writes into and moves the old dataset to. */
export const partialSuffix = '.tmsnap-partial';
export const oldSuffix = '.tmsnap-old';

/** The files a run replaces rather than keeps. */
const liveFile = 'unit_versions/live.parquet';
const releasesFile = 'releases/releases.parquet';

const basicType: Record<Column['type'], BasicType> = { text: 'STRING', integer: 'INT64', real: 'DOUBLE', boolean: 'BOOLEAN', timestamp: 'TIMESTAMP' };

function parquetValue(value: Value | undefined, type: Column['type']): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'integer') return BigInt(value as number);
  if (type === 'timestamp') return new Date(value as string);
  return value;
}

/** `2026-11` of a timestamp: the hive partition (`month=2026-11`) a row of that time goes to. */
export function monthOf(timestamp: Value | undefined): string {
  return typeof timestamp === 'string' && /^\d{4}-\d{2}/.test(timestamp) ? timestamp.slice(0, 7) : 'unknown';
}

export function writeTable(file: string, table: TableName, rows: readonly Row[], createdBy: string): void {
  parquetWriteFile({
    filename: file,
    columnData: tables[table].map((column) => ({
      name: column.name,
      type: basicType[column.type],
      nullable: true,
      data: rows.map((row) => parquetValue(row[column.name], column.type)),
    })),
    kvMetadata: [{ key: formatKey, value: String(datasetFormat) }],
    createdBy,
    // Zstandard at level 9, which DuckDB, Spark and Polars read: 1M strings over 30 nights in
    // 38 MB, where Snappy took 71 MB and level 3 42 MB (docs/decisions/2026-11-29-dataset-scale.md).
    codec: 'ZSTD',
    compressors: { ZSTD: (bytes) => zstdCompressSync(bytes, { params: { [zlibConstants.ZSTD_c_compressionLevel]: 9 } }) },
  });
}

/** Every file under `folder`, as paths relative to it. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

/** The state a dataset folder's marker holds; undefined when it has none (not one of ours). */
export async function readParquetState(folder: string): Promise<DatasetState | undefined> {
  try {
    return JSON.parse(await readFile(join(folder, parquetMarker), 'utf8')) as DatasetState;
  } catch {
    return undefined;
  }
}

async function readRows(file: string, columns?: string[]): Promise<Record<string, unknown>[]> {
  return parquetReadObjects({
    file: await asyncBufferFromFile(file),
    compressors: { ZSTD: (bytes) => new Uint8Array(zstdDecompressSync(bytes)) },
    ...(columns ? { columns } : {}),
  });
}

/** A writer into the folder `out`, adding to the dataset there when `incremental`. */
export async function openParquetSink(out: string, incremental: boolean, createdBy: string): Promise<DatasetSink> {
  const staging = out + partialSuffix;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  if (incremental) {
    for (const file of await filesUnder(out)) {
      if (file === liveFile || file === releasesFile || file === parquetMarker) continue;
      await mkdir(dirname(join(staging, file)), { recursive: true });
      await link(join(out, file), join(staging, file));
    }
  }
  const write = async (file: string, table: TableName, rows: readonly Row[]) => {
    await mkdir(dirname(join(staging, file)), { recursive: true });
    writeTable(join(staging, file), table, rows, createdBy);
  };
  let done = false;
  return {
    async liveVersions(): Promise<LiveVersion[]> {
      if (!incremental) return [];
      return (await readRows(join(out, liveFile))).map(versionOfRow);
    },
    async changeIds() {
      const ids = new Set<number>();
      if (!incremental) return ids;
      for (const file of await filesUnder(join(out, 'changes'))) {
        for (const row of await readRows(join(out, 'changes', file), ['id'])) ids.add(Number(row.id));
      }
      return ids;
    },
    async addSnapshot(snapshot, rows) {
      const id = String(snapshot.snapshot);
      const month = `month=${monthOf(snapshot.started)}`;
      await write(`snapshots/${month}/${id}.parquet`, 'snapshots', [snapshot]);
      for (const table of ['projects', 'components', 'translations', 'languages'] as const) await write(`${table}/${month}/${id}.parquet`, table, rows[table]);
    },
    async addChanges(snapshot, rows) {
      const byMonth = new Map<string, Row[]>();
      for (const row of rows) {
        const month = monthOf(row.timestamp);
        let list = byMonth.get(month);
        if (!list) byMonth.set(month, (list = []));
        list.push(row);
      }
      for (const [month, list] of byMonth) await write(`changes/month=${month}/${snapshot}.parquet`, 'changes', list);
    },
    async finish(ended, live, releases, state) {
      const newest = state.snapshots.at(-1)!;
      if (ended.length > 0) await write(`unit_versions/ended-${newest}.parquet`, 'unit_versions', ended);
      await write(liveFile, 'unit_versions', live);
      await write(releasesFile, 'releases', releases);
      await writeFile(join(staging, parquetMarker), `${JSON.stringify(state)}\n`);
      // The swap: the old folder aside, the new one in, the old one removed (it was ours: its marker was read).
      const old = out + oldSuffix;
      await rm(old, { recursive: true, force: true });
      await rename(out, old).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      await rename(staging, out);
      await rm(old, { recursive: true, force: true });
      done = true;
    },
    async abort() {
      if (done) return;
      done = true;
      await rm(staging, { recursive: true, force: true });
    },
  };
}
