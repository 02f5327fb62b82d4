import { formatBytes } from '../archive/listing.ts';
import { pack, PackError } from '../archive/pack.ts';
import { type Command, UsageError, exitCodes, parseCommandLine } from './command.ts';

const help = `Usage: tmsnap pack [ID…] --out FILE [options]

Writes the given finished snapshots (all of them without IDs), with every object they need
and nothing else, to a .tar.gz that \`tmsnap unpack\` adds to another content folder.
Packing the same snapshots twice gives the same bytes.

Options:
  --out FILE      the archive to write, e.g. archive.tar.gz (required)
  --content DIR   content folder holding the snapshots (default: content)
  -h, --help      this help`;

export const command: Command = {
  summary: 'write snapshots and the objects they need to a .tar.gz',
  help,
  async run(args) {
    const { values, positionals } = parseCommandLine(args, { out: { type: 'string' }, content: { type: 'string', default: 'content' } }, true);
    if (values.out === undefined) throw new UsageError('--out FILE is required (e.g. --out archive.tar.gz)');
    try {
      const result = await pack(values.content, positionals, values.out);
      console.log(`pack: ${result.snapshots.length} snapshots, ${result.objects} objects → ${values.out} (${formatBytes(result.bytes)})`);
      return exitCodes.ok;
    } catch (error) {
      if (!(error instanceof PackError)) throw error;
      console.error(`tmsnap pack: ${error.message}`);
      return exitCodes.failed;
    }
  },
};
