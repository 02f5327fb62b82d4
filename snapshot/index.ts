/**
 * The snapshot store: the only way anything reads or writes `content/`. The format is
 * specified in `docs/snapshot-format.md`.
 */
export { canonicalJson, parseStoredJson } from './canonical.ts';
export { type ExportedRecord, exportRecords } from './export.ts';
export { isSnapshotId, snapshotIdAt } from './ids.ts';
export { apiPath, decodeLink, encodeLink, type LinkBase, normalizeBaseUrl, withoutFormatApi } from './links.ts';
export { embeddedRecords, expandRecord, kindOfPath, NormalizeError, normalizeRecord, type RecordKind, type RecordLookup } from './normalize.ts';
export { listSnapshots, openSnapshot, Snapshot, type SnapshotSummary, type StoredEntry } from './reader.ts';
export * from './schemas.ts';
export { ObjectStore, objectPath } from './store.ts';
export {
  changesPerChunk,
  type FinishedSnapshot,
  type FinishOptions,
  openSnapshotWriter,
  snapshotFormat,
  SnapshotWriter,
  type WriterOptions,
} from './writer.ts';
