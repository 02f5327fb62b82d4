import { counted } from './count.ts';
import { formatBytes } from '../archive/listing.ts';
import { type VerifyReport, verifyStore, VerifyError } from '../archive/verify.ts';
import { type Command, CommandFailure, exitCodes, parseArchiveCommandLine, printJson } from './command.ts';
import { snapshotIds } from './snapshot-names.ts';

const help = `Usage: tmsnap verify [ID…] [options]

Checks every object in the content folder against the sha256 its name promises, and every
reference of every snapshot manifest (and of every crawl in progress) to an object that
exists and is intact. Prints each problem with the file it concerns, which snapshots are still
whole and how to repair the damaged ones, and how many raw records
(records that did not fit their schema, kept as they came) each snapshot holds; exits 1 on any
corruption or when the folder holds no archive, 0 when all is well (raw records are not
corruption). With IDs (snapshot ids or release tags, e.g. tmsnap verify v2.0), only those
snapshots and the objects they need.

Options:
  --content DIR   the archive folder (default: content, or TMSNAP_CONTENT)
  --json          the report as JSON, for scripts
  -h, --help      this help`;

/**
 * What to do about the damage found (issue 35): which snapshots are still whole, and how to get
 * the damaged ones back. An object unpack finds present is left as it is, so a damaged one goes first.
 */
export function nextSteps(report: Pick<VerifyReport, 'whole' | 'damaged'>, content: string): string[] {
  const list = (ids: readonly string[]) => ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, and ${ids.length - 5} more` : '');
  const whole = report.whole.length === 0 ? 'no snapshot is whole' : `whole: ${list(report.whole)}`;
  if (report.damaged.length === 0) {
    return [`verify: ${whole}; the damaged objects are needed by no snapshot: \`tmsnap prune --leftovers --content ${content}\` removes them`];
  }
  return [
    `verify: damaged: ${list(report.damaged)}; ${whole}`,
    `verify: to repair, delete the damaged files under objects/ named CORRUPT above, then \`tmsnap unpack\` a pack holding the damaged snapshots (made with \`tmsnap pack\` where they are whole), or take a new whole snapshot with \`tmsnap crawl --full\``,
  ];
}

export const command: Command = {
  summary: 'check every object against its hash and every manifest reference',
  help,
  async run(args) {
    const { values, positionals } = parseArchiveCommandLine(args, {}, { positionals: true });
    const only = positionals.length === 0 ? undefined : await snapshotIds(values.content, positionals);
    const report = await verifyStore(
      values.content,
      ({ checked, total }) => {
        if (!values.json && total >= 5000) console.error(`verify: ${checked}/${total} objects checked`);
      },
      only,
    ).catch((error: unknown) => {
      throw error instanceof VerifyError ? new CommandFailure(error.message) : error;
    });
    if (values.json) {
      printJson(report);
    } else {
      for (const stray of report.strays) console.error(`note: ${stray} is not an object (a leftover temporary file?); harmless`);
      for (const problem of report.problems) console.error(`CORRUPT ${problem.file}: ${problem.reason}`);
      for (const { snapshot, records } of report.raw) {
        console.log(
          `note: snapshot ${snapshot} holds ${records} raw record(s): they did not fit their schema and are kept as they came (see the problems in its manifest)`,
        );
      }
      const summary = `${counted(report.objects, 'object', 'objects')} (${formatBytes(report.bytes)}), ${counted(report.snapshots, 'snapshot', 'snapshots')}, ${counted(report.partials, 'crawl', 'crawls')} in progress`;
      console.log(report.problems.length === 0 ? `verify: OK: ${summary}` : `verify: ${counted(report.problems.length, 'problem', 'problems')} in ${summary}`);
      if (report.problems.length > 0) for (const line of nextSteps(report, values.content)) console.log(line);
    }
    return report.problems.length === 0 ? exitCodes.ok : exitCodes.failed;
  },
};
