/**
 * The snapshot store: the only way anything reads or writes `content/`. The format is
 * specified in `docs/snapshot-format.md`.
 */
export { alignChunks, Bases, type BasesOptions, basesSnapshotId, previousForBases, rewrittenBase, siblingPaths } from './bases.ts';
export { canonicalJson, parseStoredJson, sha256 } from './canonical.ts';
export {
  deltaHeaderBytes,
  extensionsOf,
  hashObjectFile,
  isCompressed,
  isDelta,
  journalFile,
  kindOfExtension,
  listObjects,
  listSnapshotDirs,
  manifestFile,
  objectBytes,
  type ObjectExtension,
  objectKey,
  type ObjectKey,
  type ObjectKind,
  objectPath,
  objectsFolder,
  openDeltaFile,
  partialSuffix,
  readDeltaHeader,
  rebuildFromBase,
  type SnapshotDir,
  snapshotsDir,
  snapshotsFolder,
  splitObjectKey,
  sizesFile,
  stateFile,
  tagsFileName,
  type StoredObject,
} from './content.ts';
export { chunkFile, chunkUnits, indexPartOf } from './chunks.ts';
export { readManifest, readManifestIn } from './manifest.ts';
export { applyDelta, makeDelta } from './delta.ts';
export { type ExportedRecord, exportRecords } from './export.ts';
export { compareSnapshotIdsNewestFirst, isSnapshotId, snapshotIdAt } from './ids.ts';
export { addDrift, countDrift, type DriftCounts, driftEntries, driftLine } from './drift.ts';
export { inlineBelow, keptInline } from './inline.ts';
export { completeLines, recoverJournal, recoverJournalSync } from './journal-lines.ts';
export { apiPath, decodeLink, encodeLink, type LinkBase, normalizeBaseUrl, withoutFormatApi } from './links.ts';
export { ArchiveLockedError, lockArchive, lockFileName, withArchiveLock } from './lock.ts';
export { embeddedRecords, expandRecord, kindOfPath, NormalizeError, normalizeRecord, type RecordKind, type RecordLookup } from './normalize.ts';
export {
  listSnapshots,
  type OpenOptions,
  openSnapshot,
  readIndex,
  type ScreenedUnits,
  Snapshot,
  type SnapshotSummary,
  type StoredEntry,
  type JsonScreen,
} from './reader.ts';
export { ReadSession, type ReadSessionOptions } from './session.ts';
export * from './schemas.ts';
export {
  type BaseUse,
  failWritesAfter,
  maxDeltaDepth,
  maxRewrittenDepth,
  MissingObjectError,
  ObjectStore,
  type PutOptions,
  type ReadCheck,
  type ReadOptions,
  type StoreOptions,
  storeWrite,
  StoreWriteError,
  type WriteFault,
  writeAtomic,
} from './store.ts';
export { type PartialSnapshot, partialSnapshots, type PartialState, readPartialState, resumable, snapshotFormat } from './partials.ts';
export { parseUnitsJson } from './unit-json.ts';
export {
  changesPerChunk,
  type FinishedSnapshot,
  type FinishOptions,
  openSnapshotWriter,
  putChunks,
  putRecordValue,
  putValue,
  SnapshotWriter,
  type StoredValue,
  type ValueOptions,
  type WriterOptions,
} from './writer.ts';
