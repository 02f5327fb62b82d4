import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A fresh clone's `npm install` leaves the tree clean (issue 24): the lock file already holds
 * everything npm would write into it, the optional packages of every platform included (it
 * lacked 386 lines of them, so every clone started with a modified package-lock.json). npm
 * computes the lock again from package.json and the lock alone, without installing, once as
 * this machine is configured and once writing registry URLs into the lock as npm does by default.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const execute = promisify(execFile);

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'tmsnap-lock-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('package-lock.json', () => {
  for (const [name, flags] of [
    ['as configured', []],
    ['with registry URLs', ['--omit-lockfile-registry-resolved=false']],
  ] as const) {
    it(`is what npm install writes (${name})`, async () => {
      const folder = await mkdtemp(join(scratch, 'clone-'));
      // The workspace's own package.json too: without it npm takes the reference server for a
      // package of its own and marks it `dev` in the lock.
      for (const file of ['package.json', 'package-lock.json', 'packages/reference-server/package.json']) {
        await mkdir(dirname(join(folder, file)), { recursive: true });
        await copyFile(join(root, file), join(folder, file));
      }
      await execute('npm', ['install', '--package-lock-only', '--prefer-offline', '--no-audit', '--no-fund', ...flags], {
        cwd: folder,
        maxBuffer: 16 * 1024 * 1024,
      });
      expect(await readFile(join(folder, 'package-lock.json'), 'utf8')).toBe(await readFile(join(root, 'package-lock.json'), 'utf8'));
    }, 120_000);
  }

  it('names this package at the version package.json gives', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    const lock = JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8')) as { version: string; packages: Record<string, { version?: string }> };
    expect(lock.version).toBe(pkg.version);
    expect(lock.packages['']?.version).toBe(pkg.version);
  });
});

describe('the README’s install section', () => {
  it('installs from a clone or the packed tarball of this version while nothing is on npm', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Installing'), readme.indexOf('\n## ', readme.indexOf('## Installing') + 1));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    // One command a line, or several joined by `&&` (`npm install && npm pack`: pack compiles with the dev dependencies).
    const commands = block.split('\n').flatMap((line) =>
      line
        .replace(/\s+#.*$/, '')
        .split('&&')
        .map((command) => command.trim()),
    );
    expect(commands).toContain('npm pack');
    expect(commands).toContain(`npm install -g ./tmsnap-${pkg.version}.tgz`);
    // The registry's package is named only as what a release brings, never as a command to run now.
    expect(commands.filter((command) => /npm install -g tmsnap\b|npx tmsnap@/.test(command))).toEqual([]);
    expect(section).toContain('not on npm yet');
  });
});
