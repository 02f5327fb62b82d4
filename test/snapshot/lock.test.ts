import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdArchiveLock } from '../helpers/lock-holder.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { ArchiveLockedError, lockArchive, lockFileName, withArchiveLock } from '../../snapshot/index.ts';

const archive = useTempFolders('tmsnap-lock-');

describe('lockArchive', () => {
  it('lets one writer in; a second, in another process, is refused naming the holder, and gets in once it is released', async () => {
    const dir = await archive();
    const child = await holdArchiveLock(dir);
    const error = await lockArchive(dir, { command: 'prune' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ArchiveLockedError);
    expect((error as Error).message).toContain(`tmsnap crawl\` (pid ${child.pid} on ${hostname()}`);
    expect(await child.stop()).toBe(0);
    const lock = await lockArchive(dir, { command: 'prune' });
    expect(JSON.parse(await readFile(join(dir, lockFileName), 'utf8'))).toMatchObject({ pid: process.pid, command: 'prune' });
    await lock.release();
    await expect(readFile(join(dir, lockFileName))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a second writer in the same process too', async () => {
    const dir = await archive();
    await withArchiveLock(dir, { command: 'crawl' }, async () => {
      await expect(lockArchive(dir, { command: 'unpack' })).rejects.toBeInstanceOf(ArchiveLockedError);
    });
    // Released by withArchiveLock, even though the inner attempt failed.
    await (await lockArchive(dir, { command: 'unpack' })).release();
  });

  it('takes over a lock whose process is gone on this host, with a warning', async () => {
    const dir = await archive();
    await writeFile(join(dir, lockFileName), JSON.stringify({ pid: 424242, host: hostname(), started: '2026-01-01T00:00:00Z', command: 'crawl' }));
    const warnings: string[] = [];
    const lock = await lockArchive(dir, { command: 'prune', isAlive: () => false, onWarning: (message) => warnings.push(message) });
    expect(warnings).toEqual([expect.stringContaining('pid 424242')]);
    expect(lock.holder.pid).toBe(process.pid);
    await lock.release();
  });

  it('never guesses a lock on another host stale, nor one it cannot read', async () => {
    const dir = await archive();
    await writeFile(join(dir, lockFileName), JSON.stringify({ pid: 1, host: 'elsewhere.example', started: '2026-01-01T00:00:00Z', command: 'crawl' }));
    await expect(lockArchive(dir, { command: 'prune', isAlive: () => false })).rejects.toThrow(/elsewhere\.example.*remove the file/);
    await writeFile(join(dir, lockFileName), 'garbage');
    await expect(lockArchive(dir, { command: 'prune', isAlive: () => false })).rejects.toThrow(/does not say who holds it/);
  });

  it('does not release a lock that another writer has taken since', async () => {
    const dir = await archive();
    const lock = await lockArchive(dir, { command: 'crawl' });
    const other = JSON.stringify({ pid: 7, host: 'elsewhere.example', started: '2026-01-01T00:00:00Z', command: 'prune' });
    await writeFile(join(dir, lockFileName), other);
    await lock.release();
    expect(await readFile(join(dir, lockFileName), 'utf8')).toBe(other);
  });

  it('creates nothing for a missing archive unless asked to', async () => {
    const dir = join(await archive(), 'missing');
    await expect(lockArchive(dir, { command: 'prune' })).rejects.toThrow(/ENOENT/);
    await expect(readFile(dir)).rejects.toThrow(/ENOENT/);
    await (await lockArchive(dir, { command: 'crawl', create: true })).release();
  });
});
