import { type Command, CommandFailure, OutputRefused, UsageError, closest, exitCodes } from './command.ts';
import { defaultsInEffect } from './defaults.ts';
import { systemErrorLine, unexpectedErrorLine } from './errors.ts';
import { needingReferenceServer } from './reference-server-package.ts';
import { version } from './version.ts';

/** A command as `main` knows it: its summary, and its module, loaded only when the command is run or its help asked for. */
function lazy(summary: string, load: () => Promise<{ command: Command }>) {
  return { summary, load: async () => (await load()).command };
}

/** A command that runs the reference server, a package of its own that the npm package leaves out. */
function needing(name: string, summary: string, load: () => Promise<{ command: Command }>) {
  return lazy(summary, () => needingReferenceServer(name, summary, load));
}

/**
 * Each subcommand is loaded only when asked for, and its one-line summary is written here, so
 * `tmsnap --help` loads no command at all (start-up time: docs/decisions/2026-11-28-no-loader.md).
 * test/cli/main.test.ts checks that each summary matches the command's own.
 */
export const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  demo: needing('demo', 'reference server → crawl → build → preview, in one command', () => import('./demo.ts')),
  'reference-server': needing('reference-server', 'serve a read-only Weblate API over bundled or synthetic data', () => import('./reference-server.ts')),
  crawl: lazy('crawl a Weblate server into a dated snapshot (resumable)', () => import('./crawl.ts')),
  build: lazy('build the static status site from a snapshot', () => import('./build.ts')),
  preview: lazy('serve a built site folder on 127.0.0.1', () => import('./preview.ts')),
  export: lazy('print every record of a snapshot, re-expanded, as NDJSON', () => import('./export.ts')),
  dataset: lazy('write the archive as SQLite or Parquet tables, for DuckDB and Datasette', () => import('./dataset.ts')),
  snapshots: lazy('list the snapshots with date, scope, counts, size and state', () => import('./snapshots.ts')),
  prune: lazy('remove old snapshots and the objects nothing needs any more', () => import('./prune.ts')),
  verify: lazy('check every object against its hash and every manifest reference', () => import('./verify.ts')),
  pack: lazy('write snapshots and the objects they need to a .tar.gz', () => import('./pack.ts')),
  unpack: lazy('add the snapshots of a pack archive to the content folder', () => import('./unpack.ts')),
  migrate: lazy('rewrite an archive to the current snapshot format, in place', () => import('./migrate.ts')),
  search: lazy('search a snapshot’s strings from the terminal', () => import('./search.ts')),
  diff: lazy('what changed between two snapshots, string by string', () => import('./diff.ts')),
  credits: lazy('contributors per project and language, as Markdown or JSON', () => import('./credits.ts')),
  tag: lazy('pin a release to a snapshot, or list the release tags', () => import('./tag.ts')),
};

function overview(): string {
  const lines = [
    `tmsnap ${version}: a Weblate server as a static status site and an offline archive`,
    '',
    'Usage: tmsnap <command> [options]',
    '',
    'Commands:',
  ];
  for (const [name, { summary }] of Object.entries(commands)) lines.push(`  ${name.padEnd(18)} ${summary}`);
  lines.push(
    '',
    'Options: -h, --help (also `tmsnap help <command>`), -V, --version; --debug (any command) shows',
    '         the stack trace of an unexpected error instead of one line',
    'Exit codes, every command: 0 ok, 1 failed, 2 bad usage, 3 done with problems (listed);',
    '130 stopped by Ctrl-C (a crawl resumes when run again; a build leaves the old site whole).',
    'Run `tmsnap <command> --help` for its options and the defaults in effect.',
  );
  return lines.join('\n');
}

function unknownCommand(name: string): number {
  const guess = closest(name, Object.keys(commands));
  console.error(`tmsnap: unknown command "${name}"${guess ? `: did you mean \`tmsnap ${guess}\`?` : ''}\nCommands: ${Object.keys(commands).join(', ')}.`);
  return exitCodes.usage;
}

async function helpOf(name: string): Promise<string> {
  const { help } = await commands[name]!.load();
  return [help, ...defaultsInEffect(help)].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  // `--debug` belongs to no command: taken out here, wherever it stands.
  const debug = argv.includes('--debug');
  const [name, ...rest] = argv.filter((arg) => arg !== '--debug');
  if (name === undefined || name === '--help' || name === '-h') {
    console.log(overview());
    return name === undefined ? exitCodes.usage : exitCodes.ok;
  }
  if (name === 'help') {
    const [topic, ...extra] = rest;
    if (topic === undefined) {
      console.log(overview());
      return exitCodes.ok;
    }
    if (extra.length > 0) {
      console.error('tmsnap help: give one command, e.g. tmsnap help crawl');
      return exitCodes.usage;
    }
    if (!commands[topic]) return unknownCommand(topic);
    console.log(await helpOf(topic));
    return exitCodes.ok;
  }
  if (name === '--version' || name === '-V') {
    console.log(version);
    return exitCodes.ok;
  }
  if (!commands[name]) return unknownCommand(name);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(await helpOf(name));
    return exitCodes.ok;
  }
  const command = await commands[name].load();
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof OutputRefused) {
      // Says what to do itself: no help hint under it.
      console.error(`tmsnap ${name}: ${error.message}`);
      return exitCodes.usage;
    }
    if (error instanceof UsageError) {
      console.error(`tmsnap ${name}: ${error.message}\nRun \`tmsnap ${name} --help\` for the options.`);
      return exitCodes.usage;
    }
    if (error instanceof CommandFailure) {
      console.error(`tmsnap ${name}: ${error.message}`);
      return exitCodes.failed;
    }
    if (debug) throw error;
    console.error(`tmsnap ${name}: ${systemErrorLine(error) ?? unexpectedErrorLine(error)}`);
    return exitCodes.failed;
  }
}
