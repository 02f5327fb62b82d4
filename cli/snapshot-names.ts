/**
 * Snapshots as commands take them (issue 35): a snapshot id or a release tag, wherever a
 * command takes a snapshot. One resolver for every command, so that `diff v1.0 v2.0`, `pack
 * v1.0`, `export --snapshot v1.0`, `search --snapshot v1.0`, `verify v1.0`, `tag v1.0-final
 * v1.0`, `build --snapshot v1.0` and `credits --snapshot v1.0` read the same tags the same way.
 */
import { readTags, resolveSnapshotName, TagError, type Tag } from '../archive/tags.ts';
import { isSnapshotId } from '../snapshot/index.ts';
import { CommandFailure, closest } from './command.ts';

/** The archive's tags; a damaged tags file is a failure of one line. */
export async function archiveTags(content: string): Promise<Tag[]> {
  try {
    return await readTags(content);
  } catch (error) {
    if (error instanceof TagError) throw new CommandFailure(error.message);
    throw error;
  }
}

/**
 * The snapshot id each name stands for: the snapshot a tag of that name pins, else the name
 * itself when it is spelled as an id (whether that snapshot exists is the command's to say).
 * A name that is neither is refused in one line, with the nearest tag when one is close.
 */
export function snapshotIdsOf(tags: readonly Tag[], names: readonly string[], content: string): string[] {
  return names.map((name) => {
    const id = resolveSnapshotName(tags, name);
    if (id !== name || isSnapshotId(name)) return id;
    const guess =
      closest(
        name,
        tags.map((tag) => tag.name),
      ) ?? tags.find((tag) => tag.name.toLowerCase() === name.toLowerCase())?.name;
    const known = tags.length === 0 ? 'the archive has no release tags' : `its tags: ${tags.map((tag) => tag.name).join(', ')}`;
    throw new CommandFailure(
      `no finished snapshot or tag ${JSON.stringify(name)} in ${content}${guess ? `: did you mean ${guess}?` : ''} (${known}; \`tmsnap snapshots\` lists the snapshots)`,
    );
  });
}

/** `snapshotIdsOf` for names given on a command line, reading the archive's tags only when a name is given. */
export async function snapshotIds(content: string, names: readonly string[]): Promise<string[]> {
  return names.length === 0 ? [] : snapshotIdsOf(await archiveTags(content), names, content);
}

/** One optional `--snapshot NAME`: its id, or undefined when none is given. */
export async function snapshotId(content: string, name: string | undefined): Promise<string | undefined> {
  return name === undefined ? undefined : (await snapshotIds(content, [name]))[0];
}
