import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256 } from '../../snapshot/canonical.ts';
import { MissingObjectError, ObjectStore, objectPath } from '../../snapshot/store.ts';
import { useTempFolders } from '../helpers/temp.ts';

const folder = useTempFolders('tmsnap-store-read-');

const record = { id: 7, source: ['<b>Save as</b> ../'], target: ['Zapisz jako'], id_hash: 2n ** 63n - 25n };
const text = canonicalJson(record);
const hash = sha256(text);

async function stored(extension: 'json.gz' | 'json', bytes: Uint8Array | string): Promise<string> {
  const content = await folder();
  const path = objectPath(content, hash, extension);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  return content;
}

/** gzip with an FNAME field, as gzip(1) writes it: the header is longer than the 10 bytes Node writes. */
function gzipWithName(bytes: string, name: string): Buffer {
  const plain = gzipSync(bytes);
  const header = Buffer.from(plain.subarray(0, 10));
  header[3] = 0x08;
  return Buffer.concat([header, Buffer.from(`${name}\0`, 'latin1'), plain.subarray(10)]);
}

describe('reading objects (the store read synchronously, issue 11)', () => {
  it('reads what the store writes, big integers exact', async () => {
    const content = await folder();
    const store = new ObjectStore(content, { compress: true });
    expect((await store.putJson(record)).hash).toBe(hash);
    expect(await new ObjectStore(content).readJson(hash)).toEqual(record);
  });

  it('reads a .gz whose header carries a file name (not the header Node writes)', async () => {
    const content = await stored('json.gz', gzipWithName(text, 'object.json'));
    expect((await new ObjectStore(content).readBytes(hash, 'json')).toString('utf8')).toBe(text);
  });

  it('says a truncated .gz is damaged, and names the file', async () => {
    const whole = gzipSync(text);
    const content = await stored('json.gz', whole.subarray(0, whole.length - 20));
    await expect(new ObjectStore(content).readBytes(hash, 'json')).rejects.toThrow(
      new RegExp(`object ${objectPath(content, hash, 'json.gz').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be read .*damaged`),
    );
  });

  it('refuses a .gz that inflates to other bytes than its name promises', async () => {
    const content = await stored('json.gz', gzipSync(text.replace('Zapisz', 'Zapisx')));
    await expect(new ObjectStore(content).readBytes(hash, 'json')).rejects.toThrow(/does not match its hash/);
  });

  it('reads format 1’s plain object, and reports a missing object as missing', async () => {
    const content = await stored('json', text);
    expect(await new ObjectStore(content).readJson(hash)).toEqual(record);
    const empty = await folder();
    await expect(new ObjectStore(empty).readBytes(hash, 'json')).rejects.toBeInstanceOf(MissingObjectError);
  });

  it('says an object it cannot read for another reason than absence cannot be read', async () => {
    const content = await folder();
    // A folder where the object file should be: EISDIR, not ENOENT.
    await mkdir(objectPath(content, hash, 'json.gz'), { recursive: true });
    await expect(new ObjectStore(content).readBytes(hash, 'json')).rejects.toThrow(/cannot be read/);
    await expect(readFile(objectPath(content, hash, 'json.gz'))).rejects.toThrow(/EISDIR/);
  });
});
