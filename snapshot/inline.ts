/**
 * Small records kept inline in their index part (format 4, docs/snapshot-format.md "Format 4:
 * inline records"). A day's crawl rewrites hundreds of records of a few hundred bytes (every
 * `repository/` record after a download commits, statistics, translations, short unit lists);
 * as objects of their own each cost a delta's header and its part's changed hash line, inline
 * they are a few changed lines of the part's one delta. A record's identity does not change:
 * readers hash its canonical JSON, so `paths()` names it by the hash it has in formats 2 and 3.
 */
import { canonicalJson, sha256 } from './canonical.ts';
import { type IndexPart, indexPart } from './schemas.ts';
import type { ObjectStore } from './store.ts';

/** Records whose canonical JSON is shorter than this many bytes are kept inline. */
export const inlineBelow = 4096;

/** Whether a record of this canonical JSON is kept inline rather than as an object of its own. */
export const keptInline = (text: string): boolean => Buffer.byteLength(text) < inlineBelow;

/**
 * The inline records' bytes of the index parts read lately, by part hash, for the whole process:
 * a site build keeps every snapshot of its timeline open, and each holding its parts' inline
 * JSON (1.3-1.5 MiB on the bundled data, tens of MiB at 10M units) grew with every snapshot.
 * Bounded instead: the least recently used parts are dropped beyond `limitBytes` (the part just
 * read is kept whatever its size) and read again from their object when asked for. A part's
 * hash names its bytes, so two snapshots or two content folders sharing a part share its entry.
 */
export const inlineCache = {
  /** Bytes of inline JSON kept at most, beyond the part read last and the snapshot opened last (`openedBytes`). */
  limitBytes: 16 * 1024 * 1024,
  /**
   * The inline bytes of the snapshot opened last, held whatever `limitBytes` says: a pass over a
   * snapshot's units reads every translation's inline unit list, and with its parts beyond the
   * limit (27 MiB at 1M units) each project's part was read and hashed again, a second of CPU per
   * pass (docs/snapshot-format.md, "Read speed against the day issue 11 was filed").
   */
  openedBytes: 0,
  parts: new Map<string, { records: Map<string, Buffer>; bytes: number }>(),
  heldBytes: 0,
};

/** A part's inline records as record hash → canonical bytes (the hash a reader names them by). */
function inlineBytes(part: IndexPart): Map<string, Buffer> {
  return new Map(
    Object.values(part.inline ?? {}).map((value) => {
      const bytes = Buffer.from(canonicalJson(value));
      return [sha256(bytes), bytes];
    }),
  );
}

function cacheInline(partHash: string, records: Map<string, Buffer>): void {
  const old = inlineCache.parts.get(partHash);
  if (old !== undefined) {
    inlineCache.parts.delete(partHash);
    inlineCache.heldBytes -= old.bytes;
  }
  let bytes = 0;
  for (const record of records.values()) bytes += record.length;
  inlineCache.parts.set(partHash, { records, bytes });
  inlineCache.heldBytes += bytes;
  for (const [hash, entry] of inlineCache.parts) {
    if (inlineCache.heldBytes <= Math.max(inlineCache.limitBytes, inlineCache.openedBytes) || hash === partHash) break;
    inlineCache.parts.delete(hash);
    inlineCache.heldBytes -= entry.bytes;
  }
}

/**
 * Where a snapshot's inline records are: record hash → the hash of the part holding it. The
 * store serves them through here by hash, like any object (`ObjectStore.readBytes`), without
 * holding their bytes per snapshot.
 */
export class InlineRecords {
  readonly #partOf = new Map<string, string>();

  constructor(readonly store: ObjectStore) {}

  /** A snapshot's parts' inline records as path → hash, now served by this store; the snapshot's inline bytes are held (`openedBytes`). */
  add(parts: readonly { hash: string; part: IndexPart }[]): [string, string][] {
    const byPath: [string, string][] = [];
    const byPart = parts.map(({ hash: partHash, part }) => {
      const records = new Map<string, Buffer>();
      for (const [path, value] of Object.entries(part.inline ?? {})) {
        const bytes = Buffer.from(canonicalJson(value));
        const hash = sha256(bytes);
        records.set(hash, bytes);
        this.#partOf.set(hash, partHash);
        byPath.push([path, hash]);
      }
      return { partHash, records };
    });
    inlineCache.openedBytes = 0;
    for (const { records } of byPart) for (const record of records.values()) inlineCache.openedBytes += record.length;
    for (const { partHash, records } of byPart) cacheInline(partHash, records);
    return byPath;
  }

  has(hash: string): boolean {
    return this.#partOf.has(hash);
  }

  /** The canonical bytes of an inline record, from the cache or its part read again (checked against its hash by the store). */
  async read(hash: string): Promise<Buffer | undefined> {
    const partHash = this.#partOf.get(hash);
    if (partHash === undefined) return undefined;
    const cached = inlineCache.parts.get(partHash);
    if (cached !== undefined) {
      inlineCache.parts.delete(partHash);
      inlineCache.parts.set(partHash, cached);
      return cached.records.get(hash);
    }
    const records = inlineBytes(indexPart.parse(await this.store.readJson(partHash)));
    cacheInline(partHash, records);
    return records.get(hash);
  }
}
