import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listSnapshots, openSnapshot } from '../../snapshot/index.ts';
import { useContentFolders } from '../helpers/temp.ts';

const contentDir = useContentFolders('tmsnap-snapshot-');
const script = fileURLToPath(new URL('./write-instance.ts', import.meta.url));

/** Runs the writer child; with `killAfter`, SIGKILLs it once it has printed that many lines. */
function runWriter(content: string, killAfter?: number): Promise<{ lines: number; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, content], { stdio: ['ignore', 'pipe', 'inherit'] });
    let lines = 0;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      lines += text.split('\n').length - 1;
      if (killAfter !== undefined && lines >= killAfter) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ lines, killed: true });
      else if (code === 0) resolve({ lines, killed: false });
      else reject(new Error(`writer child exited with ${code}`));
    });
  });
}

async function manifestBytes(content: string): Promise<string> {
  const [summary] = await listSnapshots(content);
  return readFile(join(content, 'snapshots', summary!.id, 'manifest.json'), 'utf8');
}

describe('a writer killed at any point', () => {
  it('leaves no finished snapshot, and resuming gives the same bytes as a clean run', async () => {
    const clean = await contentDir();
    expect((await runWriter(clean)).killed).toBe(false);
    const expected = await manifestBytes(clean);
    const total = (await openSnapshot(clean)).manifest.counts;
    expect(total).toMatchObject({ unit: 600, change: 600, translation: 20 });

    // A small pseudo-random walk over kill points (fixed seeds: a failure names its seed).
    for (const seed of [1, 7, 42]) {
      const content = await contentDir();
      let killPoint = 5 + ((seed * 7919) % 40);
      let killed = 0;
      for (;;) {
        const run = await runWriter(content, killPoint + 1);
        if (!run.killed) break;
        killed++;
        const snapshots = await listSnapshots(content);
        expect(
          snapshots.every((summary) => !summary.finished),
          `seed ${seed}: finished after a kill`,
        ).toBe(true);
        await expect(openSnapshot(content)).rejects.toThrow(/no complete snapshot/);
        killPoint = 10 + ((killPoint * 31 + seed) % 50);
      }
      expect(killed, `seed ${seed}`).toBeGreaterThan(0);
      expect(await manifestBytes(content), `seed ${seed}`).toBe(expected);
      expect((await listSnapshots(content)).map((summary) => summary.finished)).toEqual([true]);
    }
  });
});
