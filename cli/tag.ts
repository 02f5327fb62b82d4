import { listSnapshots, ArchiveLockedError, withArchiveLock } from '../snapshot/index.ts';
import { readTags, snapshotToTag, TagError, tagNameProblem, withoutTag, withTag, writeTags } from '../archive/tags.ts';
import { type Command, CommandFailure, UsageError, exitCodes, parseArchiveCommandLine, printJson } from './command.ts';
import { snapshotIdsOf } from './snapshot-names.ts';

const help = `Usage: tmsnap tag [options]                    list the release tags
       tmsnap tag NAME [SNAPSHOT] [options]    pin release NAME to a snapshot
       tmsnap tag --delete NAME [options]      remove a tag (its snapshot stays)

Pins a release to a snapshot: SNAPSHOT (an id \`tmsnap snapshots\` lists, of a complete
snapshot, or another tag), by default the newest complete one. Tags are kept in the archive
(tags.json in the content folder): prune never removes a tagged snapshot, \`tmsnap build
--snapshot NAME\` builds the site as it was at that release, the site has a release page per
tag, and \`tmsnap credits --since NAME\` counts the work done since it; every command that
takes a snapshot takes a tag. NAME is a letter or digit, then letters, digits,
".", "_" or "-" (at most 64 characters), e.g. v2.3.

Options:
  --move          pin an existing tag to another snapshot (otherwise refused)
  --delete        remove tag NAME
  --content DIR   the archive folder (default: content, or TMSNAP_CONTENT)
  --json          the tags as a JSON array: [{name, snapshot}], oldest first
  -h, --help      this help`;

export const command: Command = {
  summary: 'pin a release to a snapshot, or list the release tags',
  help,
  async run(args) {
    const { values, positionals } = parseArchiveCommandLine(
      args,
      { move: { type: 'boolean', default: false }, delete: { type: 'boolean', default: false } },
      {
        positionals: true,
        check: ({ values: given, positionals: words }) => {
          if (words.length > 2) throw new UsageError(`expected NAME [SNAPSHOT], got ${words.length} arguments`);
          if (given.delete && (words.length !== 1 || given.move)) throw new UsageError('--delete takes one NAME, and no SNAPSHOT or --move');
          if (given.move && words.length === 0) throw new UsageError('--move needs the NAME of the tag to move');
          const problem = words[0] === undefined || given.delete ? undefined : tagNameProblem(words[0]);
          if (problem !== undefined) throw new UsageError(problem);
        },
      },
    );
    const content = values.content;
    const [name, snapshot] = positionals;
    try {
      if (name === undefined) {
        const tags = await readTags(content);
        if (values.json) printJson(tags);
        else if (tags.length === 0) console.log(`no release tags in ${content}: \`tmsnap tag NAME\` pins one to the newest complete snapshot`);
        else for (const tag of tags) console.log(`${tag.name.padEnd(16)} ${tag.snapshot}`);
        return exitCodes.ok;
      }
      // The tags file is rewritten whole: one writer at a time, as for any change to the archive.
      const message = await withArchiveLock(content, { command: 'tag', onWarning: (text) => console.error(`tmsnap tag: warning: ${text}`) }, async () => {
        const tags = await readTags(content);
        if (values.delete) {
          await writeTags(content, withoutTag(tags, name));
          return `removed tag ${name}`;
        }
        const [named] = snapshot === undefined ? [] : snapshotIdsOf(tags, [snapshot], content);
        const id = snapshotToTag(await listSnapshots(content), named, content);
        const before = tags.find((tag) => tag.name === name)?.snapshot;
        await writeTags(content, withTag(tags, name, id, values.move));
        return before === undefined ? `tagged ${id} as ${name}` : `moved tag ${name} from ${before} to ${id}`;
      });
      console.log(message);
      return exitCodes.ok;
    } catch (error) {
      if (error instanceof TagError || error instanceof ArchiveLockedError) throw new CommandFailure(error.message);
      throw error;
    }
  },
};
