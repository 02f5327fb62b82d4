/**
 * The dataset's tables (issue 37): names, columns and types, the one source both writers
 * (sqlite.ts, parquet.ts) and docs/dataset.md follow. Stable across tmsnap versions: a column
 * may be added within a format version; one removed, renamed or given another meaning raises
 * `datasetFormat` (docs/dataset.md, "Versioning").
 */

/** The format version written into every file (Parquet key-value metadata, SQLite `user_version`). */
export const datasetFormat = 1;

/** The Parquet key-value metadata key holding `datasetFormat`. */
export const formatKey = 'tmsnap.dataset.format';

/** SQLite's `application_id` of a tmsnap dataset: "tmsd" (how a file is known as ours before it is replaced). */
export const sqliteApplicationId = 0x746d7364;

/** The file at the root of a Parquet dataset folder: its format, snapshots and state (parquet.ts). */
export const parquetMarker = '_tmsnap_dataset.json';

/**
 * - `text`: SQLite TEXT, Parquet STRING.
 * - `integer`: SQLite INTEGER, Parquet INT64.
 * - `real`: SQLite REAL, Parquet DOUBLE.
 * - `boolean`: SQLite INTEGER 0/1, Parquet BOOLEAN.
 * - `timestamp`: UTC to the millisecond; SQLite TEXT `2026-11-22T04:15:00.000Z`, Parquet TIMESTAMP (milliseconds).
 */
export type ColumnType = 'text' | 'integer' | 'real' | 'boolean' | 'timestamp';

export interface Column {
  name: string;
  type: ColumnType;
}

export type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

const columns = (spec: Record<string, ColumnType>): Column[] => Object.entries(spec).map(([name, type]) => ({ name, type }));

/** Counts as Weblate's statistics give them, and the translated share as the site shows it. */
const figures = {
  total: 'integer',
  translated: 'integer',
  fuzzy: 'integer',
  untranslated: 'integer',
  total_words: 'integer',
  translated_words: 'integer',
  fuzzy_words: 'integer',
  translated_percent: 'real',
} as const satisfies Record<string, ColumnType>;

export const tables = {
  snapshots: columns({
    snapshot: 'text',
    started: 'timestamp',
    finished: 'timestamp',
    server: 'text',
    weblate_version: 'text',
    scope: 'text',
    complete: 'boolean',
    tmsnap_version: 'text',
  }),
  projects: columns({ snapshot: 'text', project: 'text', name: 'text', web: 'text', translations: 'integer', ...figures }),
  components: columns({
    snapshot: 'text',
    project: 'text',
    component: 'text',
    name: 'text',
    source_language: 'text',
    file_format: 'text',
    license: 'text',
    is_glossary: 'boolean',
    translations: 'integer',
    ...figures,
  }),
  translations: columns({
    snapshot: 'text',
    project: 'text',
    component: 'text',
    language: 'text',
    is_source: 'boolean',
    ...figures,
    failing_checks: 'integer',
    have_suggestion: 'integer',
    last_change: 'timestamp',
    last_author: 'text',
  }),
  languages: columns({ snapshot: 'text', language: 'text', name: 'text', direction: 'text', translations: 'integer', ...figures }),
  unit_versions: columns({
    project: 'text',
    component: 'text',
    language: 'text',
    unit: 'integer',
    first_snapshot: 'text',
    last_snapshot: 'text',
    position: 'integer',
    context: 'text',
    source: 'text',
    target: 'text',
    state: 'integer',
    flags: 'text',
  }),
  changes: columns({
    id: 'integer',
    timestamp: 'timestamp',
    action: 'integer',
    action_name: 'text',
    project: 'text',
    component: 'text',
    language: 'text',
    unit: 'integer',
    user: 'text',
    author: 'text',
    credited: 'boolean',
    target: 'text',
    first_snapshot: 'text',
  }),
  releases: columns({ tag: 'text', snapshot: 'text' }),
} as const satisfies Record<string, Column[]>;

export type TableName = keyof typeof tables;

/** Tables with one row per object per snapshot. */
export const perSnapshotTables = ['projects', 'components', 'translations', 'languages'] as const satisfies readonly TableName[];
export type PerSnapshotTable = (typeof perSnapshotTables)[number];

/** Primary keys in SQLite (Parquet has none; the same columns are unique there too). */
export const keys: Record<TableName, readonly string[]> = {
  snapshots: ['snapshot'],
  projects: ['snapshot', 'project'],
  components: ['snapshot', 'project', 'component'],
  translations: ['snapshot', 'project', 'component', 'language'],
  languages: ['snapshot', 'language'],
  unit_versions: ['project', 'component', 'language', 'unit', 'first_snapshot'],
  changes: ['id'],
  releases: ['tag'],
};

/**
 * Weblate's separator of plural forms (its PLURAL_SEPARATOR, "\x1e\x1e"): `source` and
 * `target` hold the forms joined by it, so a string without plurals is its own text.
 */
export const pluralSeparator = '\x1e\x1e';
