/**
 * The dataset as one SQLite file (docs/dataset.md), through `node:sqlite` (built into Node,
 * docs/decisions/2026-11-29-dataset-format.md). A new dataset is written beside the output
 * and renamed over it at the end; an incremental run adds to the file in one transaction, so a
 * run stopped half-way leaves the previous dataset readable either way (SQLite rolls the
 * transaction back when the file is next opened).
 */
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type * as Sqlite from 'node:sqlite';
import type { DatabaseSync as Database } from 'node:sqlite';
import { datasetFormat, keys, sqliteApplicationId, tables, type Column, type Row, type TableName, type Value } from './schema.ts';
import type { DatasetSink, DatasetState } from './sink.ts';
import { versionOfRow, type LiveVersion } from './versions.ts';

/** The suffix of the file a new dataset is written to before it is renamed over the output. */
export const partialSuffix = '.tmsnap-partial';

const sqlType: Record<Column['type'], string> = { text: 'TEXT', integer: 'INTEGER', real: 'REAL', boolean: 'INTEGER', timestamp: 'TEXT' };

const quoted = (name: string) => `"${name}"`;

function createStatements(): string[] {
  const statements = Object.entries(tables).map(([name, columns]) => {
    const list = columns.map((column) => `${quoted(column.name)} ${sqlType[column.type]}`);
    return `CREATE TABLE ${name} (${list.join(', ')}, PRIMARY KEY (${keys[name as TableName].map(quoted).join(', ')}))`;
  });
  return [
    ...statements,
    'CREATE INDEX unit_versions_last ON unit_versions (last_snapshot)',
    'CREATE INDEX changes_timestamp ON changes (timestamp)',
    'CREATE TABLE dataset_info (key TEXT PRIMARY KEY, value TEXT)',
  ];
}

/** What the first 100 bytes of a file say: a SQLite database, and whether tmsnap wrote it (its `application_id`). */
export function sqliteHeaderKind(header: Uint8Array): 'dataset' | 'sqlite' | 'other' {
  if (header.length < 100 || Buffer.from(header.subarray(0, 16)).toString('latin1') !== 'SQLite format 3\0') return 'other';
  return Buffer.from(header).readUInt32BE(68) === sqliteApplicationId ? 'dataset' : 'sqlite';
}

export async function readHeader(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const header = Buffer.alloc(100);
    const { bytesRead } = await handle.read(header, 0, 100, 0);
    return header.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Loaded when a SQLite dataset is read or written, not when the CLI starts. */
async function loadSqlite(): Promise<typeof Sqlite> {
  return import('node:sqlite');
}

/** The state a dataset file holds; undefined when it holds none (not one of ours, or left unfinished). */
export async function readSqliteState(path: string): Promise<DatasetState | undefined> {
  const header = await readHeader(path).catch(() => undefined);
  if (header === undefined || sqliteHeaderKind(header) !== 'dataset') return undefined;
  const { DatabaseSync } = await loadSqlite();
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const row = db.prepare("SELECT value FROM dataset_info WHERE key = 'state'").get() as { value?: string } | undefined;
    return row?.value === undefined ? undefined : (JSON.parse(row.value) as DatasetState);
  } catch {
    return undefined;
  } finally {
    db.close();
  }
}

const sqlValue = (value: Value | undefined): string | number | null =>
  value === undefined || value === null ? null : typeof value === 'boolean' ? Number(value) : value;

function inserter(db: Database, table: TableName, upsert = false) {
  const columns = tables[table];
  const names = columns.map((column) => quoted(column.name));
  const conflict = upsert ? ` ON CONFLICT (${keys[table].map(quoted).join(', ')}) DO UPDATE SET last_snapshot = excluded.last_snapshot` : '';
  const statement = db.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})${conflict}`);
  return (row: Row) => statement.run(...columns.map((column) => sqlValue(row[column.name])));
}

/**
 * A writer into `path`: a new file (written as `path` + `partialSuffix`, renamed at the end)
 * or, with `incremental`, the existing dataset, changed in one transaction.
 */
export async function openSqliteSink(path: string, incremental: boolean): Promise<DatasetSink> {
  const { DatabaseSync } = await loadSqlite();
  const target = incremental ? path : path + partialSuffix;
  if (!incremental) {
    await mkdir(dirname(target), { recursive: true });
    await rm(target, { force: true });
  }
  const db = new DatabaseSync(target);
  if (!incremental) {
    db.exec(`PRAGMA application_id = ${sqliteApplicationId}`);
    db.exec(`PRAGMA user_version = ${datasetFormat}`);
    db.exec('PRAGMA journal_mode = DELETE');
  }
  db.exec('BEGIN');
  if (!incremental) for (const statement of createStatements()) db.exec(statement);
  const insert = Object.fromEntries(Object.keys(tables).map((table) => [table, inserter(db, table as TableName)])) as Record<TableName, (row: Row) => unknown>;
  let done = false;
  return {
    async liveVersions(): Promise<LiveVersion[]> {
      const state = db.prepare("SELECT value FROM dataset_info WHERE key = 'state'").get() as { value: string } | undefined;
      const newest = state === undefined ? undefined : (JSON.parse(state.value) as DatasetState).snapshots.at(-1);
      if (newest === undefined) return [];
      return (db.prepare('SELECT * FROM unit_versions WHERE last_snapshot = ?').all(newest) as Record<string, unknown>[]).map(versionOfRow);
    },
    async changeIds() {
      return new Set((db.prepare('SELECT id FROM changes').all() as { id: number }[]).map((row) => row.id));
    },
    async addSnapshot(snapshot, rows) {
      insert.snapshots(snapshot);
      for (const table of ['projects', 'components', 'translations', 'languages'] as const) for (const row of rows[table]) insert[table](row);
    },
    async addChanges(_snapshot, rows) {
      for (const row of rows) insert.changes(row);
    },
    async finish(ended, live, releases, state, previousNewest) {
      // Versions open before this run and still open: now last seen in the newest snapshot.
      if (previousNewest !== undefined)
        db.prepare('UPDATE unit_versions SET last_snapshot = ? WHERE last_snapshot = ?').run(state.snapshots.at(-1)!, previousNewest);
      const upsert = inserter(db, 'unit_versions', true);
      for (const row of ended) upsert(row);
      for (const row of live) if (previousNewest === undefined || String(row.first_snapshot) > previousNewest) upsert(row);
      db.exec('DELETE FROM releases');
      for (const row of releases) insert.releases(row);
      db.prepare('INSERT OR REPLACE INTO dataset_info (key, value) VALUES (?, ?)').run('format', String(datasetFormat));
      db.prepare('INSERT OR REPLACE INTO dataset_info (key, value) VALUES (?, ?)').run('state', JSON.stringify(state));
      db.exec('COMMIT');
      db.close();
      done = true;
      if (!incremental) await rename(target, path);
    },
    async abort() {
      if (done) return;
      done = true;
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
      if (!incremental) {
        await mkdir(dirname(target), { recursive: true });
        await rm(target, { force: true });
      }
    },
  };
}
