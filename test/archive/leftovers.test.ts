/**
 * Issue 24, "Leftovers": a crawl that dies leaves `snapshots/<id>.partial/`. The next crawl of
 * the same server and scope resumes it, whatever crawls of other scopes ran meanwhile, and
 * `tmsnap prune` removes the unfinished snapshots no crawl can resume, named with the reason
 * (docs/snapshot-format.md, "Leftovers"). Real crawls of the reference server, real folders.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { crawlComplete, crawlReferenceServer } from '../helpers/crawl.ts';
import { holdArchiveLock } from '../helpers/lock-holder.ts';
import { startTestServer, type ReferenceServer } from '../helpers/reference-server.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';

const token = 'leftovers-test';
const contentFolder = useContentFolders('tmsnap-leftovers-');
let server: ReferenceServer;

beforeAll(async () => {
  server = await startTestServer({ behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
});

afterAll(async () => {
  await server?.close();
});

const partialDir = (content: string, id: string) => join(content, 'snapshots', `${id}.partial`);

/** A crawl of `secret` that dies after a few requests, leaving its unfinished snapshot with what they brought. */
async function diedCrawl(content: string): Promise<string> {
  const died = await crawlReferenceServer(server, content, { token, projects: ['secret'], maxRequests: 4 });
  expect(died.outcome).toBe('failed');
  expect(existsSync(partialDir(content, died.snapshotId))).toBe(true);
  return died.snapshotId;
}

/** Unfinished snapshots no crawl can resume, as a crash, an older tmsnap or a damaged disk leave them. */
async function plantLeftovers(content: string, resumableId: string): Promise<Record<string, string>> {
  const state = JSON.parse(await readFile(join(partialDir(content, resumableId), 'state.json'), 'utf8')) as Record<string, unknown>;
  const leftovers = {
    '2026-01-01T000000Z': 'it has no state.json',
    '2026-01-02T000000Z': 'its state.json is not JSON',
    '2026-01-03T000000Z': 'its state.json is of format 1',
    '2026-01-04T000000Z': `a newer unfinished snapshot of ${String(state.base_url)} with the same scope`,
  };
  for (const id of Object.keys(leftovers)) await mkdir(partialDir(content, id), { recursive: true });
  await writeFile(join(partialDir(content, '2026-01-02T000000Z'), 'state.json'), '{"format": 4, "id": ');
  await writeFile(join(partialDir(content, '2026-01-03T000000Z'), 'state.json'), JSON.stringify({ ...state, format: 1, id: '2026-01-03T000000Z' }));
  await writeFile(join(partialDir(content, '2026-01-04T000000Z'), 'state.json'), JSON.stringify({ ...state, id: '2026-01-04T000000Z' }));
  return leftovers;
}

describe('an unfinished snapshot', () => {
  it('is resumed by the next crawl of its server and scope, and a crawl of another scope passes it and any leftover by', async () => {
    const content = await contentFolder();
    const died = await diedCrawl(content);
    await plantLeftovers(content, died);
    const whole = await crawlComplete(server, content, { token });
    expect(whole.snapshotId).not.toBe(died);
    expect(existsSync(partialDir(content, died))).toBe(true);
    const resumed = await crawlComplete(server, content, { token, projects: ['secret'] });
    expect(resumed.snapshotId).toBe(died);
    expect(existsSync(join(content, 'snapshots', died, 'manifest.json'))).toBe(true);
  });

  it('that no crawl can resume is listed and removed by prune, with the reason; a resumable one stays', async () => {
    const content = await contentFolder();
    await crawlComplete(server, content, { token });
    const resumable = await diedCrawl(content);
    const leftovers = await plantLeftovers(content, resumable);
    const newestFirst = Object.keys(leftovers).reverse();

    const listed = JSON.parse((await tmsnap(['snapshots', '--content', content, '--json'])).stdout) as { id: string; state: string; leftover: boolean }[];
    expect(listed.filter((row) => row.leftover).map((row) => row.id)).toEqual(newestFirst);
    expect(listed.find((row) => row.id === resumable)).toMatchObject({ state: 'in progress', leftover: false });

    const dryRun = await tmsnap(['prune', '--leftovers', '--dry-run', '--content', content]);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    for (const [id, reason] of Object.entries(leftovers)) {
      expect(dryRun.stdout).toContain(`would remove unfinished snapshot ${id}: no crawl can resume it, ${reason}`);
      expect(existsSync(partialDir(content, id))).toBe(true);
    }

    // Never while another writer (a crawl) holds the archive.
    const holder = await holdArchiveLock(content);
    try {
      const locked = await tmsnap(['prune', '--leftovers', '--content', content]);
      expect(locked.code).toBe(1);
      expect(locked.stderr).toContain('is held by `tmsnap crawl`');
      for (const id of Object.keys(leftovers)) expect(existsSync(partialDir(content, id))).toBe(true);
    } finally {
      await holder.stop();
    }

    const pruned = await tmsnap(['prune', '--leftovers', '--content', content, '--json']);
    expect(pruned.code, pruned.stderr).toBe(0);
    const report = JSON.parse(pruned.stdout) as { removed: string[]; leftovers: { id: string; reason: string }[] };
    expect(report.removed).toEqual([]);
    expect(report.leftovers.map(({ id }) => id)).toEqual(newestFirst);
    for (const { id, reason } of report.leftovers) expect(reason).toContain(leftovers[id as keyof typeof leftovers]);
    for (const id of Object.keys(leftovers)) expect(existsSync(partialDir(content, id))).toBe(false);
    expect(existsSync(partialDir(content, resumable))).toBe(true);
    expect((await tmsnap(['verify', '--content', content])).code).toBe(0);
    expect((await crawlComplete(server, content, { token, projects: ['secret'] })).snapshotId).toBe(resumable);
  });

  it('that stored nothing (its crawl killed before the first answer) is a leftover too', async () => {
    const content = await contentFolder();
    const died = await diedCrawl(content);
    // What a crawl killed between creating its snapshot and storing the root leaves: its state, no journal.
    const empty = '2026-01-05T000000Z';
    const state = JSON.parse(await readFile(join(partialDir(content, died), 'state.json'), 'utf8')) as Record<string, unknown>;
    await mkdir(join(partialDir(content, empty), 'changes'), { recursive: true });
    await writeFile(join(partialDir(content, empty), 'state.json'), JSON.stringify({ ...state, id: empty, scope: {} }));
    const pruned = await tmsnap(['prune', '--leftovers', '--content', content]);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`removing unfinished snapshot ${empty}: no crawl can resume it, it stored nothing`);
    expect(existsSync(partialDir(content, empty))).toBe(false);
    expect(existsSync(partialDir(content, died))).toBe(true);
  });

  it('goes with a retention policy too, and prune without a policy or --leftovers still asks what to keep', async () => {
    const content = await contentFolder();
    await crawlComplete(server, content, { token });
    const resumable = await diedCrawl(content);
    const leftovers = await plantLeftovers(content, resumable);
    const pruned = await tmsnap(['prune', '--keep-daily', '1', '--content', content]);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`${Object.keys(leftovers).length} unfinished snapshots no crawl can resume removed`);
    for (const id of Object.keys(leftovers)) expect(existsSync(partialDir(content, id))).toBe(false);
    const bare = await tmsnap(['prune', '--content', content]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('say what to keep');
  });
});
