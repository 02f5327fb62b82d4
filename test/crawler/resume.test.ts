import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../packages/reference-server/data/random.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { listSnapshots, openSnapshot } from '../../snapshot/index.ts';
import { useReferenceServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';

const bin = new URL('../../bin/tmsnap.js', import.meta.url).pathname;
const contentFolder = useTempFolders('tmsnap-resume-', 'all');

// A 4.15 server (20 per page, page_size ignored) turns the small fixture into many requests,
// so there are many points to be killed at. Eleven crawls: a token at raised limits.
const token = 'wlu_resume';
const server = useReferenceServer({ profile: 'weblate-4.15', behaviours: { tokens: [token], rateLimit: raisedRateLimit } });

/** Lines in the unfinished snapshot's crawl journal (0 when there is none). */
async function journalLines(content: string): Promise<number> {
  const snapshots = join(content, 'snapshots');
  for (const name of await readdir(snapshots).catch(() => [] as string[])) {
    if (!name.endsWith('.partial')) continue;
    const text = await readFile(join(snapshots, name, 'crawl-journal.ndjson'), 'utf8').catch(() => '');
    return text.split('\n').length - 1;
  }
  return 0;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The most journal lines seen while it ran. */
  lines: number;
}

/** Runs `tmsnap crawl` as a real child process; SIGKILLs it once its journal reaches `killAt` lines. */
async function runCrawl(content: string, killAt = Number.POSITIVE_INFINITY): Promise<Run> {
  const child: ChildProcess = spawn(process.execPath, [bin, 'crawl', '--url', server().url, '--content', content, '--concurrency', '3'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, WEBLATE_TOKEN: token },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  let lines = 0;
  void exited.then(() => {
    done = true;
  });
  while (!done) {
    lines = Math.max(lines, await journalLines(content));
    if (lines >= killAt) {
      child.kill('SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const { code, signal } = await exited;
  if (signal === null && code !== 0) throw new Error(`tmsnap crawl exited ${code}: ${stderr}`);
  return { code, signal, lines };
}

async function finishedIndex(content: string): Promise<{ index: string; counts: Record<string, number> }> {
  const summaries = await listSnapshots(content);
  expect(summaries.filter((summary) => summary.finished)).toHaveLength(1);
  const snapshot = await openSnapshot(content);
  return { index: snapshot.manifest.index, counts: snapshot.manifest.counts };
}

describe('a crawl killed with SIGKILL and run again', () => {
  it('gives the same snapshot bytes as an uninterrupted crawl, whatever the kill points', async () => {
    const clean = await contentFolder();
    const before = server().requests;
    const uninterrupted = await runCrawl(clean);
    const cleanRequests = server().requests - before;
    expect(uninterrupted.code).toBe(0);
    const expected = await finishedIndex(clean);
    const journalLength = Math.max(uninterrupted.lines, 20);

    for (const seed of [1, 2, 3, 4]) {
      const random = seededRandom(seed).next;
      const content = await contentFolder();
      const start = server().requests;
      let kills = 0;
      // Two kills per seed at random points of the journal still to come, then a run to the end.
      for (let attempt = 0; attempt < 2; attempt++) {
        const killAt = (await journalLines(content)) + 1 + Math.floor(random() * (journalLength / 2));
        const run = await runCrawl(content, killAt);
        if (run.signal === 'SIGKILL') {
          kills++;
          // Nothing half-written looks finished.
          expect((await listSnapshots(content)).filter((summary) => summary.finished)).toEqual([]);
        }
      }
      const last = await runCrawl(content);
      expect(last.code, `seed ${seed}`).toBe(0);
      expect(kills, `seed ${seed}: the crawl was never killed mid-way`).toBeGreaterThan(0);
      expect(await finishedIndex(content), `seed ${seed}`).toEqual(expected);
      // It continued where it stopped: the killed runs' partial snapshot was resumed, not left
      // behind, and only the requests in flight at a kill (3 at a time) were made again.
      expect(await listSnapshots(content)).toHaveLength(1);
      expect(server().requests - start, `seed ${seed}`).toBeLessThanOrEqual(cleanRequests + kills * 3);
    }
  }, 300_000);
});
