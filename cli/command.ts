import { type ParseArgsConfig, parseArgs } from 'node:util';

/** Exit codes every subcommand uses (issue 3): scripts key on them. */
export const exitCodes = {
  ok: 0,
  failed: 1,
  usage: 2,
  completeWithProblems: 3,
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
 * `util.parseArgs` in strict mode, its complaints (unknown flag, missing value) turned into
 * a `UsageError` so every command answers bad flags the same way: message, hint, exit 2.
 */
export function parseCommandLine<const Options extends NonNullable<ParseArgsConfig['options']>, const Positionals extends boolean = false>(
  args: string[],
  options: Options,
  allowPositionals?: Positionals,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: (allowPositionals ?? false) as Positionals });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
