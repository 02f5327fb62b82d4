import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * A real Weblate server on a free loopback port, for `npm run test:weblate`
 * (test/weblate/README.md): installed by `setup.sh` into `.cache/`, its database a fresh copy of
 * the migrated template in the running PostgreSQL, its cache and throttle counters in a Redis
 * database of its own, Celery tasks run in the request (eager).
 */

const here = fileURLToPath(new URL('.', import.meta.url));
const execute = promisify(execFile);

/** Redis database of the tier's cache and throttle counters; each server keys its own under `tmsnap-PORT`. */
const redisDatabase = 7;

export interface Throttle {
  /** Django REST framework rates, e.g. `100/day`: Weblate's defaults unless a scenario asks. */
  anonymous: string;
  user: string;
}

export interface RealWeblate {
  /** The API root, `http://127.0.0.1:PORT/api/`. */
  url: string;
  version: string;
  venv: string;
  /** Runs `weblate shell -c CODE` against this server's database; returns what it printed. */
  shell(code: string): Promise<string>;
  /** Its keys in Redis start with this and a colon. */
  cachePrefix: string;
  /** What `weblate shell` needs to reach this server's database and data, for test processes. */
  shellEnv: Record<string, string>;
  /** The last 20 kB the server printed (its tracebacks). */
  log(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The releases the tier runs (test/weblate/README.md): the newest that installs here, and the
 * older one tmsnap supports; `newest` is the canary, whatever PyPI has today.
 */
export const weblateReleases = ['2026.10.1', '5.14.3'] as const;
export type WeblateRelease = (typeof weblateReleases)[number] | 'newest';

/** Installs (or finds) a Weblate release; the venv's folder. Set-up progress goes to stderr. */
export async function setUpWeblate(release: WeblateRelease): Promise<string> {
  const { stdout } = await execute('bash', [join(here, 'setup.sh'), release], { maxBuffer: 16 << 20 }).catch((error: { stderr?: string; message: string }) => {
    throw new Error(`test/weblate/setup.sh failed: ${error.stderr?.trim().split('\n').slice(-5).join(' | ') ?? error.message}`);
  });
  return stdout.trim().split('\n').at(-1)!;
}

function psql(database: string, sql: string) {
  return execute('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', database, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql]);
}

async function waitForApi(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`weblate runserver exited ${child.exitCode}: ${log().slice(-2000)}`);
    try {
      const response = await fetch(url, { headers: { Accept: 'application/json' } });
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`weblate runserver did not answer ${url} within 120 s: ${log().slice(-2000)}`);
}

export async function startRealWeblate(release: WeblateRelease, options: { throttle?: Partial<Throttle> } = {}): Promise<RealWeblate> {
  const venv = await setUpWeblate(release);
  const { stdout: version } = await execute(join(venv, 'bin/python'), ['-c', 'import importlib.metadata as m; print(m.version("weblate"))']);
  const template = `tmsnap_weblate_${version.trim().replaceAll('.', '_')}_template`;
  const port = await freePort();
  const database = `tmsnap_weblate_run_${port}`;
  await psql('postgres', `drop database if exists ${database}`);
  await psql('postgres', `create database ${database} template ${template}`);
  const cachePrefix = `tmsnap-${port}`;
  await deleteKeys(`${cachePrefix}:*`);
  const data = await mkdtemp(join(tmpdir(), 'tmsnap-weblate-'));
  await cp(join(venv, '..', 'data-template'), data, { recursive: true });
  const env = {
    ...process.env,
    TMSNAP_WEBLATE_DATA: data,
    TMSNAP_WEBLATE_DB: database,
    TMSNAP_WEBLATE_DB_HOST: '127.0.0.1',
    TMSNAP_WEBLATE_DOMAIN: `127.0.0.1:${port}`,
    TMSNAP_WEBLATE_REDIS: `redis://127.0.0.1:6379/${redisDatabase}`,
    TMSNAP_WEBLATE_CACHE_PREFIX: cachePrefix,
    TMSNAP_WEBLATE_ANON_THROTTLE: options.throttle?.anonymous ?? '100/day',
    TMSNAP_WEBLATE_USER_THROTTLE: options.throttle?.user ?? '5000/hour',
    PYTHONPATH: here,
    DJANGO_SETTINGS_MODULE: 'settings',
    PYTHONUNBUFFERED: '1',
  };
  const child = spawn(join(venv, 'bin/weblate'), ['runserver', `127.0.0.1:${port}`, '--noreload'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}/api/`;
  await waitForApi(url, child, () => output);
  return {
    url,
    version: version.trim(),
    venv,
    log: () => output,
    cachePrefix,
    shellEnv: Object.fromEntries(
      Object.entries(env).filter(([name]) => name.startsWith('TMSNAP_WEBLATE_') || name === 'PYTHONPATH' || name === 'DJANGO_SETTINGS_MODULE'),
    ) as Record<string, string>,
    shell: (code) => weblateShell(venv, env, code),
    async close() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      await psql('postgres', `drop database if exists ${database}`).catch(() => undefined);
      await rm(data, { recursive: true, force: true });
    },
  };
}

/** Forgets every API throttle count of the server, so a scenario starts with its whole budget. */
export function resetThrottle(cachePrefix: string): Promise<void> {
  return deleteKeys(`${cachePrefix}:*throttle*`);
}

/** Runs `weblate shell -c CODE` with a server's environment; what it printed. */
export async function weblateShell(venv: string, env: Record<string, string | undefined>, code: string): Promise<string> {
  const { stdout } = await execute(join(venv, 'bin/weblate'), ['shell', '-c', code], { env: { ...process.env, ...env }, maxBuffer: 16 << 20 });
  return stdout;
}

async function deleteKeys(pattern: string): Promise<void> {
  const redis = ['-h', '127.0.0.1', '-n', String(redisDatabase)];
  const { stdout } = await execute('redis-cli', [...redis, '--scan', '--pattern', pattern]);
  const keys = stdout.split('\n').filter(Boolean);
  if (keys.length > 0) await execute('redis-cli', [...redis, 'del', ...keys]);
}
