import { counted } from './count.ts';
import { formatBytes } from '../archive/listing.ts';
import { prune, PruneError } from '../archive/prune.ts';
import { ArchiveLockedError, withArchiveLock } from '../snapshot/index.ts';
import { type Command, CommandFailure, UsageError, archiveOptions, exitCodes, parseCommandLine, printJson, requireArchive } from './command.ts';

const help = `Usage: tmsnap prune --keep-daily N --keep-weekly N --keep-monthly N [options]
       tmsnap prune --leftovers [options]

Removes the snapshots the policy does not keep, the unfinished snapshots no crawl can resume,
then the objects no remaining snapshot (or crawl in progress) refers to. Each rule counts on
its own: --keep-daily 7 keeps the newest snapshot of each of the 7 latest UTC days that have
one; --keep-weekly of ISO weeks; --keep-monthly of months. A snapshot any rule wants stays,
the newest complete snapshot always stays, and so does every snapshot a release tag pins
(tmsnap tag).

An unfinished snapshot (state "in progress" in tmsnap snapshots) is the next crawl's of the
same server and scope, which resumes it: those stay. One no crawl can resume (its state.json
missing, unreadable or of a format this tmsnap does not resume, or an older one of the same
server and scope) is a leftover of a crawl that died: it goes, named with the reason. Prints a
line per snapshot removed. It holds the archive's lock: while a crawl, unpack or another prune
writes the same content folder, it exits 1 naming that writer, and removes nothing.

Options:
  --keep-daily N     days to keep a snapshot of (default: 0)
  --keep-weekly N    ISO weeks to keep a snapshot of (default: 0)
  --keep-monthly N   months to keep a snapshot of (default: 0)
  --leftovers        remove only the unfinished snapshots no crawl can resume (no policy)
  --dry-run          remove nothing; print what would be removed
  --content DIR      the archive folder (default: content, or TMSNAP_CONTENT)
  --json             the report as JSON: {dryRun, kept: [{id, reasons}], removed: [id],
                     leftovers: [{id, reason}], objectsRemoved, bytesRemoved, objectsSpared}
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
      leftovers: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      ...archiveOptions(),
    });
    const rules = values['keep-daily'] !== undefined || values['keep-weekly'] !== undefined || values['keep-monthly'] !== undefined;
    if (rules && values.leftovers)
      throw new UsageError('--leftovers removes only unfinished snapshots; give it without --keep-daily, --keep-weekly, --keep-monthly');
    if (!rules && !values.leftovers) {
      throw new UsageError(
        'say what to keep: at least one of --keep-daily, --keep-weekly, --keep-monthly (or --leftovers: only unfinished snapshots no crawl can resume)',
      );
    }
    const policy = values.leftovers
      ? undefined
      : {
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
          onLeftover: (leftover) => values.json || console.log(`${verb} unfinished snapshot ${leftover.id}: no crawl can resume it, ${leftover.reason}`),
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
          leftovers: result.leftovers.map(({ id, reason }) => ({ id, reason })),
          objectsRemoved: result.objectsRemoved,
          bytesRemoved: result.bytesRemoved,
          objectsSpared: result.objectsSpared,
        });
        return exitCodes.ok;
      }
      const spared =
        result.objectsSpared > 0 ? `; ${counted(result.objectsSpared, 'unreferenced object', 'unreferenced objects')} spared for the crawl in progress` : '';
      const would = dryRun ? 'would be ' : '';
      const kept = policy === undefined ? '' : `${counted(result.keep.length, 'snapshot', 'snapshots')} kept, ${result.removed.length} ${would}removed; `;
      console.log(
        `prune: ${kept}${counted(result.leftovers.length, 'unfinished snapshot', 'unfinished snapshots')} no crawl can resume ${would}removed; ` +
          `${counted(result.objectsRemoved, 'object', 'objects')} (${formatBytes(result.bytesRemoved)}) ${would}freed${spared}`,
      );
      return exitCodes.ok;
    } catch (error) {
      if (!(error instanceof PruneError) && !(error instanceof ArchiveLockedError)) throw error;
      throw new CommandFailure(error.message);
    }
  },
};
