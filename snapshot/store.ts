import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateRaw, gzipSync } from 'node:zlib';
import { canonicalJson, parseStoredBytes, sha256 } from './canonical.ts';
import {
  deltaFile,
  type DeltaHeader,
  gunzipObject,
  objectPath,
  objectsDir,
  type ObjectExtension,
  type ObjectKind,
  openDeltaFile,
  readDeltaHeader,
  rebuildFromBase,
} from './content.ts';
import { makeDelta } from './delta.ts';
import { BaseCache } from './session.ts';

const deflateRawAsync = promisify(deflateRaw);

/**
 * An object file's bytes, or undefined when there is none. Read synchronously, like the inflate
 * after it: objects are small (a unit chunk is a few KiB gzipped) and a snapshot's reads come
 * from the page cache, where an asynchronous read costs four thread-pool round trips (open,
 * stat, read, close) and an asynchronous inflate a zlib stream, each several times the CPU of
 * the work itself; on a shared 2-core machine that made format 3 read slower than format 1
 * (docs/snapshot-format.md, "Reading").
 */
function readIfPresent(path: string): Buffer | undefined {
  // Asked first, as a miss is common (a delta's `.gz` form) and an ENOENT thrown costs more
  // than the question.
  if (!existsSync(path)) return undefined;
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`object ${path} cannot be read (${(error as Error).message}): run \`tmsnap verify\``, { cause: error });
  }
}

/**
 * How a read checks an object against its name. `sha256`: the bytes are hashed, as their name
 * promises. `crc`: an object kept whole (`.gz`) is checked by gzip's own CRC-32 only, which zlib
 * computes while it inflates; it catches a flipped bit or a torn file as the hash does, but not an
 * object stored under another's name, which `verify` finds (it reads with `sha256`). Deltas and
 * plain objects are hashed either way. For the reads of every unit chunk, where the hash cost a
 * twelfth of a pass over the units (docs/snapshot-format.md, "How readers check what they read").
 */
export type ReadCheck = 'sha256' | 'crc';

/**
 * Whether the bases a read meets on its delta chain are kept for later reads (`keep`) or only
 * used (`pass`). Keeping pays when the chain is read again: the next snapshot's version of an
 * index part or change chunk is a delta on this one's. A pass over every unit chunk of a
 * snapshot meets each chain once; kept, its bases only pushed out those that would be read again
 * and filled the base cache for nothing (docs/decisions/2026-11-23-format-4-read-speed.md,
 * "Eighth session"; figures: docs/decisions/2026-11-27-figures-from-comments.md).
 */
export type BaseUse = 'keep' | 'pass';

/**
 * How long a chain of deltas may grow: reading an object reads its whole chain, so every this
 * many versions one is stored whole (git bounds its chains the same way). 8 keeps a daily
 * rewritten object (an index part) within 9 reads, and a full copy once in 9 days.
 */
export const maxDeltaDepth = 8;
/**
 * How long the chain of an object rewritten every day (an index part, the newest change chunk)
 * may grow. Such an object is read once per snapshot opened, not once per unit, so a longer chain
 * costs little; and each cut costs a delta against the chain's first version, which holds every
 * line changed since, several days' deltas in one
 * (docs/decisions/2026-11-23-format-4-archive-growth.md, "Format 4: chains"). Below
 * `maxReadDepth`, so every tmsnap that reads format 4 reads these chains.
 */
export const maxRewrittenDepth = 32;
/** Chains a reader follows at most: a file claiming more is not one tmsnap wrote. */
const maxReadDepth = 64;
/** A delta is kept only if it is at most this share of the object gzipped: a delta costs its base's reads. */
const deltaWorthIt = 0.75;

/**
 * A write the file system refused for a reason no retry fixes (disk full, quota, read-only,
 * permissions): says which folder and what to do, in one line. What was stored before it stays
 * stored and journalled, so the same command run again resumes (docs/snapshot-format.md,
 * "When a write fails").
 */
export class StoreWriteError extends Error {
  override name = 'StoreWriteError';
  readonly folder: string;
  readonly code: string;

  constructor(folder: string, code: string, options: { cause: unknown }) {
    const what =
      code === 'ENOSPC' || code === 'EDQUOT'
        ? `the disk holding ${folder} is full (${code}): free some space (or \`tmsnap prune\` old snapshots)`
        : `${folder} is not writable (${code}): make it writable (or give --content a folder you can write)`;
    super(`cannot write to ${folder}: ${what}, then run the same command again; it resumes where it stopped and nothing stored so far is lost`, options);
    this.folder = folder;
    this.code = code;
  }
}

