import { stringifyJson } from '../api/index.ts';
import { chooseSnapshots, CompareError, compareSnapshots } from '../archive/compare.ts';
import { formatDiff } from '../archive/report.ts';
import { publishedSnapshot, sharedProjects } from '../site-model/published-snapshot.ts';
import { openSnapshot, ReadSession } from '../snapshot/index.ts';
import { type Command, CommandFailure, UsageError, closest, exitCodes, parseArchiveCommandLine } from './command.ts';
import { pinnedSnapshots } from '../archive/tags.ts';
import { archiveTags, snapshotIdsOf } from './snapshot-names.ts';

const help = `Usage: tmsnap diff [A [B]] [options]

What changed from snapshot A to snapshot B: per translation, the strings added, removed,
newly translated, changed, marked for editing and approved, with before/after text; and
the statistics deltas per project, component and language. Without A and B: the two newest
complete snapshots of one server and scope holding the --project projects (an archive may
hold whole-instance and --project crawls, or several servers); with A alone: A against the
newest complete snapshot of its server and scope. A and B are snapshot ids or release tags
(tmsnap tag). When the archive holds more than one server or scope, or A and B are not of
one, a line on stderr says which were compared.

Like the site, a diff leaves out the projects an anonymous visitor of the server cannot see
(a keyed crawl's private projects), so its figures are the what-changed page's; a line on
stderr says when it counts what the site leaves out.

Options:
  --project SLUG  only this project (repeatable); a private one is counted, and said so
  --private-projects
                  count the private projects too (what a site built with --publish
                  private-projects shows)
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
      {
        project: { type: 'string', multiple: true, default: [] },
        lang: { type: 'string', multiple: true, default: [] },
        'private-projects': { type: 'boolean', default: false },
      },
      {
        positionals: true,
        check: ({ positionals }) => {
          if (positionals.length > 2) throw new UsageError(`expected at most two snapshot ids, got ${positionals.length}`);
        },
      },
    );
    try {
      const tags = await archiveTags(values.content);
      const [fromId, toId] = snapshotIdsOf(tags, positionals, values.content);
      const { from, to, note } = await chooseSnapshots(values.content, fromId, toId, values.project);
      if (note !== undefined) console.error(`tmsnap diff: ${note}`);
      const unknown = unknownLanguage(values.lang, await translationLanguages(values.content, [from, to]), `snapshot ${from} or ${to}`);
      if (unknown !== undefined) throw new UsageError(unknown);
      const scope = await siteScope(values.content, [from, to], values.project, values['private-projects']);
      if (scope.note !== undefined) console.error(`tmsnap diff: ${scope.note}`);
      const diff = await compareSnapshots(values.content, from, to, { projects: scope.projects, languages: values.lang });
      console.log(values.json ? stringifyJson(diff, 2) : formatDiff(diff, pinnedSnapshots(tags)));
      return exitCodes.ok;
    } catch (error) {
      if (error instanceof CompareError) throw new CommandFailure(error.message);
      throw error;
    }
  },
};

/**
 * The projects a diff compares: the site's (site-model/published-snapshot.ts `sharedProjects`:
 * those an anonymous visitor sees in both snapshots), or every one with --private-projects; the
 * `--project` slugs asked for, private ones included. `note`: what it counts that the site leaves out.
 */
async function siteScope(content: string, ids: readonly string[], asked: readonly string[], all: boolean): Promise<{ projects: string[]; note?: string }> {
  const session = new ReadSession();
  const views = await Promise.all(ids.map(async (id) => publishedSnapshot(await openSnapshot(content, id, { session }), { publish: [], hideAuthors: false })));
  const { every, shown, hidden } = await sharedProjects(views);
  const counted = all ? hidden : hidden.filter((slug) => asked.includes(slug));
  const note =
    counted.length === 0
      ? undefined
      : `counting ${counted.length === 1 ? 'private project' : 'private projects'} ${counted.join(', ')}, which the site leaves out (only the server's key sees ${counted.length === 1 ? 'it' : 'them'})`;
  const withNote = (projects: string[]) => (note === undefined ? { projects } : { projects, note });
  if (all || every || asked.length > 0) return withNote([...asked]);
  // An empty list means every project to the archive: a slug no project can have stands for none.
  return withNote(shown.length > 0 ? shown : ['\u0000']);
}
