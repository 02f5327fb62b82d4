import { allTime, creditsJson, creditsMarkdown, lastMonths, readCredits, sinceOf, type Period } from '../archive/credits.ts';
import { readTags, TagError } from '../archive/tags.ts';
import { redactEmails } from '../site-model/privacy.ts';
import { publishedSnapshot } from '../site-model/published-snapshot.ts';
import { listSnapshots, openSnapshot } from '../snapshot/index.ts';
import { type Command, CommandFailure, UsageError, exitCodes, parseArchiveCommandLine } from './command.ts';
import { snapshotIdsOf } from './snapshot-names.ts';

const help = `Usage: tmsnap credits [options]

Who did the translation work, per project and language, counted from a snapshot's change log
(every change crawled so far): writing, uploading, suggesting, reviewing strings; automatic
translation and bulk edits are not counted. For release notes: Markdown, a heading per project
and a line per language, contributors with the most changes first; or JSON with the counts.
Only what an anonymous visitor of the server sees: a keyed crawl's private projects are left
out, contributors are named by their full name, else their username, and e-mail addresses
never appear.

Options:
  --format FORMAT  md or json (default: md)
  --since WHEN     only work from then on: a release tag (tmsnap tag), a snapshot id (the
                   crawl's start) or a UTC date YYYY-MM-DD (default: all time)
  --months N       only the N months before the snapshot's crawl (e.g. 12); not with --since
  --snapshot ID    the snapshot whose change log is read, or a release tag (default: the
                   newest complete one)
  --content DIR    the archive folder (default: content, or TMSNAP_CONTENT)
  -h, --help       this help`;

export const command: Command = {
  summary: 'contributors per project and language, as Markdown or JSON',
  help,
  async run(args) {
    const { values } = parseArchiveCommandLine(
      args,
      { format: { type: 'string', default: 'md' }, since: { type: 'string' }, months: { type: 'string' }, snapshot: { type: 'string' } },
      {
        check: ({ values: given }) => {
          if (given.format !== 'md' && given.format !== 'json') throw new UsageError(`--format "${given.format}": expected md or json`);
          if (given.months !== undefined && !/^[1-9]\d{0,3}$/.test(given.months))
            throw new UsageError(`--months expects a whole number from 1 up, got "${given.months}"`);
          if (given.months !== undefined && given.since !== undefined) throw new UsageError('give --since or --months, not both');
        },
      },
    );
    const content = values.content;
    try {
      const tags = await readTags(content);
      const summaries = await listSnapshots(content);
      const [id] = values.snapshot === undefined ? [] : snapshotIdsOf(tags, [values.snapshot], content);
      if (id !== undefined && !summaries.some((summary) => summary.id === id && summary.finished)) {
        throw new CommandFailure(`no finished snapshot or tag "${values.snapshot}" in ${content}: \`tmsnap snapshots\` and \`tmsnap tag\` list them`);
      }
      const snapshot = await openSnapshot(content, id);
      let period: Period = allTime;
      if (values.months !== undefined) period = lastMonths(new Date(snapshot.manifest.started), Number(values.months));
      if (values.since !== undefined) {
        const since = sinceOf(values.since, tags, summaries);
        if (typeof since === 'string') throw new UsageError(since);
        period = { since };
      }
      // The site's own public view: no private project, no address (docs/decisions/2026-11-26-levels-drift-credits.md).
      const published = await publishedSnapshot(snapshot, { publish: [], hideAuthors: false });
      const credits = await readCredits(published, period, redactEmails);
      process.stdout.write(values.format === 'json' ? creditsJson(credits, period) : creditsMarkdown(credits));
      // Empty Markdown says nothing at all: one line on stderr, so that stdout stays the notes (issue 35).
      if (credits.length === 0) {
        const when = values.since !== undefined ? ` since ${values.since}` : values.months !== undefined ? ` in the ${values.months} months before it` : '';
        console.error(`tmsnap credits: no translation work${when} in the change log of snapshot ${snapshot.id}: no one wrote, suggested or reviewed a string`);
      }
      return exitCodes.ok;
    } catch (error) {
      if (error instanceof TagError) throw new CommandFailure(error.message);
      throw error;
    }
  },
};
