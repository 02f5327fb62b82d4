import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseDisagreement } from '../../cli/build.ts';
import { progressLine } from '../../crawler/progress.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { useTempFolders } from '../helpers/temp.ts';

/** Issue 28, "What a newcomer is told": the command line's answers, in the user's terms. */

const bin = resolve(import.meta.dirname, '../../bin/tmsnap.js');
const tempFolder = useTempFolders('tmsnap-newcomer-', 'all');
let scratch: string;
let archive: string;
const env = () => ({ WEBLATE_TOKEN: '', WLC_KEY: '', WEBLATE_URL: '', WLC_URL: '', TMSNAP_CONTENT: '', XDG_CONFIG_HOME: join(scratch, 'no-config') });

beforeAll(async () => {
  scratch = await tempFolder();
  archive = join(scratch, 'archive');
  const server = await startTestServer();
  try {
    await crawlComplete(server, archive);
  } finally {
    await server.close();
  }
}, 120_000);

describe('durations', () => {
  it('`--max-duration 5 hours` (two words) says to give one word and the accepted forms, not the parser’s wording', async () => {
    const result = await tmsnap(['crawl', '--url', 'http://127.0.0.1:9/api/', '--content', join(scratch, 'never'), '--max-duration', '5', 'hours'], {
      env: env(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      'tmsnap crawl: --max-duration 5 hours: give the time as one word, e.g. 5h, 300m, 90s, 1h30m or a number of seconds',
    );
    expect(result.stderr).not.toContain('positional');
  });

  // verify takes snapshot names now (issue 35): snapshots takes only options.
  it('a stray word elsewhere is told as such', async () => {
    const result = await tmsnap(['snapshots', '--content', archive, 'extra']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `tmsnap snapshots: unexpected "extra" after --content ${archive}: a value is one word; write it without spaces, or quote it`,
    );
    const alone = await tmsnap(['snapshots', 'extra']);
    expect(alone.stderr.split('\n')[0]).toBe('tmsnap snapshots: unexpected argument "extra": this command takes only options (--name value)');
  });
});

describe('export', () => {
  it('needs no --format: ndjson is its only one, and the default', async () => {
    const result = await tmsnap(['export', '--content', archive]);
    expect(result.code, result.stderr).toBe(0);
    const first = JSON.parse(result.stdout.split('\n')[0]!) as { url: string; kind: string };
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\//);
    const other = await tmsnap(['export', '--content', archive, '--format', 'csv']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('unknown --format "csv": the only format is ndjson');
  });
});

describe('site URL and base path', () => {
  it('refuses --site-url and --base that disagree, in one line saying which to give', async () => {
    const result = await tmsnap(['build', '--content', archive, '--out', join(scratch, 'never'), '--site-url', 'https://x/l10n', '--base', '/other/']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      'tmsnap build: --site-url https://x/l10n is published under /l10n but --base is /other/: give --base /l10n, or leave --base out (it follows --site-url)',
    );
  });

  it('takes them when they agree, trailing slash or not', () => {
    expect(baseDisagreement('https://me.github.io/project/', '/project/')).toBeUndefined();
    expect(baseDisagreement('https://me.github.io/project', '/project/')).toBeUndefined();
    expect(baseDisagreement('https://example.org/', '/')).toBeUndefined();
    expect(baseDisagreement('https://example.org/', '/project/')).toContain('give --base /');
  });
});

describe('the crawl’s progress and its Ctrl-C', () => {
  it('names each phase', () => {
    const progress = { made: 10, minimum: 10, records: 30, pending: 5, budget: {} };
    expect(progressLine({ ...progress, phase: 0 }, 1000)).toMatch(/^step 1\/6 \(the API root\) \| 10 requests/);
    expect(progressLine({ ...progress, phase: 1 }, 1000)).toMatch(/^step 2\/6 \(projects, components, translations\) \|/);
    expect(progressLine({ ...progress, phase: 2 }, 1000)).toMatch(/^step 3\/6 \(strings, changes, statistics\) \|/);
    expect(progressLine({ ...progress, phase: 4 }, 1000)).toMatch(/^step 5\/6 \(older changes, repositories\) \|/);
    expect(progressLine({ ...progress, phase: 5 }, 1000)).toMatch(/^step 6\/6 \(translation files\) \|/);
  });

  it('Ctrl-C says the crawl stopped and how to resume (exit 130); the same command then says it is resuming, and finishes', async () => {
    // Every request takes 300 ms: the crawl is still running when Ctrl-C comes.
    const server = await startTestServer({ behaviours: { faults: { seed: 1, slowRate: 1, slowMs: 300 } } });
    try {
      const args = ['crawl', '--url', server.url, '--content', join(scratch, 'interrupted'), '--concurrency', '1'];
      const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env() }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      await new Promise<void>((done) =>
        child.stderr.on('data', (chunk) => {
          stderr += chunk;
          // The first progress line is printed after the first request: the crawl is under way.
          if (stderr.includes('step 1/6 (the API root)')) done();
        }),
      );
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(stderr).toContain('stopping after the requests in flight (Ctrl-C again to stop at once); run the same command to resume');
      expect(stderr).toMatch(/^stopped \(Ctrl-C\) with \d+ request\(s\) to go; run the same command to resume\.$/m);
      const id = /^crawl stopped (\S+): /m.exec(stderr)?.[1];
      expect(id).toBeDefined();

      const resumed = await tmsnap(args, { env: env() });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(new RegExp(`^resuming snapshot ${id} \\(.*\\.partial\\), stopped earlier after \\d+ requests$`, 'm'));
      expect(resumed.stderr).toContain(`snapshot ${id}:`);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('a second Ctrl-C stops at once, saying "stopped; run the same command to resume" (exit 130), the snapshot left in progress', async () => {
    // Requests of 5 s: the first Ctrl-C would wait for the one in flight.
    const server = await startTestServer({ behaviours: { faults: { seed: 1, slowRate: 1, slowMs: 5000 } } });
    try {
      const content = join(scratch, 'twice');
      const child = spawn(process.execPath, [bin, 'crawl', '--url', server.url, '--content', content, '--concurrency', '1'], {
        env: { ...process.env, ...env() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      await new Promise<void>((done) =>
        child.stderr.on('data', (chunk) => {
          stderr += chunk;
          if (stderr.includes('step 1/6 (the API root)')) done();
        }),
      );
      const started = Date.now();
      child.kill('SIGINT');
      await new Promise((done) => setTimeout(done, 300));
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(Date.now() - started).toBeLessThan(4000);
      expect(stderr.trim().split('\n').slice(-2)).toEqual([
        'stopping after the requests in flight (Ctrl-C again to stop at once); run the same command to resume',
        'stopped; run the same command to resume',
      ]);
      expect((await tmsnap(['snapshots', '--content', content, '--json'])).stdout).toContain('"in progress"');
    } finally {
      await server.close();
    }
  }, 120_000);
});
