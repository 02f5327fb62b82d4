import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const bin = fileURLToPath(new URL('../../bin/tmsnap.js', import.meta.url));
const execute = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the `tmsnap` command line in a child process, as a user's shell would; never throws on a non-zero exit. */
export async function tmsnap(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await execute(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: { ...process.env, WEBLATE_TOKEN: '', ...options.env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