const refusedCodes = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM']);

/** Runs a write into `folder`, turning the file system's lasting refusals into `StoreWriteError`. */
export async function storeWrite<T>(folder: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof StoreWriteError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && refusedCodes.has(code)) throw new StoreWriteError(folder, code, { cause: error });
    throw error;
  }
}

/**
 * A refusal tests inject into object writes (`StoreOptions.writeFault`): called before each
 * object is written, it throws to refuse the write, as a full disk or a read-only folder would,
 * so a crawl's stop-and-resume is testable without filling a disk (test/snapshot/disk-full.test.ts).
 */
export type WriteFault = () => void;

/** A fault that lets `allowed` object writes through, then refuses every later one with the error code `code` (`ENOSPC`, `EROFS`…). */
export function failWritesAfter(allowed: number, code: string, why = 'injected by a test'): WriteFault {
  let left = allowed;
  return () => {
    if (left-- > 0) return;
    throw Object.assign(new Error(`${code}: ${why}`), { code });
  };
}

/** Writes `bytes` to `path` through a temporary file and a rename: a reader never sees half a file. */
export async function writeAtomic(path: string, bytes: Uint8Array | string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export interface PutResult {
  hash: string;
  /** Bytes this call added to the store (as stored, compressed or not): 0 when the object was already there. */
  added: number;
}

export interface StoreOptions {
  /** Write objects gzip-compressed (`.json.gz`, `.raw.gz`; format 2). Reading accepts both forms always. */
  compress?: boolean;
  /** Another content directory to read an object from when this one holds none (unpack checks a pack's deltas against the archive's bases). */
  fallback?: string;
  /** Where delta bases read lately are kept: a session's (session.ts), so the snapshots it opens share them; a store's own unless given. */
  bases?: BaseCache | undefined;
  /** Tests only: refuses object writes as a full or read-only disk would. */
  writeFault?: WriteFault | undefined;
}

/** How a read is checked and what it keeps (`ReadCheck`, `BaseUse`); `sha256` and `keep` unless told. */
export interface ReadOptions {
  check?: ReadCheck;
  bases?: BaseUse;
}

/**
 * How an object is stored: as a delta against `base` when that is worth it and its chain is
 * shorter than `maxDepth` (`maxDeltaDepth` unless told); `hash`, when the caller hashed these
 * very bytes already (to choose bases by hash).
 */
export interface PutOptions {
  base?: string | undefined;
  hash?: string;
  maxDepth?: number;
}

/**
 * One read along a delta chain: how deep a chain may still go, whether the bytes are hashed
 * (`hashed: false` only for a delta's base, whose delta's own hash covers it), and the caller's
 * `ReadOptions`.
 */
interface ChainRead {
  withinDepth: number;
  hashed: boolean;
  check: ReadCheck;
  bases: BaseUse;
}

/** gzip level: 6 (zlib's default) compresses canonical JSON about as well as 9 at half the time. */
const gzipLevel = 6;

/** An object the store does not hold in any form. */
export class MissingObjectError extends Error {
  override name = 'MissingObjectError';
}

/** The content-addressed object store of one `content/` directory: bytes in and out by hash. */
export class ObjectStore {
  readonly compress: boolean;
  readonly #fallback: string | undefined;
  readonly #fault: WriteFault | undefined;
  /**
   * Bases of deltas read lately: a chain's objects are read again by the next delta on it.
   * Rebuilt deltas are not kept: a pass over a snapshot's units reads each chain once, and
   * keeping them evicted the bases the next pass needed first (docs/snapshot-format.md, "Format 3: deltas").
   */
  readonly #bases: BaseCache;
  /** Object folders (`objects/<2 hex>/`) this store has made or written into. */
  readonly #folders = new Set<string>();

  readonly contentDir: string;

  constructor(contentDir: string, options: StoreOptions = {}) {
    this.contentDir = contentDir;
    this.compress = options.compress ?? false;
    this.#fallback = options.fallback;
    this.#bases = options.bases ?? new BaseCache();
    this.#fault = options.writeFault;
  }

  /**
   * Stores `bytes` under their sha256; compressed when the store compresses. With a `base` (the
   * hash of an object of the same kind, usually the same path's object in the previous
   * snapshot), stores a delta against it instead when that is much smaller and the base's
   * chain is shorter than the depth allowed (docs/snapshot-format.md, "Format 3: deltas").
   */
  async putBytes(bytes: Uint8Array | string, kind: ObjectKind, options: PutOptions = {}): Promise<PutResult> {
    const { base, maxDepth = maxDeltaDepth } = options;
    const hash = options.hash ?? sha256(bytes);
    if (await this.#stored(hash, kind)) return { hash, added: 0 };
    const extension: ObjectExtension = this.compress ? `${kind}.gz` : kind;
    let path = objectPath(this.contentDir, hash, extension);
    let stored: Uint8Array | string = this.compress ? gzipSync(bytes, { level: gzipLevel }) : bytes;
    const delta = this.compress && base !== undefined && base !== hash ? await this.#delta(bytes, kind, base, maxDepth) : undefined;
    if (delta !== undefined && delta.byteLength <= deltaWorthIt * stored.length) {
      stored = delta;
      path = objectPath(this.contentDir, hash, `${kind}.dz`);
    }
    await storeWrite(objectsDir(this.contentDir), async () => {
      this.#fault?.();
      // Each of the 256 folders is made once per store, not once per object: storing a 10M crawl's
      // translation files took about a fifth less CPU (docs/crawl.md). A folder removed meanwhile is made again.
      const folder = join(objectsDir(this.contentDir), hash.slice(0, 2));
      if (!this.#folders.has(folder)) await mkdir(folder, { recursive: true });
      await writeAtomic(path, stored).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await mkdir(folder, { recursive: true });
        await writeAtomic(path, stored);
      });
      this.#folders.add(folder);
    });
    return { hash, added: typeof stored === 'string' ? Buffer.byteLength(stored) : stored.byteLength };
  }

  /** Whether the object is stored in a form this store writes (plain for an uncompressed store; gzip or delta otherwise). */
  async #stored(hash: string, kind: ObjectKind): Promise<boolean> {
    const forms: ObjectExtension[] = this.compress ? [`${kind}.gz`, `${kind}.dz`] : [kind];
    for (const form of forms) if ((await stat(objectPath(this.contentDir, hash, form)).catch(() => undefined)) !== undefined) return true;
    return false;
  }

  /** The depth of a compressed object's chain (0: kept whole as `.gz`); undefined when it is not stored compressed. */
  async depth(hash: string, kind: ObjectKind): Promise<number | undefined> {
    if ((await stat(objectPath(this.contentDir, hash, `${kind}.gz`)).catch(() => undefined)) !== undefined) return 0;
    const stored = await readFile(objectPath(this.contentDir, hash, `${kind}.dz`)).catch(() => undefined);
    if (stored === undefined) return undefined;
    try {
      return readDeltaHeader(stored).depth;
    } catch {
      return undefined;
    }
  }

  /** A delta file of `bytes` against `base`, or undefined when the base is not there (or not compressed) or its chain is full. */
  async #delta(bytes: Uint8Array | string, kind: ObjectKind, base: string, maxDepth: number): Promise<Buffer | undefined> {
    const depth = await this.depth(base, kind);
    if (depth === undefined || depth >= maxDepth) return undefined;
    const baseBytes = await this.#base(base, kind, { withinDepth: maxReadDepth, hashed: true, check: 'sha256', bases: 'keep' }).catch(() => undefined);
    if (baseBytes === undefined) return undefined;
    const target = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    const operations = makeDelta(baseBytes, target);
    return deltaFile({ depth: depth + 1, base }, await deflateRawAsync(operations, { level: 9 }));
  }

  /** A base's bytes, from the cache or read (and then cached, when the read keeps its bases). */
  async #base(hash: string, kind: ObjectKind, chain: ChainRead): Promise<Buffer> {
    const cached = this.#bases.get(hash, chain.hashed);
    if (cached !== undefined) return cached;
    const bytes = await this.#read(hash, kind, { ...chain, check: 'sha256' });
    if (chain.bases === 'keep') this.#bases.set(hash, bytes, chain.hashed);
    return bytes;
  }

  /** Bytes of bases held for the next delta that needs them (at most the cache's bound). */
  get heldBaseBytes(): number {
    return this.#bases.heldBytes;
  }

  putJson(value: unknown, options: Omit<PutOptions, 'hash'> = {}): Promise<PutResult> {
    return this.putBytes(canonicalJson(value), 'json', options);
  }

  /** Stores an object rewritten every day (an index part, the newest change chunk) against its previous version: chains up to `maxRewrittenDepth`. */
  putRewritten(value: unknown, base: string | undefined): Promise<PutResult> {
    return this.putJson(value, { base, maxDepth: maxRewrittenDepth });
  }

  /**
   * The object's uncompressed bytes, from whichever form is on disk (format 2's `.gz` first,
   * then format 3's delta, then format 1's plain file), checked against the hash its name promises.
   */
  readBytes(hash: string, kind: ObjectKind, options: ReadOptions = {}): Promise<Buffer> {
    return this.#read(hash, kind, { withinDepth: maxReadDepth, hashed: true, check: options.check ?? 'sha256', bases: options.bases ?? 'keep' });
  }

  async #read(hash: string, kind: ObjectKind, chain: ChainRead): Promise<Buffer> {
    const compressedPath = objectPath(this.contentDir, hash, `${kind}.gz`);
    let bytes: Buffer;
    let path = compressedPath;
    const compressed = readIfPresent(compressedPath);
    if (compressed !== undefined) {
      try {
        bytes = gunzipObject(compressed);
      } catch (error) {
        throw new Error(`object ${compressedPath} cannot be read (${(error as Error).message}): the store is damaged; run \`tmsnap verify\``, { cause: error });
      }
      if (chain.check === 'crc') return bytes;
    } else {
      const deltaPath = objectPath(this.contentDir, hash, `${kind}.dz`);
      const delta = readIfPresent(deltaPath);
      if (delta !== undefined) {
        path = deltaPath;
        // The bases along a chain are not hashed one by one: this object's own hash covers
        // every byte they give it, which saves a chain's length in hashing per read. Only when
        // the whole does not match is the chain read again, each base checked, to name the
        // damaged one (docs/snapshot-format.md, "Reading").
        bytes = await this.#fromDelta(deltaPath, delta, kind, chain, false);
        if (!chain.hashed || sha256(bytes) === hash) return bytes;
        bytes = await this.#fromDelta(deltaPath, delta, kind, chain, true);
      } else {
        path = objectPath(this.contentDir, hash, kind);
        const plain = readIfPresent(path);
        if (plain === undefined) {
          if (this.#fallback === undefined)
            throw new MissingObjectError(`object ${hash} is missing from ${this.contentDir} (${compressedPath}); run \`tmsnap verify\``);
          // Checked by the other store.
          return new ObjectStore(this.#fallback).readBytes(hash, kind, { check: chain.check });
        }
        bytes = plain;
      }
    }
    // The name is the promise: a flipped bit must not pass for data.
    if (chain.hashed && sha256(bytes) !== hash) throw new Error(`object ${path} does not match its hash: the store is damaged; run \`tmsnap verify\``);
    return bytes;
  }

  /** A delta's bytes: its base (read, cached; hashed when `hashBase`) with the operations applied. Depths strictly fall along a chain, so no chain loops. */
  async #fromDelta(path: string, stored: Buffer, kind: ObjectKind, chain: ChainRead, hashBase: boolean): Promise<Buffer> {
    let header: DeltaHeader;
    let operations: Buffer;
    try {
      header = readDeltaHeader(stored);
      if (header.depth > chain.withinDepth) throw new Error(`its chain is ${header.depth} deep where at most ${chain.withinDepth} may be`);
      ({ operations } = openDeltaFile(stored));
    } catch (error) {
      throw new Error(`object ${path} cannot be read (${(error as Error).message}): the store is damaged; run \`tmsnap verify\``, { cause: error });
    }
    const base = await this.#base(header.base, kind, { ...chain, withinDepth: header.depth - 1, hashed: hashBase }).catch((error: Error) => {
      if (error instanceof MissingObjectError) throw new MissingObjectError(`object ${path} is a delta whose base ${header.base} is missing: ${error.message}`);
      throw new Error(`object ${path} is a delta whose base ${header.base} cannot be read: ${error.message}`, { cause: error });
    });
    try {
      return rebuildFromBase(base, operations);
    } catch (error) {
      throw new Error(`object ${path} cannot be read (${(error as Error).message}): the store is damaged; run \`tmsnap verify\``, { cause: error });
    }
  }

  async readJson(hash: string, options: ReadOptions = {}): Promise<unknown> {
    return parseStoredBytes(await this.readBytes(hash, 'json', options));
  }
}
