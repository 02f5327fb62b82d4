import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * Exit codes every subcommand uses (issue 3, issue 12): scripts and cron jobs key on them.
 * 0 ok; 1 failed (including a missing archive, snapshot or pack file); 2 bad usage (a flag or
 * argument the command cannot take); 3 done, with problems listed in the output.
 */
export const exitCodes = {
  ok: 0,
  failed: 1,
  usage: 2,
  completeWithProblems: 3,
  /** Stopped by Ctrl-C, as shells number SIGINT (128 + 2); the crawl is resumable. */
  interrupted: 130,
} as const;

export interface Command {
  /** One line for `tmsnap --help`. */
  summary: string;
  /** The full help text, flags included, printed by `tmsnap <command> --help`. */
  help: string;
  run(args: string[]): Promise<number>;
}

/** Bad command-line input: printed with the command's help hint and exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * An output refused (cli/output-guard.ts): bad usage (exit 2), told in the one line
 * `outputRefusal` wrote. Here, not there, so that `main` knows it without loading snapshot/.
 */
export class OutputRefused extends UsageError {
  override name = 'OutputRefused';
}

/**
 * The command could not do its job for a reason outside the command line: a folder, snapshot or
 * file that is not there. `main` prints the message as one line, `tmsnap <command>: …`, and
 * exits 1. The message names the path and says what to do.
 */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
}

/** Levenshtein distance, small strings only (flag and command names). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The known name closest to a mistyped one, if any is close enough to be what was meant. */
export function closest(typed: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = name.startsWith(typed) && typed.length >= 2 ? 0.5 : distance(typed, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return bestDistance <= (typed.replace(/^-+/, '').length < 4 ? 1 : 2) ? best : undefined;
}

/**
 * `util.parseArgs` in strict mode, its complaints (unknown flag, missing value) turned into
 * a `UsageError` so every command answers bad flags the same way: message, hint, exit 2. An
 * unknown flag close to a known one gets a "did you mean".
 */
export function parseCommandLine<const Options extends NonNullable<ParseArgsConfig['options']>, const Positionals extends boolean = false>(
  args: string[],
  options: Options,
  allowPositionals?: Positionals,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: (allowPositionals ?? false) as Positionals });
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /^Unknown option '(--?[^']+)'/.exec(message)?.[1];
    const known = Object.keys(options)
      .map((name) => `--${name}`)
      .concat('--help');
    const guess = unknown?.startsWith('--') ? closest(unknown, known) : undefined;
    if (unknown) throw new UsageError(`unknown option ${unknown}${guess ? `: did you mean ${guess}?` : ''}`);
    // Node's own wording, in the CLI's (issue 35): `--json=yes`, `--content` at the end of the line.
    const valued = /^Option '(--[\w-]+)' does not take an argument/.exec(message)?.[1];
    if (valued) throw new UsageError(`${valued} takes no value: give ${valued} alone to turn it on, or leave it out`);
    const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message)?.[1];
    if (missing) throw new UsageError(`${missing} needs a value after it`);
    const stray = /^Unexpected argument '(.*)'/s.exec(message)?.[1];
    throw new UsageError(stray === undefined ? message : strayArgument(args, stray));
  }
}

/**
 * The parser's "Unexpected argument" in the user's terms: after a flag's value it is most
 * likely the second word of that value (`--max-duration 5 hours`), which the shell split.
 */
export function strayArgument(args: readonly string[], stray: string): string {
  const at = args.indexOf(stray);
  const flag = at >= 2 && args[at - 2]!.startsWith('--') ? args[at - 2]! : undefined;
  if (flag === undefined) return `unexpected argument "${stray}": this command takes only options (--name value)`;
  return `unexpected "${stray}" after ${flag} ${args[at - 1]}: a value is one word; write it without spaces, or quote it`;
}

/** Where `--content` comes from when the flag is absent: `TMSNAP_CONTENT`, else `content`. */
export function contentDefault(env: NodeJS.ProcessEnv = process.env): { value: string; source: string } {
  const fromEnv = env.TMSNAP_CONTENT?.trim();
  return fromEnv ? { value: fromEnv, source: 'TMSNAP_CONTENT' } : { value: 'content', source: 'built-in default' };
}

/** The `--content` option every command declares: the archive folder, defaulting through the environment. */
export function contentOption() {
  return { type: 'string', default: contentDefault().value } as const;
}

/**
 * Refuses a content folder that holds no archive, before anything is read or created: a typo
 * in a cron line must not look like an empty archive (exit 1, one line naming the path).
 */
export function requireArchive(content: string): void {
  const snapshots = join(content, 'snapshots');
  if (!existsSync(content)) {
    throw new CommandFailure(`no archive at ${content} (the folder does not exist): give the folder a crawl wrote with --content, or set TMSNAP_CONTENT`);
  }
  if (!statSync(content).isDirectory()) throw new CommandFailure(`${content} is not a folder: give the archive folder a crawl wrote with --content`);
  if (!existsSync(snapshots) || readdirSync(snapshots).length === 0) {
    throw new CommandFailure(
      `no snapshots in ${content} (empty archive folder): run \`tmsnap crawl --content ${content}\` first, or give the right folder with --content`,
    );
  }
}

/** `--content` and `--json`: the options of every command that reads an archive and reports on it. */
export function archiveOptions() {
  return { content: contentOption(), json: { type: 'boolean', default: false } } as const;
}

type ArchiveCommandLine<Options extends NonNullable<ParseArgsConfig['options']>, Positionals extends boolean> = ReturnType<
  typeof parseCommandLine<Options & ReturnType<typeof archiveOptions>, Positionals>
>;

/**
 * The command line of a command that reads an existing archive: its own options plus
 * `--content` and `--json`, parsed; then `check`, the command's further usage rules, so that
 * bad usage is told as such (exit 2) even when the folder is wrong too; then the folder
 * refused if it holds no archive (`requireArchive`, exit 1), before anything is read.
 */
export function parseArchiveCommandLine<const Options extends NonNullable<ParseArgsConfig['options']> = {}, const Positionals extends boolean = false>(
  args: string[],
  options?: Options,
  { positionals, check }: { positionals?: Positionals; check?: (parsed: ArchiveCommandLine<Options, Positionals>) => void } = {},
): ArchiveCommandLine<Options, Positionals> {
  const parsed = parseCommandLine(args, { ...archiveOptions(), ...options } as Options & ReturnType<typeof archiveOptions>, positionals);
  check?.(parsed);
  requireArchive((parsed.values as { content: string }).content);
  return parsed;
}

/** Prints a command's report as JSON on stdout, the `--json` shape every reporting command uses. */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

/** `--port N`: a TCP port, 0 picking a free one. */
export function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port "${text}" is not a port number (0 to 65535)`);
  return port;
}
