import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * On a Node older than `engines.node`, every command says in one line which Node it needs and
 * exits 2 (issue 39), before anything that Node could not parse or run is loaded. Run with a
 * real older Node: the machine's own (`/usr/bin/node` is Node 20 on the machines CI runs on).
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin', 'tmsnap.js');
const floor = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node.replace(/^>=/, '');

function below(version: string, wanted: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const [needMajor = 0, needMinor = 0] = wanted.split('.').map(Number);
  return major < needMajor || (major === needMajor && minor < needMinor);
}

/** A `node` on PATH or in /usr/bin older than the floor, with its version. */
function olderNode(): { path: string; version: string } | undefined {
  const candidates = [...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node')), '/usr/bin/node', '/usr/local/bin/node'];
  for (const path of new Set(candidates.filter((file) => existsSync(file)))) {
    const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
    if (below(version, floor)) return { path, version };
  }
  return undefined;
}

const older = olderNode();

describe.skipIf(older === undefined)(`bin/tmsnap.js on ${older?.version ?? 'an older Node (none on this machine)'}`, () => {
  for (const args of [
    ['--help'],
    ['--version'],
    ['crawl', '--url', 'http://127.0.0.1:9/api/'],
    ['build', '--content', 'nowhere'],
    ['demo'],
    ['no-such-command'],
  ]) {
    it(`tmsnap ${args.join(' ')}: one line naming Node ${floor}, exit 2`, async () => {
      const run = await promisify(execFile)(older!.path, [bin, ...args], { cwd: root }).then(
        () => ({ code: 0, stdout: '', stderr: '' }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`tmsnap needs Node ${floor} or newer (Node 24 LTS recommended); this is Node ${older!.version.replace(/^v/, '')}.\n`);
    });
  }
});
