import { type Command, CommandFailure } from './command.ts';

/** The workspace package the npm package leaves out (docs/decisions/2026-11-27-reference-server-package.md). */
export const referenceServerPackage = '@tmsnap/reference-server';

/** True for the error of importing a module that imports the reference server where it is not installed. */
export function isReferenceServerAbsent(error: unknown): boolean {
  const { code, message } = error as NodeJS.ErrnoException;
  return code === 'ERR_MODULE_NOT_FOUND' && String(message).includes(`'${referenceServerPackage}`);
}

/**
 * The command module `load` gives, or, where the reference server and its demo data are not
 * installed (tmsnap from npm), a command that says in one line where to run it instead.
 */
export async function needingReferenceServer(name: string, summary: string, load: () => Promise<{ command: Command }>): Promise<{ command: Command }> {
  try {
    return await load();
  } catch (error) {
    if (!isReferenceServerAbsent(error)) throw error;
    const line = `the reference server and its demo data (${referenceServerPackage}) are not installed with tmsnap: in a clone of https://github.com/tmsnap/tmsnap run \`npm install\`, then \`node bin/tmsnap.js ${name}\``;
    return {
      command: {
        summary,
        help: `tmsnap ${name}: ${line}`,
        run: () => Promise.reject(new CommandFailure(line)),
      },
    };
  }
}
