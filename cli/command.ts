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
