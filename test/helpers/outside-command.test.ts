/**
 * The helper for what a test needs from outside npm (outside-command.ts): found on PATH or by its
 * path; missing, the file's tests are skipped with one line naming the install command, and under
 * CI=true the file fails. Shown on wlc.test.ts, run by vitest with a PATH that holds only node.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { findCommand } from './outside-command.ts';
import { useTempFolders } from './temp.ts';

const repo = resolve(import.meta.dirname, '../..');
const tempFolder = useTempFolders('tmsnap-outside-command-');

/** A folder for PATH holding only `node`: no wlc, chromium or gettext, whatever the machine has. */
async function onlyNode(): Promise<string> {
  const bin = join(await tempFolder(), 'bin');
  await mkdir(bin);
  await symlink(process.execPath, join(bin, 'node'));
  return bin;
}

/** Runs vitest on one test file as `npm test` would, with the given PATH and CI; its output and exit code. */
async function vitest(file: string, path: string, ci: string): Promise<{ code: number; output: string }> {
  const env = { ...process.env, PATH: path, CI: ci, NO_COLOR: '1', FORCE_COLOR: '0' };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', file], { cwd: repo, env });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('findCommand', () => {
  it('finds an executable on PATH, in PATH order, and not a file that cannot run', async () => {
    const [first, second] = [await tempFolder(), await tempFolder()];
    await writeFile(join(first, 'tool'), 'not executable');
    await writeFile(join(second, 'tool'), '#!/bin/sh\n');
    await chmod(join(second, 'tool'), 0o755);
    expect(findCommand('tool', [first, second].join(':'))).toBe(join(second, 'tool'));
    await chmod(join(first, 'tool'), 0o755);
    expect(findCommand('tool', [first, second].join(':'))).toBe(join(first, 'tool'));
    expect(findCommand('tool', '')).toBeUndefined();
  });

  it('takes a path as itself, whatever PATH says', async () => {
    expect(findCommand(process.execPath, '')).toBe(process.execPath);
    expect(findCommand(join(await tempFolder(), 'chromium'), process.env.PATH)).toBeUndefined();
  });
});

describe('a test file needing wlc on a machine without it', () => {
  it('skips its tests and says so in one line naming the command that installs it', async () => {
    const { code, output } = await vitest('test/reference-server/wlc.test.ts', await onlyNode(), 'false');
    expect(code, output).toBe(0);
    const lines = output.split('\n').filter((line) => line.includes('apt-get install -y wlc'));
    expect(lines).toEqual(['test/reference-server/wlc.test.ts: wlc is missing, so its tests are skipped; install it with: apt-get install -y wlc']);
    expect(output).toMatch(/Tests\s+5 skipped \(5\)/);
  });

  it('fails under CI=true, naming the command', async () => {
    const { code, output } = await vitest('test/reference-server/wlc.test.ts', await onlyNode(), 'true');
    expect(code, output).toBe(1);
    expect(output).toContain('test/reference-server/wlc.test.ts: wlc is missing, and under CI=true that fails: apt-get install -y wlc');
    expect(output).toMatch(/Test Files\s+1 failed \(1\)/);
  });
});
