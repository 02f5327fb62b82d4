import { stringifyJson } from '../api/index.ts';
import { describeScope } from '../archive/listing.ts';
import { chooseSearchSnapshot } from '../archive/series.ts';
import { listSnapshots, openSnapshot, type Snapshot } from '../snapshot/index.ts';
import { publishedSnapshot, sharedProjects } from '../site-model/published-snapshot.ts';
import { searchScopes, type SearchScope } from '../search/query.ts';
import { FilterError, listsStrings, searchSnapshot, type SnapshotResult } from '../search-index/snapshot-search.ts';
import { type Command, CommandFailure, UsageError, archiveOptions, exitCodes, parseCommandLine, requireArchive } from './command.ts';
import { snapshotId } from './snapshot-names.ts';

const help = `Usage: tmsnap search <text> [options]
       tmsnap search --state STATE|--has WHAT|--project SLUG|--component SLUG [options]

Searches the source and target strings of one snapshot with the same rules as the site's
search page: case and accents folded (cafe finds Café), word prefixes and small typos match,
Japanese and Chinese match by any run of characters, and results whose whole text or exact
phrase matches come first. Without a text, lists the strings the filters select, in the
snapshot's order (e.g. --lang pl --state needs-editing). States are shown in the site's words.

Options:
  --lang CODE         only this language (repeat the flag for several)
  --project SLUG      only this project (repeatable)
  --component SLUG    only this component: PROJECT/COMPONENT, or COMPONENT within --project (repeatable)
  --state STATE       only units in this state: a number (20), Weblate's name for it or the
                      site's word (untranslated or empty, needs-editing, needs-rewriting,
                      needs-checking, translated, approved, read-only; case, spaces and
                      dashes aside) (repeatable; what the "needs editing" figure counts is
                      needs-editing, needs-rewriting and needs-checking together)
  --has WHAT          only units that have it: check (a failing check) or suggestion (repeatable)
  --private-projects  search the projects the site leaves out too (those only the server's key
                      sees); a --project asked for by name is searched either way
  --in WHERE          both (default), source or target
  --limit N           print at most N results (default 20; 0 prints all)
  --snapshot ID       the snapshot to search, or a release tag (default: the newest
                      complete one holding the projects asked for; when the archive
                      holds more than one server or scope, a line on stderr names the
                      one searched)
  --content DIR       the archive folder (default: content, or TMSNAP_CONTENT)
  --json              print {query, snapshot, scope, total, results: [...]} as JSON instead of a table;
                      each result has the unit's id, id_hash, position, site_path (its
                      permalink on the built site) and web_url (its page on the server)
  -h, --help          this help`;

interface SearchArgs {
  text: string;
  scope: SearchScope;
  languages: string[];
  projects: string[];
  components: string[];
  states: string[];
  has: string[];
  limit: number;
  snapshot: string | undefined;
  content: string;
  json: boolean;
  privateProjects: boolean;
}

export function parseSearchArgs(args: string[]): SearchArgs {
  const { values, positionals } = parseCommandLine(
    args,
    {
      lang: { type: 'string', multiple: true, default: [] },
      project: { type: 'string', multiple: true, default: [] },
      component: { type: 'string', multiple: true, default: [] },
      state: { type: 'string', multiple: true, default: [] },
      has: { type: 'string', multiple: true, default: [] },
      in: { type: 'string', default: 'both' },
      limit: { type: 'string', default: '20' },
      snapshot: { type: 'string' },
      'private-projects': { type: 'boolean', default: false },
      ...archiveOptions(),
    },
    true,
  );
  const text = positionals.join(' ');
  const filters = { states: values.state, has: values.has, projects: values.project, components: values.component };
  if (text.trim() === '' && !listsStrings(filters))
    throw new UsageError('give the text to search for, e.g. tmsnap search "save as" --lang pl, or what to list, e.g. --lang pl --state needs-editing');
  if (!(searchScopes as readonly string[]).includes(values.in)) throw new UsageError(`--in "${values.in}" is not one of ${searchScopes.join(', ')}`);
  if (!/^\d+$/.test(values.limit)) throw new UsageError(`--limit "${values.limit}" is not a whole number (0 prints every result)`);
  return {
    text,
    scope: values.in as SearchScope,
    languages: values.lang,
    projects: values.project,
    components: values.component,
    states: values.state,
    has: values.has,
    limit: Number(values.limit),
    snapshot: values.snapshot,
    content: values.content,
    json: values.json,
    privateProjects: values['private-projects'],
  };
}

/** The projects a search is limited to: `--project`, and the project of each `--component PROJECT/COMPONENT`. */
function askedProjects(options: Pick<SearchArgs, 'projects' | 'components'>): string[] {
  const fromComponents = options.components.filter((component) => component.includes('/')).map((component) => component.slice(0, component.indexOf('/')));
  return [...new Set([...options.projects, ...fromComponents])];
}

