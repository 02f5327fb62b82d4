import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const lockModule = fileURLToPath(new URL('../../snapshot/lock.ts', import.meta.url));

export interface LockHolderProcess {
  pid: number;
  /** Releases the lock and waits for the process to exit; answers its exit code. */
  stop(): Promise<number | null>;
}

/** Another process that takes an archive's lock as `tmsnap <command>` would, and holds it until stopped. */
export function holdArchiveLock(contentDir: string, command = 'crawl'): Promise<LockHolderProcess> {
  const script = `
    const { lockArchive } = await import(${JSON.stringify(lockModule)});
    const lock = await lockArchive(${JSON.stringify(contentDir)}, { command: ${JSON.stringify(command)}, create: true });
    process.stdout.write('locked\\n');
    process.stdin.resume();
    process.stdin.on('end', async () => { await lock.release(); process.exit(0); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code} before locking`)));
    child.stdout.once('data', () =>
      resolve({
        pid: child.pid!,
        stop: () =>
          new Promise((done) => {
            child.removeAllListeners('exit');
            child.once('exit', (code) => done(code));
            child.stdin.end();
          }),
      }),
    );
  });
}
