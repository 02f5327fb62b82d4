import { PackError, unpack } from '../archive/pack.ts';
import { type Command, UsageError, exitCodes, parseCommandLine } from './command.ts';

const help = `Usage: tmsnap unpack FILE [options]

Adds the snapshots of a \`tmsnap pack\` archive to the content folder. The archive is
checked before anything becomes visible: only the paths a pack holds, only plain files,
every object against its hash, every snapshot's references. Snapshots already present are
left as they are.

Options:
  --content DIR   content folder to add the snapshots to (default: content)
  -h, --help      this help`;

export const command: Command = {
  summary: 'add the snapshots of a pack archive to the content folder',
  help,
  async run(args) {
    const { values, positionals } = parseCommandLine(args, { content: { type: 'string', default: 'content' } }, true);
    const [file, ...extra] = positionals;
    if (file === undefined || extra.length > 0) throw new UsageError('give exactly one archive file, e.g. tmsnap unpack archive.tar.gz');
    try {
      const result = await unpack(values.content, file);
      for (const id of result.added) console.log(`added snapshot ${id}`);
      for (const id of result.present) console.log(`snapshot ${id} already here`);
      console.log(`unpack: ${result.added.length} snapshots added, ${result.present.length} already here, ${result.objectsAdded} new objects`);
      return exitCodes.ok;
    } catch (error) {
      if (!(error instanceof PackError)) throw error;
      console.error(`tmsnap unpack: ${error.message}`);
      return exitCodes.failed;
    }
  },
};
