import { once } from 'node:events';
import { stringifyJson } from '../api/index.ts';
import { exportRecords, openSnapshot } from '../snapshot/index.ts';
import { type Command, CommandFailure, contentOption, exitCodes, parseCommandLine, requireArchive, UsageError } from './command.ts';
import { snapshotId } from './snapshot-names.ts';

const help = `tmsnap export: print a snapshot's records as the server served them

Usage: tmsnap export [--content DIR] [--snapshot ID] [--format ndjson]

Every record is re-expanded to the server's own shape (absolute URLs on the recorded base,
format=api restored, embedded objects restored) and printed as one JSON object per line:
{"url": …, "kind": …, "record": {…}}. Units come one per line, raw files base64-encoded.

Options:
  --content DIR    the archive folder (default: content, or TMSNAP_CONTENT)
  --snapshot ID    the snapshot to export, or a release tag (default: the newest complete one)
  --format ndjson  the output format (the default, and so far the only one)`;

export const command: Command = {
  summary: 'print every record of a snapshot, re-expanded, as NDJSON',
  help,
  async run(args) {
    const { values } = parseCommandLine(args, { content: contentOption(), snapshot: { type: 'string' }, format: { type: 'string', default: 'ndjson' } });
    if (values.format !== 'ndjson') throw new UsageError(`unknown --format "${values.format}": the only format is ndjson`);
    requireArchive(values.content);
    const snapshot = await openSnapshot(values.content, await snapshotId(values.content, values.snapshot)).catch((error: unknown) => {
      throw new CommandFailure((error as Error).message);
    });
    const out = process.stdout;
    let closed = false;
    // A reader that stops early (`| head`) is not an error.
    out.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') closed = true;
      else throw error;
    });
    for await (const line of exportRecords(snapshot)) {
      if (closed) break;
      if (!out.write(`${stringifyJson(line)}\n`)) await Promise.race([once(out, 'drain'), once(out, 'close')]);
    }
    return exitCodes.ok;
  },
};
