import { counted } from './count.ts';
import { PackError, unpack } from '../archive/pack.ts';
import { access } from 'node:fs/promises';
import { ArchiveLockedError, withArchiveLock } from '../snapshot/index.ts';
import { type Command, UsageError, contentOption, exitCodes, parseCommandLine, printJson } from './command.ts';
import { guardOutput } from './output-guard.ts';

const help = `Usage: tmsnap unpack FILE [options]

Adds the snapshots of a \`tmsnap pack\` archive to the content folder; FILE - reads the
archive from stdin (\`tmsnap pack --out - … | ssh host tmsnap unpack -\`). The archive is
checked before anything becomes visible: only the paths a pack holds, only plain files,
every object against its hash, every snapshot's references (a pack made with --since needs
the snapshot it was made since to be here already). Snapshots already present are left as
they are. The pack's release tags are added to the folder's; a tag here is never moved or
removed: one of the same name pinning another snapshot refuses the whole pack, and so does a
tag pinning an incomplete snapshot (as \`tmsnap tag\` refuses it). It holds the
archive's lock: while a crawl, prune, migrate or another unpack writes the same content
folder, it exits 1 naming that writer.

Options:
  --content DIR   content folder to add the snapshots to (default: content, or TMSNAP_CONTENT);
                  created if missing; refused when it holds other files and no archive
  --force         add the snapshots to such a folder all the same (never / or home)
  --json          the summary as JSON
  -h, --help      this help`;

export const command: Command = {
  summary: 'add the snapshots of a pack archive to the content folder',
  help,
  async run(args) {
    const { values, positionals } = parseCommandLine(
      args,
      { content: contentOption(), json: { type: 'boolean', default: false }, force: { type: 'boolean', default: false } },
      true,
    );
    const [file, ...extra] = positionals;
    if (file === undefined || extra.length > 0) throw new UsageError('give exactly one archive file (or - for stdin), e.g. tmsnap unpack archive.tar.gz');
    await guardOutput(values.content, { kind: 'archive', flag: '--content', force: values.force });
    try {
      // Checked first, so that a mistyped file name leaves no empty content folder behind.
      if (file !== '-') {
        await access(file).catch(() => {
          throw new PackError(`no pack file at ${file}: give the .tar.gz that tmsnap pack wrote`);
        });
      }
      const result = await withArchiveLock(
        values.content,
        { command: 'unpack', create: true, onWarning: (message) => console.error(`tmsnap unpack: warning: ${message}`) },
        () => unpack(values.content, file === '-' ? process.stdin : file),
      );
      if (values.json) {
        printJson(result);
        return exitCodes.ok;
      }
      for (const id of result.added) console.log(`added snapshot ${id}`);
      for (const id of result.present) console.log(`snapshot ${id} already here`);
      for (const tag of result.tags) console.log(`added tag ${tag.name} (snapshot ${tag.snapshot})`);
      console.log(
        `unpack: ${counted(result.added.length, 'snapshot', 'snapshots')} added, ${result.present.length} already here, ${counted(result.objectsAdded, 'new object', 'new objects')}`,
      );
      return exitCodes.ok;
    } catch (error) {
      if (!(error instanceof PackError) && !(error instanceof ArchiveLockedError)) throw error;
      console.error(`tmsnap unpack: ${error.message}`);
      return exitCodes.failed;
    }
  },
};
