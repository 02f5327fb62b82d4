/**
 * Small records kept inline in their index part (format 4, docs/snapshot-format.md "Format 4:
 * inline records"). A day's crawl rewrites hundreds of records of a few hundred bytes (every
 * `repository/` record after a download commits, statistics, translations, short unit lists);
 * as objects of their own each cost a delta's header and its part's changed hash line, inline
 * they are a few changed lines of the part's one delta. A record's identity does not change:
 * readers hash its canonical JSON, so `paths()` names it by the hash it has in formats 2 and 3.
 */
import { canonicalJson, sha256 } from './canonical.ts';
import type { IndexPart } from './schemas.ts';
import type { InlineCache } from './session.ts';

/** Records whose canonical JSON is shorter than this many bytes are kept inline. */
export const inlineBelow = 4096;

/** Whether a record of this canonical JSON is kept inline rather than as an object of its own. */
export const keptInline = (text: string): boolean => Buffer.byteLength(text) < inlineBelow;

/** A part's inline records as record hash → canonical bytes (the hash a reader names them by). */
function inlineBytes(part: IndexPart): Map<string, Buffer> {
  return new Map(
    Object.values(part.inline ?? {}).map((value) => {
      const bytes = Buffer.from(canonicalJson(value));
      return [sha256(bytes), bytes];
    }),
  );
}

/**
 * Where a snapshot's inline records are: record hash → the hash of the part holding it. The
 * snapshot serves them through here by hash, like any object (`Snapshot.readBytes`), their bytes
 * held by its session's cache (session.ts `InlineCache`), not per snapshot. `readPart` reads an
 * index part again (checked against its hash) once the cache has dropped it.
 */
export class InlineRecords {
  readonly #partOf = new Map<string, string>();

  readonly cache: InlineCache;
  private readonly readPart: (hash: string) => Promise<IndexPart>;

  constructor(cache: InlineCache, readPart: (hash: string) => Promise<IndexPart>) {
    this.cache = cache;
    this.readPart = readPart;
  }

  /** A snapshot's parts' inline records as path → hash, now served by this object; the snapshot's inline bytes are held (`openedBytes`). */
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
    this.cache.openedBytes = 0;
    for (const { records } of byPart) for (const record of records.values()) this.cache.openedBytes += record.length;
    for (const { partHash, records } of byPart) this.cache.set(partHash, records);
    return byPath;
  }

  has(hash: string): boolean {
    return this.#partOf.has(hash);
  }

  /** The canonical bytes of an inline record, from the cache or its part read again; undefined when it is no inline record. */
  async read(hash: string): Promise<Buffer | undefined> {
    const partHash = this.#partOf.get(hash);
    if (partHash === undefined) return undefined;
    const cached = this.cache.get(partHash);
    if (cached !== undefined) return cached.get(hash);
    const records = inlineBytes(await this.readPart(partHash));
    this.cache.set(partHash, records);
    return records.get(hash);
  }
}
