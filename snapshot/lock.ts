/**
 * One writer at a time per archive. `crawl`, `prune`, `migrate` and `unpack` change a
 * `content/` folder; two of them at once could delete objects the other is about to
 * reference, or claim the same snapshot. Each takes `content/.lock`, created exclusively
 * (`wx`), holding who holds it. Readers (`build`, `search`, `diff`, `verify`) take no lock:
 * a snapshot becomes visible only by the rename that finishes it (docs/snapshot-format.md).
 *
 * A lock whose process is gone on this host (killed, machine rebooted) is taken over with a
 * warning; a lock held on another host (a shared network folder) is never guessed stale.
 */
import { readFileSync, rmSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { lockFileName } from './content.ts';

export { lockFileName };

const holder = z.object({
  pid: z.number().int(),
  host: z.string(),
  started: z.string(),
  command: z.string(),
});
export type LockHolder = z.infer<typeof holder>;

/** Another writer holds the archive: names it, and says what to do. */
export class ArchiveLockedError extends Error {
  override name = 'ArchiveLockedError';
  readonly lockPath: string;
  readonly holder: LockHolder | undefined;

  constructor(lockPath: string, holder: LockHolder | undefined) {
    super(
      holder
        ? `${lockPath} is held by \`tmsnap ${holder.command}\` (pid ${holder.pid} on ${holder.host}, since ${holder.started}): ` +
            `wait for it to finish${holder.host === hostname() ? '' : `, or remove the file if that process on ${holder.host} is gone`}`
        : `${lockPath} exists but does not say who holds it: if no other tmsnap is writing this archive, remove the file`,
    );
    this.lockPath = lockPath;
    this.holder = holder;
  }
}

export interface ArchiveLock {
  readonly path: string;
  readonly holder: LockHolder;
  /** Removes the lock if it is still ours; safe to call twice. */
  release(): Promise<void>;
}

export interface LockOptions {
  /** The subcommand taking the lock, shown to a second writer. */
  command: string;
  /** Told when a stale lock is taken over. */
  onWarning?: (message: string) => void;
  /** Create `contentDir` when missing (a first crawl); otherwise a missing folder is an error. */
  create?: boolean;
  /** Whether `pid` runs on this host; injectable for tests. */
  isAlive?: (pid: number) => boolean;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(text: string): LockHolder | undefined {
  try {
    const parsed = holder.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the archive's lock or throws `ArchiveLockedError` (ENOENT when `contentDir` is missing and not to be created). */
export async function lockArchive(contentDir: string, options: LockOptions): Promise<ArchiveLock> {
  const path = join(contentDir, lockFileName);
  const isAlive = options.isAlive ?? processIsAlive;
  const mine: LockHolder = { pid: process.pid, host: hostname(), started: new Date().toISOString(), command: options.command };
  const text = `${JSON.stringify(mine)}\n`;
  if (options.create) await mkdir(contentDir, { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      const file = await open(path, 'wx');
      try {
        await file.writeFile(text);
      } finally {
        await file.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const existing = readHolder(await readFile(path, 'utf8').catch(() => ''));
      const stale = existing !== undefined && existing.host === mine.host && existing.pid !== process.pid && !isAlive(existing.pid);
      if (!stale || attempt > 0) throw new ArchiveLockedError(path, existing);
      options.onWarning?.(`taking over ${path}: \`tmsnap ${existing.command}\` (pid ${existing.pid}, since ${existing.started}) is no longer running`);
      await rm(path, { force: true });
    }
  }
  // A process that exits without releasing (an uncaught error) leaves no lock behind.
  const onExit = () => releaseIfMine(path, text);
  process.once('exit', onExit);
  let released = false;
  return {
    path,
    holder: mine,
    async release() {
      if (released) return;
      released = true;
      process.off('exit', onExit);
      releaseIfMine(path, text);
    },
  };
}

/** Removes the lock only while it still holds exactly what we wrote: never another writer's. */
function releaseIfMine(path: string, text: string): void {
  try {
    if (readFileSync(path, 'utf8') === text) rmSync(path, { force: true });
  } catch {
    // Already gone.
  }
}

/** Runs `work` holding the archive's lock, released however `work` ends. */
export async function withArchiveLock<T>(contentDir: string, options: LockOptions, work: () => Promise<T>): Promise<T> {
  const lock = await lockArchive(contentDir, options);
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
