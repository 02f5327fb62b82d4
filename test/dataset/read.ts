/**
 * Reading a dataset back with engines that did not write it: `node:sqlite` for the SQLite file,
 * DuckDB's Node package for the Parquet folder (through the views docs/dataset.md gives), and
 * the docs' queries, taken from the page itself so that the tested SQL is the published SQL.
 */
import { readFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { tables, type TableName } from '../../dataset/schema.ts';

const docs = new URL('../../docs/dataset.md', import.meta.url);

/** The docs' `CREATE VIEW` lines for DuckDB, on `folder`. */
export async function duckViews(folder: string): Promise<string[]> {
  const text = await readFile(docs, 'utf8');
  return [...text.matchAll(/^CREATE VIEW .*$/gm)].map((match) => match[0].replaceAll("'weblate-dataset/", `'${folder}/`));
}

/** The docs' queries by name (`<!-- query: NAME -->` before each). */
export async function docQueries(): Promise<Map<string, string>> {
  const text = await readFile(docs, 'utf8');
  return new Map([...text.matchAll(/<!-- query: (\S+) -->[\s\S]*?```sql\n([\s\S]*?)```/g)].map((match) => [match[1]!, match[2]!]));
}

export type Plain = Record<string, string | number | boolean | null>;

/** A value as both engines can be compared on: numbers as numbers, timestamps as ISO text, 0/1 booleans by the schema. */
function plain(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  const text = String(value);
  // DuckDB's TIMESTAMP in JSON: `2026-10-01 04:00:00` or with milliseconds.
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(text)) return new Date(`${text.replace(' ', 'T')}Z`).toISOString();
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

export function plainRows(rows: readonly Record<string, unknown>[], booleans: readonly string[] = []): Plain[] {
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, booleans.includes(key) ? Boolean(plain(value)) : plain(value)])));
}

const booleansOf = (table: TableName) => tables[table].filter((column) => column.type === 'boolean').map((column) => column.name);

const order = (table: TableName) =>
  ['snapshot', 'id', 'tag', 'project', 'component', 'language', 'unit', 'first_snapshot'].filter((name) =>
    tables[table].some((column) => column.name === name),
  );

export class SqliteDataset {
  readonly db: DatabaseSync;
  constructor(file: string) {
    this.db = new DatabaseSync(file, { readOnly: true });
  }
  table(table: TableName): Plain[] {
    const columns = tables[table].map((column) => `"${column.name}"`).join(', ');
    return plainRows(this.db.prepare(`SELECT ${columns} FROM ${table} ORDER BY ${order(table).join(', ')}`).all(), booleansOf(table));
  }
  query(sql: string): Plain[] {
    return plainRows(this.db.prepare(sql).all());
  }
  close(): void {
    this.db.close();
  }
}

export class ParquetDataset {
  readonly #connection: DuckDBConnection;
  private constructor(connection: DuckDBConnection) {
    this.#connection = connection;
  }
  static async open(folder: string): Promise<ParquetDataset> {
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    for (const view of await duckViews(folder)) await connection.run(view);
    return new ParquetDataset(connection);
  }
  async table(table: TableName): Promise<Plain[]> {
    const columns = tables[table].map((column) => `"${column.name}"`).join(', ');
    return plainRows(
      (await this.#connection.runAndReadAll(`SELECT ${columns} FROM ${table} ORDER BY ${order(table).join(', ')}`)).getRowObjectsJson(),
      booleansOf(table),
    );
  }
  async query(sql: string): Promise<Plain[]> {
    return plainRows((await this.#connection.runAndReadAll(sql)).getRowObjectsJson());
  }
  close(): void {
    this.#connection.closeSync();
  }
}
