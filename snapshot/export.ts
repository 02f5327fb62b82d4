import { withoutFormatApi } from './links.ts';
import { expandRecord, kindOfPath, type RecordKind, type RecordLookup } from './normalize.ts';
import type { Snapshot } from './reader.ts';
import { storedFile } from './schemas.ts';

/** One exported line: a record as the server served it, at its URL. */
export type ExportedRecord =
  | { url: string; kind: RecordKind; record: unknown }
  /** A record that did not fit its schema, exactly as it came. */
  | { url: string; kind: RecordKind; raw: true; record: unknown }
  | { url: string; kind: 'file'; content_type: string; size: number; bytes_base64: string };

/** Kinds that other records embed: loaded up front so that expansion can look them up synchronously. */
const embeddable = new Set<RecordKind>(['language', 'project', 'component']);

async function embeddedLookup(snapshot: Snapshot): Promise<RecordLookup> {
  const records = new Map<string, unknown>();
  for (const path of Object.keys(snapshot.index.records)) {
    if (embeddable.has(kindOfPath(path))) records.set(path, await snapshot.record(path));
  }
  return (path) => records.get(path);
}

function urlOf(record: unknown, fallback: string): string {
  const url = (record as { url?: unknown } | null)?.url;
  return typeof url === 'string' ? withoutFormatApi(url) : fallback;
}

/**
 * Every record of a snapshot re-expanded to the server's own shapes: paths in index order, each
 * translation's units one by one in position order, raw records as they came, then the changes
 * in ascending id order.
 */
export async function* exportRecords(snapshot: Snapshot): AsyncGenerator<ExportedRecord> {
  const base = snapshot.linkBase;
  const lookup = await embeddedLookup(snapshot);
  for (const path of snapshot.paths().keys()) {
    const url = base.baseUrl + path;
    const kind = kindOfPath(path);
    const stored = await snapshot.record(path);
    if (snapshot.isRaw(path)) {
      yield { url, kind, raw: true, record: stored };
    } else if (kind === 'units') {
      for (const unit of Array.isArray(stored) ? stored : []) {
        const record = expandRecord('unit', unit, lookup, base);
        yield { url: urlOf(record, url), kind: 'unit', record };
      }
    } else if (kind === 'file') {
      const entry = storedFile.parse(stored);
      const bytes = (await snapshot.file(path))!.bytes;
      yield { url, kind, content_type: entry.content_type, size: entry.size, bytes_base64: bytes.toString('base64') };
    } else {
      yield { url, kind, record: expandRecord(kind, stored, lookup, base) };
    }
  }
  for (const chunk of snapshot.index.changes) {
    const stored = await snapshot.readJson(chunk.hash);
    for (const change of Array.isArray(stored) ? stored : []) {
      const record = expandRecord('change', change, lookup, base);
      yield { url: urlOf(record, `${base.baseUrl}api/changes/`), kind: 'change', record };
    }
  }
}
