import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson, parseStoredJson, sha256 } from './canonical.ts';

export type ObjectExtension = 'json' | 'raw';

const hashPattern = /^[0-9a-f]{64}$/;

/**
 * `objects/<2 hex>/<62 hex>.<ext>`, named by the sha256 of the bytes. Names come from hashes
 * only, never from slugs or codes, so no server string can steer a path.
 */
export function objectPath(contentDir: string, hash: string, extension: ObjectExtension): string {
  if (!hashPattern.test(hash)) throw new Error(`"${hash}" is not an object hash (64 lowercase hex digits)`);
  return join(contentDir, 'objects', hash.slice(0, 2), `${hash.slice(2)}.${extension}`);
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
  /** Bytes this call added to the store: 0 when an identical object was already there. */
  added: number;
}

/** The content-addressed object store of one `content/` directory. */
export class ObjectStore {
  constructor(readonly contentDir: string) {}

  async putBytes(bytes: Uint8Array | string, extension: ObjectExtension): Promise<PutResult> {
    const hash = sha256(bytes);
    const path = objectPath(this.contentDir, hash, extension);
    const existing = await stat(path).catch(() => undefined);
    if (existing !== undefined) return { hash, added: 0 };
    await mkdir(join(this.contentDir, 'objects', hash.slice(0, 2)), { recursive: true });
    await writeAtomic(path, bytes);
    return { hash, added: typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength };
  }

  putJson(value: unknown): Promise<PutResult> {
    return this.putBytes(canonicalJson(value), 'json');
  }

  async readBytes(hash: string, extension: ObjectExtension): Promise<Buffer> {
    const path = objectPath(this.contentDir, hash, extension);
    const bytes = await readFile(path).catch((error: unknown) => {
      throw new Error(`object ${hash} is missing from ${this.contentDir} (${path}); run \`tmsnap verify\``, { cause: error });
    });
    // The name is the promise: a flipped bit must not pass for data.
    if (sha256(bytes) !== hash) throw new Error(`object ${path} does not match its hash: the store is damaged; run \`tmsnap verify\``);
    return bytes;
  }

  async readJson(hash: string): Promise<unknown> {
    return parseStoredJson((await this.readBytes(hash, 'json')).toString('utf8'));
  }
}
