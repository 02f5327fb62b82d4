/**
 * Release tags (issue 26, "the time machine"): a name pinned to a snapshot, kept in the archive
 * as `content/tags.json` so that `prune` keeps every tagged snapshot and the site can show what
 * changed between two releases. A tag name becomes part of file names and page paths, and
 * comes from the command line or an archive someone else wrote: it is checked before any path
 * is built from it (`tagNameProblem`). Rules and reasons: docs/decisions/2026-11-27-releases.md.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { canonicalJson, isSnapshotId, parseStoredJson, type SnapshotSummary, tagsFileName } from '../snapshot/index.ts';

/** The file under the content folder that holds the tags. */
export const tagsFile = tagsFileName;

/** A release name: a letter or digit, then letters, digits, `.`, `_` or `-`; at most 64 characters. */
const tagNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface Tag {
  name: string;
  snapshot: string;
}

const tagsSchema = z.object({
  format: z.literal(1),
  tags: z.record(z.string(), z.string()),
});

export class TagError extends Error {
  override name = 'TagError';
}

/** Why `name` cannot be a tag, in one line; `undefined` when it can. */
export function tagNameProblem(name: string): string | undefined {
  const shown = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  if (!tagNamePattern.test(name) || name.includes('..') || name.endsWith('.')) {
    return `${shown} is not a tag name: a letter or digit, then letters, digits, ".", "_" or "-" (no "..", no final "."), at most 64 characters, e.g. v2.3`;
  }
  // `build --snapshot` takes a tag or an id: a tag spelled like an id would hide the snapshot.
  if (isSnapshotId(name)) return `${shown} is a snapshot id; a tag names a release, e.g. v2.3`;
  return undefined;
}

/** The tags of an archive, oldest snapshot first, then by name; none when it has no tags file. */
export async function readTags(contentDir: string): Promise<Tag[]> {
  const file = join(contentDir, tagsFile);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return parseTags(text, file);
}

/**
 * The tags a tags file's text holds, checked as untrusted input (it may come from someone
 * else's archive or a pack): `source` names the file in the one-line refusal, `advice` ends it.
 */
export function parseTags(text: string, source: string, advice = 'repair or remove it'): Tag[] {
  let parsed: z.infer<typeof tagsSchema>;
  try {
    parsed = tagsSchema.parse(parseStoredJson(text));
  } catch {
    throw new TagError(`${source} is not a tags file of this tmsnap (expected {"format": 1, "tags": {NAME: SNAPSHOT}}); ${advice}`);
  }
  const tags = Object.entries(parsed.tags).map(([name, snapshot]) => ({ name, snapshot }));
  for (const tag of tags) {
    // Never trust a name or id read from disk further than the rules allow.
    const problem = tagNameProblem(tag.name) ?? (isSnapshotId(tag.snapshot) ? undefined : `"${tag.snapshot}" is not a snapshot id`);
    if (problem !== undefined) throw new TagError(`${source}: ${problem}; ${advice}`);
  }
  return sortTags(tags);
}

