/**
 * What reading snapshots keeps in memory between reads, owned by the one who reads: a
 * `ReadSession` holds the delta bases met lately and the inline records of the index parts read
 * lately, and every snapshot opened through it shares them. Open the snapshots of a timeline
 * through one session and they hold about one snapshot's inline records between them; a
 * snapshot opened alone gets a session of its own (docs/snapshot-format.md, "Reading").
 */

/** Decompressed delta bases kept for the next delta that needs them, least recently used dropped first. */
export class BaseCache {
  /** Bytes of bases held; the least recently used are dropped beyond `limitBytes`. */
  heldBytes = 0;
  /**
   * `checked`: the bytes were hashed; a base read for a delta that is checked as a whole need
   * not be (store.ts, `#fromDelta`).
   */
  readonly #bases = new Map<string, { bytes: Buffer; checked: boolean }>();

  readonly limitBytes: number;

  constructor(limitBytes = 64 * 1024 * 1024) {
    this.limitBytes = limitBytes;
  }

  /** The bytes of a base (most recently used from now on), if they were checked or need not be. */
  get(hash: string, check: boolean): Buffer | undefined {
    const cached = this.#bases.get(hash);
    if (cached === undefined || (check && !cached.checked)) return undefined;
    this.#bases.delete(hash);
    this.#bases.set(hash, cached);
    return cached.bytes;
  }

  /** Keeps a base's bytes, dropping the least recently used beyond the bound. */
  set(hash: string, bytes: Buffer, checked: boolean): void {
    const cached = this.#bases.get(hash);
    if (cached !== undefined) {
      this.#bases.delete(hash);
      this.heldBytes -= cached.bytes.length;
    }
    this.#bases.set(hash, { bytes, checked });
    this.heldBytes += bytes.length;
    for (const [old, entry] of this.#bases) {
      if (this.heldBytes <= this.limitBytes) break;
      this.#bases.delete(old);
      this.heldBytes -= entry.bytes.length;
    }
  }
}

/**
 * The inline records' bytes of the index parts read lately, by part hash. A site build keeps
 * every snapshot of its timeline open, and each holding its parts' inline JSON grew with every
 * snapshot; bounded instead, the least recently used parts dropped beyond `limitBytes` (the part
 * just read is kept whatever its size) and read again from their object when asked for. A part's
 * hash names its bytes, so two snapshots or two content folders sharing a part share its entry.
 */
export class InlineCache {
  /**
   * The inline bytes of the snapshot opened last, held whatever `limitBytes` says: a pass over a
   * snapshot's units reads every translation's inline unit list, and with its parts dropped each
   * project's part would be read and hashed again.
   */
  openedBytes = 0;
  heldBytes = 0;
  readonly #parts = new Map<string, { records: Map<string, Buffer>; bytes: number }>();

  /** `limitBytes`: inline JSON kept at most, beyond the part read last and the snapshot opened last. */
  readonly limitBytes: number;

  constructor(limitBytes = 16 * 1024 * 1024) {
    this.limitBytes = limitBytes;
  }

  /** A part's inline records (record hash → canonical bytes), most recently used from now on; undefined when not held. */
  get(partHash: string): Map<string, Buffer> | undefined {
    const cached = this.#parts.get(partHash);
    if (cached === undefined) return undefined;
    this.#parts.delete(partHash);
    this.#parts.set(partHash, cached);
    return cached.records;
  }

  set(partHash: string, records: Map<string, Buffer>): void {
    const old = this.#parts.get(partHash);
    if (old !== undefined) {
      this.#parts.delete(partHash);
      this.heldBytes -= old.bytes;
    }
    let bytes = 0;
    for (const record of records.values()) bytes += record.length;
    this.#parts.set(partHash, { records, bytes });
    this.heldBytes += bytes;
    for (const [hash, entry] of this.#parts) {
      if (this.heldBytes <= Math.max(this.limitBytes, this.openedBytes) || hash === partHash) break;
      this.#parts.delete(hash);
      this.heldBytes -= entry.bytes;
    }
  }
}

export interface ReadSessionOptions {
  /** Bytes of delta bases held at most (64 MiB unless told). */
  baseBytes?: number;
  /** Bytes of inline records held at most beyond the snapshot opened last (16 MiB unless told). */
  inlineBytes?: number;
}

/** The caches shared by the snapshots one reader opens (`openSnapshot(…, { session })`). */
export class ReadSession {
  readonly bases: BaseCache;
  readonly inline: InlineCache;

  constructor(options: ReadSessionOptions = {}) {
    this.bases = new BaseCache(options.baseBytes);
    this.inline = new InlineCache(options.inlineBytes);
  }
}
