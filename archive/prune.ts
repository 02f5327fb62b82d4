/**
 * `tmsnap prune`: removes the snapshots a retention policy does not keep, then the objects
 * nothing refers to any more. The plan is `retention.ts`'s; this module only applies it.
 */
import { readdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { listObjects, listSnapshotDirs, readManifest, references, snapshotsDir, type ObjectKey, type SnapshotDir, type StoredForms } from './references.ts';
import { planRetention, type RetentionDecision, type RetentionPolicy } from './retention.ts';

export interface PrunableSnapshot {
  id: string;
  date: Date;
  complete: boolean;
  dir: string;
}

export interface PruneResult {
  keep: RetentionDecision<PrunableSnapshot>[];
  removed: PrunableSnapshot[];
  objectsRemoved: number;
  bytesRemoved: number;
  /** Unreferenced objects left because a crawl in progress may have written them (see `collectGarbage`). */
  objectsSpared: number;
}

export class PruneError extends Error {
  override name = 'PruneError';
}

/** Finished snapshots as the retention policy sees them; a damaged manifest stops the prune rather than guessing. */
async function prunable(snapshots: readonly SnapshotDir[]): Promise<PrunableSnapshot[]> {
  const out: PrunableSnapshot[] = [];
  for (const snapshot of snapshots) {
    if (snapshot.partial) continue;
    const manifest = await readManifest(snapshot.dir).catch((error: Error) => {
      throw new PruneError(`${error.message}. Nothing was removed; run \`tmsnap verify\` and repair or remove that snapshot first.`);
    });
    out.push({ id: snapshot.id, date: new Date(manifest.started), complete: manifest.complete, dir: snapshot.dir });
  }
  return out;
}

/**
 * Applies the policy. With `dryRun`, removes nothing and reports what a real run would remove.
 * `onRemove` is called once per snapshot removed (or that would be), before it goes.
 */
export async function prune(
  contentDir: string,
  policy: RetentionPolicy,
  options: { dryRun: boolean; onRemove?: (snapshot: PrunableSnapshot) => void },
): Promise<PruneResult> {
  if (!options.dryRun) await finishInterruptedRemovals(contentDir);
  const dirs = await listSnapshotDirs(contentDir);
  const plan = planRetention(await prunable(dirs), policy);
  for (const snapshot of plan.remove) {
    options.onRemove?.(snapshot);
    if (options.dryRun) continue;
    // Renamed first, so a prune killed halfway never leaves a snapshot directory without its manifest.
    const doomed = join(snapshotsDir(contentDir), `${removingPrefix}${snapshot.id}`);
    await rename(snapshot.dir, doomed);
    await rm(doomed, { recursive: true, force: true });
  }
  const removedIds = new Set(plan.remove.map((snapshot) => snapshot.id));
  const remaining = dirs.filter((dir) => !removedIds.has(dir.id) || dir.partial);
  const garbage = await collectGarbage(contentDir, remaining, options.dryRun);
  return { keep: plan.keep, removed: plan.remove, ...garbage };
}

/**
 * Deletes the objects no remaining snapshot or crawl in progress refers to. A running crawl
 * writes an object before journalling it, so while any crawl is in progress, objects written
 * since it started are spared. If any snapshot's references cannot be read, nothing is deleted:
 * its objects would look unreferenced.
 */
async function collectGarbage(
  contentDir: string,
  snapshots: readonly SnapshotDir[],
  dryRun: boolean,
): Promise<Pick<PruneResult, 'objectsRemoved' | 'bytesRemoved' | 'objectsSpared'>> {
  const live = new Set<ObjectKey>();
  let sparedSince = Number.POSITIVE_INFINITY;
  // A delta's base counts as referenced (references adds every chain): it outlives the snapshot it came with.
  const forms: StoredForms = new Map();
  for (const snapshot of snapshots) {
    const found = await references(contentDir, snapshot, forms);
    if (found.problems.length > 0 && !snapshot.partial) {
      const first = found.problems[0]!;
      throw new PruneError(`snapshot ${snapshot.id}: ${first.file}: ${first.reason}. No objects were removed; run \`tmsnap verify\` for the full list.`);
    }
    for (const key of found.objects.keys()) live.add(key);
    if (snapshot.partial) sparedSince = Math.min(sparedSince, await crawlStart(snapshot));
  }
  const { objects } = await listObjects(contentDir);
  let objectsRemoved = 0;
  let bytesRemoved = 0;
  let objectsSpared = 0;
  const emptied = new Set<string>();
  for (const object of objects) {
    if (live.has(object.key)) continue;
    if (object.mtimeMs >= sparedSince) {
      objectsSpared += 1;
      continue;
    }
    objectsRemoved += 1;
    bytesRemoved += object.size;
    if (dryRun) continue;
    await rm(object.file, { force: true });
    emptied.add(dirname(object.file));
  }
  for (const dir of emptied) await rmdir(dir).catch(() => undefined); // only succeeds when empty
  return { objectsRemoved, bytesRemoved, objectsSpared };
}

const removingPrefix = '.removing-';

/** A prune killed between rename and delete leaves `.removing-<id>`: finish its job. */
async function finishInterruptedRemovals(contentDir: string): Promise<void> {
  const names = await readdir(snapshotsDir(contentDir)).catch(() => [] as string[]);
  for (const name of names) if (name.startsWith(removingPrefix)) await rm(join(snapshotsDir(contentDir), name), { recursive: true, force: true });
}

/** When a crawl in progress started (its `state.json`); unreadable means "assume it always ran": spare everything. */
async function crawlStart(snapshot: SnapshotDir): Promise<number> {
  try {
    const started = Date.parse((JSON.parse(await readFile(join(snapshot.dir, 'state.json'), 'utf8')) as { started?: string }).started ?? '');
    return Number.isNaN(started) ? Number.NEGATIVE_INFINITY : started;
  } catch {
    return Number.NEGATIVE_INFINITY;
  }
}
