import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { canonicalJson, type ChangeChunk, kindOfPath, objectPath, openSnapshot, sha256 } from '../../snapshot/index.ts';

/**
 * Writes, into `target`, the format-1 form of a snapshot of `source` (docs/snapshot-format.md,
 * "Format 1"): one plain object per record and per unit list, the raw file whole, changes in
 * chunks of 1000 ids, one index object. Archives from before format 2 look like this; tmsnap no
 * longer writes them, so the tests of reading and migrating format 1 make them here.
 */
export async function writeFormat1Copy(source: string, id: string, target: string): Promise<void> {
  const snapshot = await openSnapshot(source, id);
  const put = async (bytes: string | Buffer, extension: 'json' | 'raw') => {
    const hash = sha256(bytes);
    const file = objectPath(target, hash, extension);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, bytes);
    return hash;
  };
  const records: Record<string, string> = {};
  const raw: Record<string, string> = {};
  for (const path of snapshot.paths().keys()) {
    if (snapshot.isRaw(path)) {
      raw[path] = await put(canonicalJson(await snapshot.record(path)), 'json');
    } else if (kindOfPath(path) === 'file') {
      const file = (await snapshot.file(path))!;
      const entry = { content_type: file.contentType, size: file.bytes.length, sha256: await put(file.bytes, 'raw') };
      records[path] = await put(canonicalJson(entry), 'json');
    } else {
      records[path] = await put(canonicalJson(await snapshot.record(path)), 'json');
    }
  }
  const byChunk = new Map<number, unknown[]>();
  for (const chunk of snapshot.index.changes) {
    for (const change of (await snapshot.readJson(chunk.hash)) as { id: number }[]) {
      const number = Math.floor(change.id / 1000);
      byChunk.set(number, [...(byChunk.get(number) ?? []), change]);
    }
  }
  const changes: ChangeChunk[] = [];
  for (const list of byChunk.values()) {
    const ids = list.map((change) => (change as { id: number }).id);
    changes.push({ first: ids[0]!, last: ids.at(-1)!, count: list.length, hash: await put(canonicalJson(list), 'json') });
  }
  const index = await put(canonicalJson({ format: 1, records, raw, changes }), 'json');
  const dir = join(target, 'snapshots', id);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'manifest.json'), canonicalJson({ ...snapshot.manifest, format: 1, index }));
}
