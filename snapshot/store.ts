import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { canonicalJson, parseStoredJson, sha256 } from './canonical.ts';

/**
 * How an object is kept on disk. Format 1 wrote `json` and `raw` as they are; format 2 writes
 * `json.gz` and `raw.gz`, gzip of the same bytes. The name is the sha256 of the uncompressed
 * bytes either way, so an object's identity never depends on the compressor
 * (docs/snapshot-format.md, "Objects").
 */
export type ObjectExtension = 'json' | 'raw' | 'json.gz' | 'raw.gz';
/** What an object holds, whatever its form on disk. */
export type ObjectKind = 'json' | 'raw';

export const isCompressed = (extension: ObjectExtension): boolean => extension.endsWith('.gz');
export const kindOfExtension = (extension: ObjectExtension): ObjectKind => (extension.startsWith('json') ? 'json' : 'raw');

const hashPattern = /^[0-9a-f]{64}$/;

/**
 * `objects/<2 hex>/<62 hex>.<ext>`, named by the sha256 of the (uncompressed) bytes. Names come
 * from hashes only, never from slugs or codes, so no server string can steer a path.
 */
export function objectPath(contentDir: string, hash: string, extension: ObjectExtension): string {
  if (!hashPattern.test(hash)) throw new Error(`"${hash}" is not an object hash (64 lowercase hex digits)`);
  return join(contentDir, 'objects', hash.slice(0, 2), `${hash.slice(2)}.${extension}`);
}

/** The uncompressed bytes of an object file's content. */
export function objectBytes(stored: Buffer, extension: ObjectExtension): Buffer {
  return isCompressed(extension) ? gunzipSync(stored) : stored;
}

/**
 * A write the file system refused for a reason no retry fixes (disk full, quota, read-only,
 * permissions): says which folder and what to do, in one line. What was stored before it stays
 * stored and journalled, so the same command run again resumes (docs/snapshot-format.md,
 * "When a write fails").
 */
export class StoreWriteError extends Error {
  override name = 'StoreWriteError';
  constructor(
    readonly folder: string,
    readonly code: string,
    options: { cause: unknown },
  ) {
    const what =
      code === 'ENOSPC' || code === 'EDQUOT'
        ? `the disk holding ${folder} is full (${code}): free some space (or \`tmsnap prune\` old snapshots)`
        : `${folder} is not writable (${code}): make it writable (or give --content a folder you can write)`;
    super(`cannot write to ${folder}: ${what}, then run the same command again; it resumes where it stopped and nothing stored so far is lost`, options);
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
 * Test-only fault: `TMSNAP_TEST_WRITE_FAULT=ENOSPC:N` makes every object write after the
 * first N fail as a full disk would, so the crawl's stop-and-resume is testable without
 * filling a disk (test/snapshot/disk-full.test.ts). Unset in normal use.
 */
function injectedFault(): (() => void) | undefined {
  const setting = process.env.TMSNAP_TEST_WRITE_FAULT;
  const match = setting === undefined ? null : /^([A-Z]+):(\d+)$/.exec(setting);
  if (match === null) return undefined;
  let allowed = Number(match[2]);
  return () => {
    if (allowed-- > 0) return;
    throw Object.assign(new Error(`${match[1]}: injected by TMSNAP_TEST_WRITE_FAULT`), { code: match[1] });
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
}

/** gzip level: 6 (zlib's default) compresses canonical JSON about as well as 9 at half the time. */
const gzipLevel = 6;

/** The content-addressed object store of one `content/` directory. */
export class ObjectStore {
  readonly compress: boolean;
  readonly #fault = injectedFault();

  constructor(
    readonly contentDir: string,
    options: StoreOptions = {},
  ) {
    this.compress = options.compress ?? false;
  }

  /** Stores `bytes` under their sha256; compressed when the store compresses. */
  async putBytes(bytes: Uint8Array | string, kind: ObjectKind): Promise<PutResult> {
    const hash = sha256(bytes);
    const extension: ObjectExtension = this.compress ? `${kind}.gz` : kind;
    const path = objectPath(this.contentDir, hash, extension);
    const existing = await stat(path).catch(() => undefined);
    if (existing !== undefined) return { hash, added: 0 };
    const stored = this.compress ? gzipSync(bytes, { level: gzipLevel }) : bytes;
    await storeWrite(join(this.contentDir, 'objects'), async () => {
      this.#fault?.();
      await mkdir(join(this.contentDir, 'objects', hash.slice(0, 2)), { recursive: true });
      await writeAtomic(path, stored);
    });
    return { hash, added: typeof stored === 'string' ? Buffer.byteLength(stored) : stored.byteLength };
  }

  putJson(value: unknown): Promise<PutResult> {
    return this.putBytes(canonicalJson(value), 'json');
  }

  /**
   * The object's uncompressed bytes, from whichever form is on disk (format 2's `.gz` first,
   * then format 1's plain file), checked against the hash its name promises.
   */
  async readBytes(hash: string, kind: ObjectKind): Promise<Buffer> {
    const compressedPath = objectPath(this.contentDir, hash, `${kind}.gz`);
    const plainPath = objectPath(this.contentDir, hash, kind);
    let bytes: Buffer;
    let path = compressedPath;
    try {
      bytes = gunzipSync(await readFile(compressedPath));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new Error(`object ${compressedPath} cannot be read (${(error as Error).message}): the store is damaged; run \`tmsnap verify\``, { cause: error });
      }
      path = plainPath;
      bytes = await readFile(plainPath).catch((cause: unknown) => {
        throw new Error(`object ${hash} is missing from ${this.contentDir} (${compressedPath}); run \`tmsnap verify\``, { cause });
      });
    }
    // The name is the promise: a flipped bit must not pass for data.
    if (sha256(bytes) !== hash) throw new Error(`object ${path} does not match its hash: the store is damaged; run \`tmsnap verify\``);
    return bytes;
  }

  async readJson(hash: string): Promise<unknown> {
    return parseStoredJson((await this.readBytes(hash, 'json')).toString('utf8'));
  }
}
