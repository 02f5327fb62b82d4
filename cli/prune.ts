import { formatBytes } from '../archive/listing.ts';
import { prune, PruneError } from '../archive/prune.ts';
import { ArchiveLockedError, withArchiveLock } from '../snapshot/lock.ts';
import { type Command, CommandFailure, UsageError, archiveOptions, exitCodes, parseCommandLine, printJson, requireArchive } from './command.ts';

const help = `Usage: tmsnap prune --keep-daily N --keep-weekly N --keep-monthly N [options]

Removes the snapshots the policy does not keep, then the objects no remaining snapshot (or
crawl in progress) refers to. Each rule counts on its own: --keep-daily 7 keeps the newest
snapshot of each of the 7 latest UTC days that have one; --keep-weekly of ISO weeks;
--keep-monthly of months. A snapshot any rule wants stays, and the newest complete
snapshot always stays. Crawls in progress are never removed. Prints a line per snapshot
removed. It holds the archive's lock: while a crawl, unpack or another prune writes the same
content folder, it exits 1 naming that writer.

Options:
  --keep-daily N     days to keep a snapshot of (default: 0)
  --keep-weekly N    ISO weeks to keep a snapshot of (default: 0)
  --keep-monthly N   months to keep a snapshot of (default: 0)
  --dry-run          remove nothing; print what would be removed
  --content DIR      the archive folder (default: content, or TMSNAP_CONTENT)
  --json             the report as JSON: {dryRun, kept: [{id, reasons}], removed: [id], objectsRemoved, bytesRemoved, objectsSpared}
  -h, --help         this help`;

function count(flag: string, value: string | undefined): number {
  if (value === undefined) return 0;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${flag} expects a whole number from 0 up, got "${value}"`);
  return Number(value);
}

export const command: Command = {
  summary: 'remove old snapshots and the objects nothing needs any more',
  help,
  async run(args) {
    const { values } = parseCommandLine(args, {
      'keep-daily': { type: 'string' },
      'keep-weekly': { type: 'string' },
      'keep-monthly': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      ...archiveOptions(),
    });
    if (values['keep-daily'] === undefined && values['keep-weekly'] === undefined && values['keep-monthly'] === undefined) {
      throw new UsageError('say what to keep: at least one of --keep-daily, --keep-weekly, --keep-monthly');
    }
    const policy = {
      daily: count('keep-daily', values['keep-daily']),
      weekly: count('keep-weekly', values['keep-weekly']),
      monthly: count('keep-monthly', values['keep-monthly']),
    };
    // A typo in a cron line must not look like a prune that found nothing to remove.
    requireArchive(values.content);
    const dryRun = values['dry-run'];
    const verb = dryRun ? 'would remove' : 'removing';
    try {
      const prunePolicy = () =>
        prune(values.content, policy, {
          dryRun,
          onRemove: (snapshot) => values.json || console.log(`${verb} snapshot ${snapshot.id} (${snapshot.complete ? 'complete' : 'incomplete'})`),
        });
      // A dry run changes nothing, so it needs no lock.
      const result = dryRun
        ? await prunePolicy()
        : await withArchiveLock(values.content, { command: 'prune', onWarning: (message) => console.error(`tmsnap prune: warning: ${message}`) }, prunePolicy);
      if (values.json) {
        printJson({
          dryRun,
          kept: result.keep.map(({ snapshot, reasons }) => ({ id: snapshot.id, reasons })),
          removed: result.removed.map((snapshot) => snapshot.id),
          objectsRemoved: result.objectsRemoved,
          bytesRemoved: result.bytesRemoved,
          objectsSpared: result.objectsSpared,
        });
        return exitCodes.ok;
      }
      const spared = result.objectsSpared > 0 ? `; ${result.objectsSpared} unreferenced objects spared for the crawl in progress` : '';
      console.log(
        `prune: ${result.keep.length} snapshots kept, ${result.removed.length} ${dryRun ? 'would be ' : ''}removed; ` +
          `${result.objectsRemoved} objects (${formatBytes(result.bytesRemoved)}) ${dryRun ? 'would be ' : ''}freed${spared}`,
      );
      return exitCodes.ok;
    } catch (error) {
      if (!(error instanceof PruneError) && !(error instanceof ArchiveLockedError)) throw error;
      throw new CommandFailure(error.message);
    }
  },
};
