import { counted } from './count.ts';
import { formatBytes } from '../archive/listing.ts';
import { migrate, MigrateError } from '../archive/migrate.ts';
import { ArchiveLockedError, snapshotFormat, StoreWriteError, withArchiveLock } from '../snapshot/index.ts';
import { type Command, exitCodes, parseArchiveCommandLine, printJson } from './command.ts';

const help = `Usage: tmsnap migrate [options]

Rewrites every snapshot of the archive to the current snapshot format (4: unit lists and raw
files in chunks, the index split per project with small records inline, objects compressed or
kept as deltas against the snapshot before), in place. Each snapshot
switches over at once when its new objects are all written, so readers (build, search, diff)
may run meanwhile; if stopped, run it again: it goes on with the snapshots not yet rewritten.
The old objects are removed only once every snapshot is rewritten and \`tmsnap verify\` finds
nothing wrong. It holds the archive's lock: while a crawl, prune, unpack or another migrate
writes the same content folder, it exits 1 naming that writer.

Options:
  --content DIR   content folder holding the snapshots (default: content, or TMSNAP_CONTENT)
  --json          the summary as JSON
  -h, --help      this help`;

export const command: Command = {
  summary: 'rewrite an archive to the current snapshot format, in place',
  help,
  async run(args) {
    const { values } = parseArchiveCommandLine(args);
    try {
      const result = await withArchiveLock(
        values.content,
        { command: 'migrate', onWarning: (message) => console.error(`tmsnap migrate: warning: ${message}`) },
        () =>
          migrate(values.content, {
            onSnapshot: values.json ? undefined : (id, done, total) => console.error(`migrate: snapshot ${id} rewritten (${done}/${total})`),
          }),
      );
      if (values.json) {
        printJson(result);
        return exitCodes.ok;
      }
      console.log(
        `migrate: ${counted(result.migrated.length, 'snapshot', 'snapshots')} rewritten, ${result.already.length} already in format ${snapshotFormat}; verify OK; ` +
          `${result.objectsRemoved} old objects (${formatBytes(result.bytesRemoved)}) removed; objects ${formatBytes(result.bytesBefore)} → ${formatBytes(result.bytesAfter)}`,
      );
      return exitCodes.ok;
    } catch (error) {
      if (!(error instanceof MigrateError) && !(error instanceof ArchiveLockedError) && !(error instanceof StoreWriteError)) throw error;
      console.error(`tmsnap migrate: ${error.message}`);
      return exitCodes.failed;
    }
  },
};
