import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { canonicalJson, MissingObjectError, objectPath, ObjectStore, sha256 } from '../../snapshot/index.ts';
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

describe('reading deltas: the chain checked as a whole', () => {
  const lines = (edited: Record<number, string>) =>
    Array.from({ length: 300 }, (_, i) => edited[i] ?? `  "unit ${i}": "a line of its own, ${(i * 7919) % 1009}",\n`).join('');
  const v0 = lines({});
  const v1 = lines({ 299: '  "unit 299": "edited on day one",\n' });
  const v2 = lines({ 299: '  "unit 299": "edited on day one",\n', 5: '  "unit 5": "edited on day two",\n' });

  async function chain() {
    const content = await folder();
    const store = new ObjectStore(content, { compress: true });
    const [h0, h1, h2] = [sha256(v0), sha256(v1), sha256(v2)];
    await store.putBytes(v0, 'json');
    await store.putBytes(v1, 'json', { base: h0 });
    await store.putBytes(v2, 'json', { base: h1 });
    expect(await store.depth(h2, 'json')).toBe(2);
    return { content, h0, h1, h2 };
  }

  /** Rewrites a whole object with other bytes of the same length at `line`, as a damaged disk would. */
  async function damage(content: string, hash: string, text: string, line: number) {
    const changed = text.split('\n');
    changed[line] = changed[line]!.replace('a line', 'A line');
    await writeFile(objectPath(content, hash, 'json.gz'), gzipSync(changed.join('\n')));
  }

  it('reads the newest version through its chain, exactly', async () => {
    const { content, h2 } = await chain();
    expect((await new ObjectStore(content).readBytes(h2, 'json')).toString()).toBe(v2);
  });

  it('names the damaged base when a chain rebuilds other bytes than the delta’s name', async () => {
    const { content, h0, h2 } = await chain();
    await damage(content, h0, v0, 10);
    await expect(new ObjectStore(content).readBytes(h2, 'json')).rejects.toThrow(
      new RegExp(`base ${h0} cannot be read: .*${h0.slice(2)}\\.json\\.gz does not match its hash`),
    );
  });

  it('never hands a base read unchecked to a reader that needs it checked', async () => {
    const { content, h0, h2 } = await chain();
    // Damage in the line day one replaced: the newest version rebuilds right from the damaged base.
    await damage(content, h0, v0, 299);
    const store = new ObjectStore(content, { compress: true });
    expect((await store.readBytes(h2, 'json')).toString()).toBe(v2);
    await expect(store.readBytes(h0, 'json')).rejects.toThrow(/does not match its hash/);
    // A delta against the damaged base would copy damaged bytes: the writer stores the object whole.
    const v3 = lines({ 1: '  "unit 1": "edited on day three",\n' });
    await store.putBytes(v3, 'json', { base: h0 });
    expect(await store.depth(sha256(v3), 'json')).toBe(0);
  });
});
