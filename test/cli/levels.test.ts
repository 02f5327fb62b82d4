/**
 * Issue 26: `tmsnap build --levels` names release levels. A bad value is bad usage: the
 * parser's one line (archive/levels.ts), exit 2, before anything is read or written; the
 * settings file's `levels` is checked the same way, and the flag wins over it.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseLevels } from '../../archive/levels.ts';
import { parseBuildArgs } from '../../cli/build.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { useTempFolders } from '../helpers/temp.ts';

const tempFolder = useTempFolders('tmsnap-cli-levels-', 'all');
let work: string;

beforeAll(async () => {
  work = await tempFolder();
  await mkdir(join(work, 'content'));
});

describe('tmsnap build --levels', () => {
  it('documents the flag and its grammar in --help', async () => {
    const result = await tmsnap(['build', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--levels LIST');
    expect(result.stdout).toContain('[strings:|words:]NAME=PERCENT');
  });

  it('fails a bad value with the parser’s one line and exit 2, writing nothing', async () => {
    for (const bad of ['ship=95,beta=abc', 'chars:ship=95', 'ship=95,ship=90', '']) {
      const out = join(work, 'never');
      const result = await tmsnap(['build', '--content', join(work, 'content'), '--out', out, '--levels', bad]);
      expect(result.code, bad).toBe(2);
      expect(result.stderr.split('\n')[0], bad).toBe(`tmsnap build: ${parseLevels(bad) as string}`);
      expect(await readdir(out).catch(() => 'absent'), bad).toBe('absent');
    }
  });

  it('fails a bad `levels` in the settings file the same way', async () => {
    const folder = join(work, 'settings');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'tmsnap.config.json'), JSON.stringify({ levels: 'ship=101' }));
    const result = await tmsnap(['build', '--content', join(work, 'content'), '--out', join(folder, 'site')], { cwd: folder });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe("tmsnap build: --levels: 'ship=101' is not NAME=PERCENT (a number from 0 to 100)");
  });

  it('passes the parsed levels to the build, the flag over the settings file, none when neither names them', async () => {
    const config = join(work, 'levels.json');
    await writeFile(config, JSON.stringify({ levels: 'words:done=100' }));
    const base = ['--content', join(work, 'content'), '--out', join(work, 'site'), '--config', config];
    expect((await parseBuildArgs(base)).levels).toEqual({ measure: 'words', levels: [{ name: 'done', percent: 100 }] });
    expect((await parseBuildArgs([...base, '--levels', 'alpha=80,ship=95'])).levels).toEqual({
      measure: 'strings',
      levels: [
        { name: 'ship', percent: 95 },
        { name: 'alpha', percent: 80 },
      ],
    });
    await writeFile(join(work, 'empty.json'), '{}');
    expect('levels' in (await parseBuildArgs(['--content', join(work, 'content'), '--out', join(work, 'site'), '--config', join(work, 'empty.json')]))).toBe(
      false,
    );
  });
});
