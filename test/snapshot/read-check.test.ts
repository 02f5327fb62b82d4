import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { canonicalJson, objectPath, ObjectStore, sha256 } from '../../snapshot/index.ts';
import { useTempFolders } from '../helpers/temp.ts';

const folder = useTempFolders('tmsnap-read-check-');

/** A unit chunk's canonical JSON, bigger than zlib's 16 KiB output pieces, so it inflates into one buffer only when sized from the trailer. */
const units = Array.from({ length: 160 }, (_, i) => ({
  id: i + 1,
  source: [`String ${i} <b>bold</b>`],
  target: [`Řetězec ${i}`],
  id_hash: 2n ** 63n - BigInt(i + 1),
}));
const text = canonicalJson(units);
const hash = sha256(text);

/** A content folder holding `bytes` as the `.json.gz` object named `name`. */
async function storedAs(name: string, bytes: Uint8Array): Promise<string> {
  const content = await folder();
  const path = objectPath(content, name, 'json.gz');
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  return content;
}

describe('reading a whole object checked by its gzip CRC-32 (ReadCheck "crc")', () => {
  it('gives the same bytes as a read that hashes them, for an object bigger than zlib’s output pieces', async () => {
    const content = await storedAs(hash, gzipSync(text));
    expect(text.length).toBeGreaterThan(16 * 1024);
    const store = new ObjectStore(content);
    expect((await store.readBytes(hash, 'json', { check: 'crc' })).toString('utf8')).toBe(text);
    expect((await store.readBytes(hash, 'json')).toString('utf8')).toBe(text);
  });

  it('says an object with one flipped bit is damaged, the bit in the data or in the CRC itself', async () => {
    const whole = gzipSync(text);
    for (const at of [whole.length - 8, whole.length - 200]) {
      const flipped = Buffer.from(whole);
      flipped[at]! ^= 0x04;
      const content = await storedAs(hash, flipped);
      await expect(new ObjectStore(content).readBytes(hash, 'json', { check: 'crc' })).rejects.toThrow(/cannot be read .*damaged.*tmsnap verify/);
    }
  });

  it('hashes an object read the default way, so one kept under another’s name is refused there (as verify does)', async () => {
    const other = canonicalJson([{ id: 1 }]);
    const content = await storedAs(hash, gzipSync(other));
    await expect(new ObjectStore(content).readBytes(hash, 'json')).rejects.toThrow(/does not match its hash/);
    // The CRC path trusts the name: what it is for (a pass over the units) and what it leaves to verify.
    expect((await new ObjectStore(content).readBytes(hash, 'json', { check: 'crc' })).toString('utf8')).toBe(other);
  });
});