export function sortTags(tags: readonly Tag[]): Tag[] {
  return [...tags].sort((a, b) => (a.snapshot < b.snapshot ? -1 : a.snapshot > b.snapshot ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Writes the tags whole: to a temporary file, then renamed over the old one. */
export async function writeTags(contentDir: string, tags: readonly Tag[]): Promise<void> {
  const file = join(contentDir, tagsFile);
  await writeFile(`${file}.tmp`, tagsText(tags));
  await rename(`${file}.tmp`, file);
}

/** The text of a tags file holding `tags` (the same tags give the same bytes). */
export function tagsText(tags: readonly Tag[]): string {
  return canonicalJson({ format: 1, tags: Object.fromEntries(sortTags(tags).map((tag) => [tag.name, tag.snapshot])) });
}

/**
 * The tags after pinning `name` to `snapshot`: refused when the name is taken (unless `move`),
 * or differs from a taken one only in case (their pages would collide on a case-insensitive disk).
 */
export function withTag(tags: readonly Tag[], name: string, snapshot: string, move: boolean): Tag[] {
  const problem = tagNameProblem(name);
  if (problem !== undefined) throw new TagError(problem);
  const same = tags.find((tag) => tag.name === name);
  if (same && !move) throw new TagError(`tag ${name} exists (snapshot ${same.snapshot}): give --move to pin it to ${snapshot}`);
  const lookalike = tags.find((tag) => tag.name !== name && tag.name.toLowerCase() === name.toLowerCase());
  if (lookalike) throw new TagError(`tag ${lookalike.name} exists: a tag may not differ from another only in case`);
  return sortTags([...tags.filter((tag) => tag.name !== name), { name, snapshot }]);
}

/**
 * The tags after adding those of a pack (`tmsnap unpack`): a new name is added, the same name on
 * the same snapshot changes nothing, and a name taken by another snapshot, or differing from a
 * taken one only in case, is refused: a tag already here is never moved or dropped.
 */
export function mergeTags(tags: readonly Tag[], incoming: readonly Tag[], contentDir: string): { tags: Tag[]; added: Tag[] } {
  let merged = [...tags];
  const added: Tag[] = [];
  for (const tag of incoming) {
    const here = merged.find((candidate) => candidate.name === tag.name);
    if (here?.snapshot === tag.snapshot) continue;
    if (here) {
      throw new TagError(
        `tag ${tag.name} pins snapshot ${here.snapshot} in ${contentDir} but ${tag.snapshot} in the pack: rename the one here ` +
          `(\`tmsnap tag NEWNAME ${here.snapshot}\`, then \`tmsnap tag --delete ${tag.name}\`) and unpack again`,
      );
    }
    merged = withTag(merged, tag.name, tag.snapshot, false);
    added.push(tag);
  }
  return { tags: merged, added };
}

/** The tags without `name`; refused when there is no such tag. */
export function withoutTag(tags: readonly Tag[], name: string): Tag[] {
  if (!tags.some((tag) => tag.name === name)) throw new TagError(`no tag ${JSON.stringify(name)}: \`tmsnap tag\` lists them`);
  return tags.filter((tag) => tag.name !== name);
}

/**
 * The snapshot a tag may pin: the one named (finished and complete), or the newest complete
 * one. A release is a claim about the whole scope, so an incomplete snapshot is refused.
 */
export function snapshotToTag(summaries: readonly SnapshotSummary[], id: string | undefined, contentDir: string): string {
  if (id === undefined) {
    const newest = summaries.find((summary) => summary.complete);
    if (newest === undefined) throw new TagError(`no complete snapshot in ${contentDir} to tag: run \`tmsnap crawl\` first`);
    return newest.id;
  }
  const summary = summaries.find((candidate) => candidate.id === id);
  if (summary === undefined || !summary.finished) {
    throw new TagError(`no finished snapshot ${JSON.stringify(id)} in ${contentDir}: \`tmsnap snapshots --content ${contentDir}\` lists them`);
  }
  if (!summary.complete) throw new TagError(`snapshot ${id} is incomplete (its crawl did not see everything): tag a complete one`);
  return id;
}

/** Snapshots pinned by a tag, with the tag names, for retention (archive/retention.ts). */
export function pinnedSnapshots(tags: readonly Tag[]): Map<string, string[]> {
  const pinned = new Map<string, string[]>();
  for (const tag of tags) pinned.set(tag.snapshot, [...(pinned.get(tag.snapshot) ?? []), tag.name]);
  return pinned;
}

/** A snapshot id as given, or the snapshot a tag of that name pins (`build --snapshot v2.3`). */
export function resolveSnapshotName(tags: readonly Tag[], name: string): string {
  return tags.find((tag) => tag.name === name)?.snapshot ?? name;
}
