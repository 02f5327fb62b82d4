import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemErrorLine, unexpectedErrorLine } from '../../cli/errors.ts';
import { defaultPort } from '../../cli/preview.ts';
import { throttleNote } from '../../cli/reference-server.ts';
import { anonymousHint } from '../../crawler/crawl.ts';
import { weblateRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { useTempFolders } from '../helpers/temp.ts';

/**
 * Issue 24, "Errors": what a user can get wrong ends in one line naming the port, path or URL
 * and saying what to do, never a Node stack trace unless `--debug` asks for it.
 */

const bin = resolve(import.meta.dirname, '../../bin/tmsnap.js');
const tempFolder = useTempFolders('tmsnap-errors-', 'all');
let scratch: string;
let busy: Server;
let busyPort: number;

beforeAll(async () => {
  scratch = await tempFolder();
  await mkdir(join(scratch, 'site'));
  await writeFile(join(scratch, 'site', 'index.html'), '<h1>a site</h1>');
  busy = createServer();
  await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((done) => busy.close(() => done())));

describe('a busy port', () => {
  it('preview: one line naming the port, exit 1', async () => {
    const result = await tmsnap(['preview', '--out', join(scratch, 'site'), '--port', String(busyPort)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `tmsnap preview: port ${busyPort} on 127.0.0.1 is in use (another server?): give another with --port, or --port 0 for a free one\n`,
    );
  });

  it('reference-server: the same line', async () => {
    const result = await tmsnap(['reference-server', '--port', String(busyPort), '--data', 'synthetic:projects=1,components=1,languages=2,units=5']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `tmsnap reference-server: port ${busyPort} on 127.0.0.1 is in use (another server?): give another with --port, or --port 0 for a free one\n`,
    );
  });

  it('--debug, anywhere on the line, shows the stack trace instead', async () => {
    const result = await tmsnap(['preview', '--debug', '--out', join(scratch, 'site'), '--port', String(busyPort)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('EADDRINUSE');
    expect(result.stderr).toMatch(/\n\s+at /);
  });

  it('preview does not default to 4321, the port of Astro’s own dev server', async () => {
    expect(defaultPort).not.toBe(4321);
    const help = await tmsnap(['preview', '--help']);
    expect(help.stdout).toContain(`(default: ${defaultPort},`);
    expect(help.stdout).not.toContain('4321');
  });
});

describe('system errors in one line', () => {
  it('names the path and says what to do for each kind', () => {
    const error = (code: string, syscall: string, path: string) => Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });
    expect(systemErrorLine(error('EEXIST', 'mkdir', 'notes.txt'))).toBe(
      'notes.txt is a file where a folder is needed: give a folder instead, or move the file away',
    );
    expect(systemErrorLine(error('ENOTDIR', 'open', 'notes.txt/a'))).toBe(
      'notes.txt/a is a file where a folder is needed: give a folder instead, or move the file away',
    );
    expect(systemErrorLine(error('EACCES', 'mkdir', '/root/x'))).toBe(
      'no permission to write /root/x: give a path this user may write, or fix its permissions',
    );
    expect(systemErrorLine(error('ENOSPC', 'write', '/mnt/full/a'))).toBe(
      'no space left on the disk holding /mnt/full/a: free some space, or give a path on another disk',
    );
    expect(systemErrorLine(Object.assign(new Error('x'), { code: 'EACCES', syscall: 'listen', address: '127.0.0.1', port: 80 }))).toBe(
      'port 80 needs privileges this user lacks: give a port above 1023 with --port, or --port 0 for a free one',
    );
    expect(systemErrorLine(new Error('plain'))).toBeUndefined();
    expect(unexpectedErrorLine(new Error('boom\n    at somewhere'))).toBe(
      'boom (an unexpected error: run again with --debug for the details, and report it if it persists)',
    );
  });
});

/** Starts `tmsnap reference-server` as a user would, resolving with its URL and banner. */
async function startCliServer(args: string[]): Promise<{ child: ChildProcess; url: string; banner: string }> {
  const child = spawn(process.execPath, [bin, 'reference-server', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let banner = '';
  child.stderr!.on('data', (chunk) => (banner += chunk));
  const url = await new Promise<string>((done, fail) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const found = /^(http:\/\/127\.0\.0\.1:\d+\/api\/)$/m.exec(stdout);
      if (found) done(found[1]!);
    });
    child.on('exit', (code) => fail(new Error(`reference-server exited with ${code}: ${banner}`)));
  });
  // The banner follows the URL.
  for (let tries = 0; tries < 50 && !banner.includes('Ctrl-C stops it'); tries++) await new Promise((done) => setTimeout(done, 100));
  await new Promise((done) => setTimeout(done, 100));
  return { child, url, banner };
}

describe('the reference server throttles anonymous clients, and both ends say so', () => {
  it('its banner says how to give a token; a plain crawl that stops on the day-long wait says it too', async () => {
    const { child, url, banner } = await startCliServer(['--data', 'bundled']);
    try {
      expect(banner).toContain(
        'reference server: anonymous clients get 100 requests a day (as Weblate), usually fewer than a crawl needs: start it with --token KEY and crawl with WEBLATE_TOKEN=KEY (5000 an hour)',
      );
      const crawl = await tmsnap(['crawl', '--url', url, '--content', join(scratch, 'anonymous')], {
        env: { WEBLATE_TOKEN: '', WLC_KEY: '', XDG_CONFIG_HOME: scratch },
      });
      expect(crawl.code, crawl.stderr).toBe(1);
      expect(crawl.stderr).toMatch(/next slot frees in \d{4,} s/);
      expect(crawl.stderr).toContain('The server throttles anonymous clients: put an API token in WEBLATE_TOKEN');
      expect(crawl.stderr).not.toMatch(/\n\s+at /);
    } finally {
      child.kill('SIGINT');
    }
  }, 120_000);

  it('no hint with a token, nor for a short wait; the banner of a server given --token names the variable', () => {
    expect(anonymousHint(86_400, 'wlu_x')).toBe('');
    expect(anonymousHint(60, undefined)).toBe('');
    expect(anonymousHint(3600, undefined)).toContain('WEBLATE_TOKEN');
    expect(throttleNote(weblateRateLimit, true)).toBe(
      'anonymous clients get 100 requests a day; crawl with WEBLATE_TOKEN set to a --token key for 5000 an hour.',
    );
    expect(throttleNote(undefined, false)).toBeUndefined();
  });
});
