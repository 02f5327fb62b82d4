/**
 * `tmsnap prune`: removes the snapshots a retention policy does not keep and the unfinished
 * snapshots no crawl can resume, then the objects nothing refers to any more. The plan is
 * `retention.ts`'s; which unfinished snapshot a crawl resumes is the writer's rule
 * (snapshot/writer.ts `resumable`); this module only applies them.
 */
import { readdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  journalFile,
  listObjects,
  listSnapshotDirs,
  type ObjectKey,
  partialSnapshots,
  readManifestIn,
  resumable,
  type SnapshotDir,
  snapshotsDir,
  stateFile,
} from '../snapshot/index.ts';
import { references, type StoredForms } from './references.ts';
import { planRetention, type RetentionDecision, type RetentionPolicy } from './retention.ts';
import { pinnedSnapshots, readTags } from './tags.ts';

export interface PrunableSnapshot {
  id: string;
  date: Date;
  complete: boolean;
  dir: string;
}

/** An unfinished snapshot (`<id>.partial`) that no crawl will ever continue, and why. */
export interface LeftoverSnapshot {
  id: string;
  dir: string;
  reason: string;
}

export interface PruneResult {
  keep: RetentionDecision<PrunableSnapshot>[];
  removed: PrunableSnapshot[];
  /** Unfinished snapshots no crawl can resume, removed (or that would be). */
  leftovers: LeftoverSnapshot[];
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
    const manifest = await readManifestIn(snapshot.dir).catch((error: Error) => {
      throw new PruneError(`${error.message}. Nothing was removed; run \`tmsnap verify\` and repair or remove that snapshot first.`);
    });
    out.push({ id: snapshot.id, date: new Date(manifest.started), complete: manifest.complete, dir: snapshot.dir });
  }
  return out;
}

/**
 * The unfinished snapshots no crawl can resume, newest first. A crawl resumes the newest
 * unfinished snapshot of its server and scope whose `state.json` reads; every other one (no
 * readable state, a format this tmsnap does not resume, or an older one of the same server and
 * scope) is a leftover of a crawl that died (docs/snapshot-format.md, "Leftovers").
 */
export async function leftoverSnapshots(contentDir: string): Promise<LeftoverSnapshot[]> {
  const partials = await partialSnapshots(contentDir);
  const live = resumable(partials);
  const leftovers: LeftoverSnapshot[] = [];
  for (const partial of partials) {
    if (live.has(partial.id)) {
      // Resuming one that stored nothing gains nothing over a fresh start (issue 35).
      if (await storedNothing(partial.dir)) {
        leftovers.push({
          id: partial.id,
          dir: partial.dir,
          reason: 'it stored nothing (its crawl stopped before the server answered), so there is nothing to resume',
        });
      }
      continue;
    }
    const reason =
      partial.state === undefined
        ? await unreadableState(partial.dir)
        : `a newer unfinished snapshot of ${partial.state.base_url} with the same scope is the one a crawl resumes`;
    leftovers.push({ id: partial.id, dir: partial.dir, reason });
  }
  return leftovers;
}

/** Whether an unfinished snapshot holds no record and no change: no journal line, nothing under `changes/`. */
async function storedNothing(dir: string): Promise<boolean> {
  const journal = await readFile(join(dir, journalFile), 'utf8').catch(() => '');
  if (journal.trim() !== '') return false;
  return (await readdir(join(dir, 'changes')).catch(() => [] as string[])).length === 0;
}

/** Why a partial snapshot's `state.json` does not let a crawl resume it. */
async function unreadableState(dir: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(join(dir, stateFile), 'utf8');
  } catch {
    return 'it has no state.json (its crawl died as it began)';
  }
  try {
    const format = (JSON.parse(text) as { format?: unknown } | null)?.format;
    return typeof format === 'number'
      ? `its state.json is of format ${format}, which this tmsnap does not resume`
      : 'its state.json does not say what it is a crawl of';
  } catch {
    return 'its state.json is not JSON';
  }
}

/**
 * Applies the policy (none: only the leftovers go) and removes the unfinished snapshots no
 * crawl can resume. With `dryRun`, removes nothing and reports what a real run would remove.
 * `onRemove` and `onLeftover` are called once per snapshot removed (or that would be), before it
 * goes. A real run holds the archive's lock (cli/prune.ts), so no crawl is writing meanwhile.
 */
export async function prune(
  contentDir: string,
  policy: RetentionPolicy | undefined,
  options: { dryRun: boolean; onRemove?: (snapshot: PrunableSnapshot) => void; onLeftover?: (leftover: LeftoverSnapshot) => void },
): Promise<PruneResult> {
  // Read before anything goes: a damaged tags file stops the prune, or a release's snapshot could go.
  const pinned = pinnedSnapshots(
    await readTags(contentDir).catch((error: Error) => {
      throw new PruneError(`${error.message}. Nothing was removed.`);
    }),
  );
  if (!options.dryRun) await finishInterruptedRemovals(contentDir);
  const leftovers = await leftoverSnapshots(contentDir);
  for (const leftover of leftovers) {
    options.onLeftover?.(leftover);
    if (!options.dryRun) await removeDir(contentDir, leftover.dir);
  }
  const gone = new Set(leftovers.map((leftover) => leftover.dir));
  const dirs = (await listSnapshotDirs(contentDir)).filter((dir) => !gone.has(dir.dir));
  const plan = policy === undefined ? { keep: [], remove: [] } : planRetention(await prunable(dirs), policy, pinned);
  for (const snapshot of plan.remove) {
    options.onRemove?.(snapshot);
    if (!options.dryRun) await removeDir(contentDir, snapshot.dir);
  }
  const removedIds = new Set(plan.remove.map((snapshot) => snapshot.id));
  const remaining = dirs.filter((dir) => !removedIds.has(dir.id) || dir.partial);
  const garbage = await collectGarbage(contentDir, remaining, options.dryRun);
  return { keep: plan.keep, removed: plan.remove, leftovers, ...garbage };
}

/** Renamed first, so a prune killed halfway never leaves a snapshot directory without its manifest or state. */
async function removeDir(contentDir: string, dir: string): Promise<void> {
  const doomed = join(snapshotsDir(contentDir), `${removingPrefix}${basename(dir)}`);
  await rename(dir, doomed);
  await rm(doomed, { recursive: true, force: true });
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
    const started = Date.parse((JSON.parse(await readFile(join(snapshot.dir, stateFile), 'utf8')) as { started?: string }).started ?? '');
    return Number.isNaN(started) ? Number.NEGATIVE_INFINITY : started;
  } catch {
    return Number.NEGATIVE_INFINITY;
  }
}
