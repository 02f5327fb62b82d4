import { counted } from './count.ts';
import { formatBytes } from '../archive/listing.ts';
import { pack, PackError } from '../archive/pack.ts';
import { type Command, UsageError, exitCodes, parseArchiveCommandLine } from './command.ts';
import { guardOutput } from './output-guard.ts';
import { archiveTags, snapshotIdsOf } from './snapshot-names.ts';

const help = `Usage: tmsnap pack [ID…] --out FILE [options]

Writes the given finished snapshots (ids or release tags; all of them without IDs), with every
object they need and nothing else, to a .tar.gz that \`tmsnap unpack\` adds to another content
folder. The release tags (\`tmsnap tag\`) pinning those snapshots go with them. Packing the
same snapshots twice gives the same bytes.

With --since ID, only what the snapshots after ID add: their manifests, the objects ID does
not need and the tags pinning them or ID, so an archive can be shipped a day at a time. The
receiving folder must hold snapshot ID already (unpack says so if not).

Options:
  --out FILE      the archive to write, e.g. archive.tar.gz, or - for stdout (required); never
                  inside the content folder, and an existing file only if it is a pack
  --force         replace an existing file that is not a pack
  --since ID      pack only what the later snapshots add to snapshot ID (or a release tag)
  --content DIR   content folder holding the snapshots (default: content, or TMSNAP_CONTENT)
  --json          the summary as JSON (on stderr when --out is -)
  -h, --help      this help`;

export const command: Command = {
  summary: 'write snapshots and the objects they need to a .tar.gz',
  help,
  async run(args) {
    const { values, positionals } = parseArchiveCommandLine(
      args,
      { out: { type: 'string' }, since: { type: 'string' }, force: { type: 'boolean', default: false } },
      {
        positionals: true,
        check: ({ values }) => {
          if (values.out === undefined) throw new UsageError('--out FILE is required (e.g. --out archive.tar.gz, or --out - for stdout)');
        },
      },
    );
    const out = values.out!; // refused above when missing
    const toStdout = out === '-';
    const tags = positionals.length > 0 || values.since !== undefined ? await archiveTags(values.content) : [];
    const ids = snapshotIdsOf(tags, positionals, values.content);
    const [since] = values.since === undefined ? [] : snapshotIdsOf(tags, [values.since], values.content);
    if (!toStdout) await guardOutput(out, { kind: 'file', flag: '--out', force: values.force, archive: values.content });
    // With the pack on stdout, the summary goes to stderr: stdout holds only the archive.
    const say = (text: string) => (toStdout ? console.error(text) : console.log(text));
    try {
      const result = await pack(values.content, ids, toStdout ? process.stdout : out, { since });
      if (values.json) say(JSON.stringify({ out, since: since ?? null, ...result }, null, 2));
      else
        say(
          `pack: ${counted(result.snapshots.length, 'snapshot', 'snapshots')}${values.since ? ` since ${values.since}` : ''}, ${counted(result.objects, 'object', 'objects')}` +
            `${result.tags.length > 0 ? `, tags ${result.tags.map((tag) => tag.name).join(' ')}` : ''} → ${toStdout ? 'stdout' : out} (${formatBytes(result.bytes)})`,
        );
      return exitCodes.ok;
    } catch (error) {
      if (!(error instanceof PackError)) throw error;
      console.error(`tmsnap pack: ${error.message}`);
      return exitCodes.failed;
    }
  },
};
