import { stringifyJson } from '../api/index.ts';
import { chooseSnapshots, CompareError, compareSnapshots } from '../archive/compare.ts';
import { formatDiff } from '../archive/report.ts';
import { openSnapshot } from '../snapshot/index.ts';
import { type Command, CommandFailure, UsageError, closest, exitCodes, parseArchiveCommandLine } from './command.ts';

const help = `Usage: tmsnap diff [A [B]] [options]

What changed from snapshot A to snapshot B: per translation, the strings added, removed,
newly translated, changed, marked for editing and approved, with before/after text; and
the statistics deltas per project, component and language. Without A and B: the two newest
complete snapshots of one server and scope holding the --project projects (an archive may
hold whole-instance and --project crawls, or several servers); with A alone: A against the
newest complete snapshot of its server and scope. When the archive holds more than one
server or scope, or A and B are not of one, a line on stderr says which were compared.

Options:
  --project SLUG  only this project (repeatable)
  --lang CODE     only this language (repeatable)
  --content DIR   the archive folder (default: content, or TMSNAP_CONTENT)
  --json          the diff as JSON, for scripts
  -h, --help      this help`;

/** The language codes of the translations of the snapshots `ids`, read off their paths (api/translations/<project>/<component>/<language>/). */
async function translationLanguages(content: string, ids: readonly string[]): Promise<Set<string>> {
  const codes = new Set<string>();
  for (const id of ids) {
    for (const path of (await openSnapshot(content, id)).paths().keys()) {
      const parts = path.split('/');
      if (parts[1] === 'translations' && parts.length === 6 && parts[5] === '') codes.add(decodeURIComponent(parts[4]!));
    }
  }
  return codes;
}

/**
 * Why `--lang` names nothing the snapshots hold, as the one line `search` gives (search/filters.ts),
 * with the code meant when one is close; undefined when every code is known (issue 35).
 */
export function unknownLanguage(asked: readonly string[], known: ReadonlySet<string>, where: string): string | undefined {
  const missing = asked.find((code) => !known.has(code));
  if (missing === undefined) return undefined;
  const codes = [...known].sort();
  const meant = closest(missing, codes);
  return `no language "${missing}" in ${where} (known: ${codes.slice(0, 20).join(', ')}${codes.length > 20 ? ', …' : ''})${meant ? `: did you mean --lang ${meant}?` : ''}`;
}

export const command: Command = {
  summary: 'what changed between two snapshots, string by string',
  help,
  async run(args) {
    const { values, positionals } = parseArchiveCommandLine(
      args,
      { project: { type: 'string', multiple: true, default: [] }, lang: { type: 'string', multiple: true, default: [] } },
      {
        positionals: true,
        check: ({ positionals }) => {
          if (positionals.length > 2) throw new UsageError(`expected at most two snapshot ids, got ${positionals.length}`);
        },
      },
    );
    try {
      const { from, to, note } = await chooseSnapshots(values.content, positionals[0], positionals[1], values.project);
      if (note !== undefined) console.error(`tmsnap diff: ${note}`);
      const unknown = unknownLanguage(values.lang, await translationLanguages(values.content, [from, to]), `snapshot ${from} or ${to}`);
      if (unknown !== undefined) throw new UsageError(unknown);
      const diff = await compareSnapshots(values.content, from, to, { projects: values.project, languages: values.lang });
      console.log(values.json ? stringifyJson(diff, 2) : formatDiff(diff));
      return exitCodes.ok;
    } catch (error) {
      if (error instanceof CompareError) throw new CommandFailure(error.message);
      throw error;
    }
  },
};
