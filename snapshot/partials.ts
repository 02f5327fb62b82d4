/**
 * Unfinished snapshots (`snapshots/<id>.partial/`) as the next crawl and `tmsnap snapshots` see
 * them: their state and which of them a crawl can resume (docs/snapshot-format.md, "Leftovers").
 * Apart from the writer, so that listing an archive loads no more than it reads.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { canonicalJson } from './canonical.ts';
import { partialSuffix, snapshotsDir, stateFile } from './content.ts';
import { compareSnapshotIdsNewestFirst, isSnapshotId } from './ids.ts';
import { scope as scopeSchema } from './manifest.ts';

/** The format new snapshots are written in (docs/snapshot-format.md); readers read 1 to 4. */
export const snapshotFormat = 4;

const partialState = z.object({
  // A crawl of format 2 or 3 left in progress is resumed: its objects are format 4's too, its records only not inline.
  format: z.union([z.literal(2), z.literal(3), z.literal(snapshotFormat)]),
  id: z.string(),
  base_url: z.string(),
  scope: scopeSchema,
  tmsnap_version: z.string(),
  started: z.string(),
  format_api_links: z.boolean().optional(),
});
export type PartialState = z.infer<typeof partialState>;

export async function readPartialState(dir: string): Promise<PartialState | undefined> {
  const text = await readFile(join(dir, stateFile), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const parsed = partialState.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : undefined;
}

/**
 * An unfinished snapshot (`snapshots/<id>.partial/`) as the next crawl sees it: `state` is
 * undefined when its `state.json` is missing, unreadable or of a format this tmsnap does not
 * resume (a crawl of tmsnap's first format, say).
 */
export interface PartialSnapshot {
  id: string;
  dir: string;
  state: PartialState | undefined;
}

/** Every unfinished snapshot of an archive, newest first. */
export async function partialSnapshots(contentDir: string): Promise<PartialSnapshot[]> {
  const names = await readdir(snapshotsDir(contentDir)).catch(() => [] as string[]);
  const ids = names
    .filter((name) => name.endsWith(partialSuffix))
    .map((name) => name.slice(0, -partialSuffix.length))
    .filter(isSnapshotId)
    .sort(compareSnapshotIdsNewestFirst);
  const partials: PartialSnapshot[] = [];
  for (const id of ids) {
    const dir = join(snapshotsDir(contentDir), id + partialSuffix);
    partials.push({ id, dir, state: await readPartialState(dir).catch(() => undefined) });
  }
  return partials;
}

/**
 * Whether a crawl can resume each unfinished snapshot (`partials` newest first): a crawl
 * resumes the newest one of its server and scope whose state reads (`findResumable`). Any
 * other (its state unreadable, or an older one of the same server and scope) no crawl will
 * ever continue: `tmsnap prune` removes it (archive/prune.ts, docs/snapshot-format.md).
 */
export function resumable(partials: readonly PartialSnapshot[]): Set<string> {
  const seen = new Set<string>();
  const ids = new Set<string>();
  for (const { id, state } of partials) {
    if (state === undefined) continue;
    const key = canonicalJson([state.base_url, state.scope]);
    if (seen.has(key)) continue;
    seen.add(key);
    ids.add(id);
  }
  return ids;
}
