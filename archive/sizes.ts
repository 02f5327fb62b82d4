/**
 * What a finished snapshot's objects weigh on disk, kept beside its manifest in `sizes.json`
 * so that `tmsnap snapshots` need not walk every index, unit list and file entry again on each
 * run (docs/snapshot-format.md, "Layout"; docs/decisions/2026-11-29-listing-start.md). A cache:
 * written under the archive's lock when it is free, ignored when it names another index than
 * the manifest (a migrated snapshot), never packed (sizes are those of this store's forms).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseJson } from '../api/json.ts';
import { canonicalJson } from '../snapshot/canonical.ts';
import { type ObjectKey, type SnapshotDir, sizesFile } from '../snapshot/content.ts';

/** The objects a snapshot needs, each with its size on disk. */
export type ObjectSizes = Map<ObjectKey, number>;

/** The sizes cached for `snapshot` if they were recorded for the index its manifest names now. */
export async function readSizes(snapshot: SnapshotDir, index: string): Promise<ObjectSizes | undefined> {
  const text = await readFile(join(snapshot.dir, sizesFile), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const value = (() => {
    try {
      return parseJson(text) as { index?: unknown; objects?: unknown };
    } catch {
      return undefined;
    }
  })();
  if (value?.index !== index || typeof value.objects !== 'object' || value.objects === null) return undefined;
  const sizes: ObjectSizes = new Map();
  for (const [key, size] of Object.entries(value.objects)) {
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return undefined;
    sizes.set(key as ObjectKey, size);
  }
  return sizes;
}

/** `sizes.json`'s bytes: canonical JSON, so that the same sizes always give the same file. */
export function sizesText(index: string, sizes: ObjectSizes): string {
  return canonicalJson({ index, objects: Object.fromEntries(sizes) });
}
