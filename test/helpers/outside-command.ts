import { accessSync, constants } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { expect } from 'vitest';

/** Where `command` would run from: itself when it is a path, else the first executable of that name on `path`. */
export function findCommand(command: string, path = process.env.PATH ?? ''): string | undefined {
  const candidates = command.includes('/')
    ? [command]
    : path
        .split(delimiter)
        .filter(Boolean)
        .map((folder) => join(folder, command));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Commands already reported missing: a file's line is said once however often it asks (modules load per file). */
const reported = new Set<string>();

/**
 * What a test needs from outside npm (CONTRIBUTING, "Tests"): true when `command` is there. When
 * it is not, a developer's run skips the tests that need it (`describe.runIf`) and says so in one
 * line naming `install`; under CI, where .ci/run installs every such command, the file fails.
 * Call it at the top of a test file.
 */
export function hasCommand(command: string, install: string): boolean {
  if (findCommand(command) !== undefined) return true;
  const file = relative(process.cwd(), expect.getState().testPath ?? 'this file');
  if (process.env.CI === 'true') throw new Error(`${file}: ${command} is missing, and under CI=true that fails: ${install}`);
  if (reported.has(command)) return false;
  reported.add(command);
  // Straight to stderr: one line, not vitest's two-line console block.
  process.stderr.write(`${file}: ${command} is missing, so its tests are skipped; install it with: ${install}\n`);
  return false;
}