/**
 * What a search reads: the site's view of the snapshot (only what an anonymous visitor of the
 * server sees, site-model/published-snapshot.ts), as `tmsnap diff` counts; the whole snapshot with
 * --private-projects or when a private project is asked for by name, said in `note`.
 */
async function searchedView(snapshot: Snapshot, asked: readonly string[], all: boolean): Promise<{ view: Snapshot; note?: string; left?: string }> {
  const view = await publishedSnapshot(snapshot, { publish: [], hideAuthors: false });
  const { hidden } = await sharedProjects([view]);
  if (hidden.length === 0) return { view };
  const named = hidden.filter((slug) => asked.includes(slug));
  if (all || named.length > 0) {
    const searched = all ? hidden : named;
    const them = searched.length === 1 ? 'it' : 'them';
    return {
      view: snapshot,
      note: `searching ${plural(searched, 'private project')} ${searched.join(', ')}, which the site leaves out (only the server's key sees ${them})`,
    };
  }
  return {
    view,
    left: `${plural(hidden, 'private project')} left out, as on the site: --private-projects searches ${hidden.length === 1 ? 'it' : 'them'} too`,
  };
}

const plural = (items: readonly unknown[], word: string) => (items.length === 1 ? word : `${items.length} ${word}s`);

/** Server text may hold terminal control sequences: show them, never let the terminal run them. */
function printable(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]/gu, (character) => (character === '\n' ? '↵' : `\\u{${character.codePointAt(0)!.toString(16)}}`));
}

function cell(text: string, width: number): string {
  const characters = [...printable(text)];
  return characters.length > width ? `${characters.slice(0, width - 1).join('')}…` : characters.join('');
}

export function formatTable(
  results: readonly Pick<SnapshotResult, 'language' | 'project' | 'component' | 'state' | 'state_name' | 'source' | 'target' | 'web_url'>[],
  total: number,
): string {
  const rows = results.map((result) => [
    result.language,
    `${result.project}/${result.component}`,
    result.state_name,
    cell(result.source.join(' | '), 40),
    cell(result.target.join(' | '), 40),
  ]);
  const header = ['LANG', 'COMPONENT', 'STATE', 'SOURCE', 'TARGET'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => [...row[column]!].length)));
  const line = (row: string[]) =>
    row.map((value, column) => (column === row.length - 1 ? value : value + ' '.repeat(widths[column]! - [...value].length))).join('  ');
  const shown = results.length < total ? `${results.length} of ${total} results (--limit 0 shows all)` : `${total} result${total === 1 ? '' : 's'}`;
  return [...(rows.length > 0 ? [line(header), ...rows.map(line)] : []), shown].join('\n');
}

export const command: Command = {
  summary: 'search a snapshot’s strings from the terminal',
  help,
  async run(args) {
    const options = parseSearchArgs(args);
    requireArchive(options.content);
    // An archive may hold one-project and whole-instance crawls: take one that holds what is asked for.
    const named = await snapshotId(options.content, options.snapshot);
    const chosen = named === undefined ? chooseSearchSnapshot(await listSnapshots(options.content), askedProjects(options)) : undefined;
    if (chosen?.note !== undefined) console.error(`tmsnap search: ${chosen.note}`);
    const snapshot = await openSnapshot(options.content, named ?? chosen?.id).catch((error: unknown) => {
      throw new CommandFailure((error as Error).message);
    });
    const searched = await searchedView(snapshot, askedProjects(options), options.privateProjects);
    if (searched.note !== undefined) console.error(`tmsnap search: ${searched.note}`);
    const progress = process.stderr.isTTY ? (message: string) => process.stderr.write(`\r\x1b[K${message}`) : undefined;
    let results: SnapshotResult[];
    try {
      results = await searchSnapshot(searched.view, {
        text: options.text,
        scope: options.scope,
        filters: { languages: options.languages, projects: options.projects, components: options.components, states: options.states, has: options.has },
        ...(progress ? { onProgress: progress } : {}),
      });
    } catch (error) {
      if (error instanceof FilterError) throw new UsageError(error.message);
      throw error;
    } finally {
      if (progress) process.stderr.write('\r\x1b[K');
    }
    const shown = options.limit === 0 ? results : results.slice(0, options.limit);
    // stringifyJson: id_hash is a 64-bit integer, written whole (JSON.stringify refuses a bigint).
    if (options.json)
      console.log(
        stringifyJson({ query: options.text, snapshot: snapshot.id, scope: describeScope(snapshot.manifest.scope), total: results.length, results: shown }, 2),
      );
    else console.log(formatTable(shown, results.length));
    // As the site, silently; said only where it may be why nothing was found.
    if (results.length === 0 && searched.left !== undefined) console.error(`tmsnap search: ${searched.left}`);
    return exitCodes.ok;
  },
};
