import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { change, page, project } from '../../api/index.ts';
import { get } from './get.ts';

const bin = fileURLToPath(new URL('../../bin/tmsnap.js', import.meta.url));

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function tmsnap(args: string[]): { child: ChildProcess; output: { stdout: string; stderr: string }; done: Promise<Finished> } {
  const child = spawn(process.execPath, [bin, 'reference-server', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const done = once(child, 'exit').then(([code]) => ({ code: code as number | null, ...output }));
  return { child, output, done };
}

/** The API root URL the command prints on its first line, once it is listening. */
async function printedUrl(output: { stdout: string }, done: Promise<Finished>): Promise<string> {
  let exited = false;
  void done.then(() => (exited = true));
  while (!output.stdout.includes('\n')) {
    if (exited) throw new Error(`the server exited before printing its URL: ${(await done).stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return output.stdout.split('\n')[0]!;
}

describe('tmsnap reference-server', () => {
  it('serves a synthetic dataset with the flags given, prints its URL, and stops cleanly on Ctrl-C', async () => {
    const { child, output, done } = tmsnap(['--data', 'synthetic:projects=2,components=2,languages=2,units=60,seed=3', '--changes-newest-first', '--activity']);
    try {
      const url = await printedUrl(output, done);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
      expect(page(project).parse((await get(`${url}projects/`)).json).count).toBe(2);
      const ids = page(change)
        .parse((await get(`${url}changes/`)).json)
        .results.map((row) => row.id);
      expect(ids.length).toBeGreaterThan(1);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      const activity = await get(`${new URL(url).origin}/_activity/translate`, { method: 'POST', body: '{"unit":1,"target":["x"],"user":"x"}' });
      expect(activity.status).toBe(409);
      expect((activity.json as { detail: string }).detail).toMatch(/--data bundled/);
    } finally {
      child.kill('SIGINT');
    }
    const finished = await done;
    expect(finished.code).toBe(0);
  });

  it.each([
    [['--data', 'bogus'], /--data "bogus" is not a dataset; use bundled, or synthetic:/],
    [['--data', 'synthetic:projects=zero'], /--data synthetic:projects=zero: .*projects/],
    [['--port', '99999'], /--port "99999" is not a port number/],
    [['--faults', 'seed=1,explode=0.5'], /--faults: unknown key "explode"/],
    [['--faults', 'error=2'], /--faults: "error" is a fraction/],
    [['--rate-limit', 'anonymous=many'], /--rate-limit: "anonymous" needs a non-negative number/],
    [['--page-link-origin', 'not a url'], /--page-link-origin: "not a url" is not a URL/],
    [['--shiny'], /unknown option --shiny/],
  ])('refuses %j with exit code 2 and says why', async (args, message) => {
    const finished = await tmsnap(args).done;
    expect(finished.code).toBe(2);
    expect(finished.stderr).toMatch(message);
    expect(finished.stderr).toContain('tmsnap reference-server --help');
  });

  it('documents every flag in --help', async () => {
    const finished = await tmsnap(['--help']).done;
    expect(finished.code).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--data',
      '--changes-newest-first',
      '--browsable-api',
      '--path-prefix',
      '--page-link-origin',
      '--token',
      '--rate-limit',
      '--faults',
      '--legacy-pagination',
      '--structured-errors',
      '--activity',
    ]) {
      expect(finished.stdout).toContain(flag);
    }
  });
});
