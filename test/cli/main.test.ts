import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isLoopback, parseDuration } from '../../cli/crawl.ts';
import { closest } from '../../cli/command.ts';
import { parseIni, tokenDefault, urlDefault } from '../../cli/defaults.ts';
import { commands } from '../../cli/main.ts';
import { version } from '../../cli/version.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { useTempFolders } from '../helpers/temp.ts';

/** `tmsnap` itself: help, version, did-you-mean, and defaults from the environment and wlc's file (issue 12). */

const tempFolder = useTempFolders('tmsnap-main-', 'all');
let scratch: string;
beforeAll(async () => {
  scratch = await tempFolder();
});

/** No WEBLATE_*, WLC_* or TMSNAP_* from the machine, and wlc's file looked for only under `config`. */
function cleanEnv(config: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { XDG_CONFIG_HOME: config, XDG_CONFIG_DIRS: join(config, 'none') };
  for (const name of ['WEBLATE_URL', 'WEBLATE_TOKEN', 'WLC_URL', 'WLC_KEY', 'TMSNAP_CONTENT']) env[name] = '';
  return { ...env, ...extra };
}

describe('tmsnap', () => {
  it('lists each command with the summary the command itself gives', async () => {
    for (const [name, entry] of Object.entries(commands)) expect(entry.summary, name).toBe((await entry.load()).summary);
  });

  it('answers -V and --version with the package version, help <command> like <command> --help', async () => {
    expect((await tmsnap(['-V'])).stdout.trim()).toBe(version);
    expect((await tmsnap(['--version'])).stdout.trim()).toBe(version);
    const viaHelp = await tmsnap(['help', 'verify']);
    const viaFlag = await tmsnap(['verify', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toContain('Usage: tmsnap verify');
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
  });

  it('suggests the command or flag that was meant, and nothing when nothing is close', () => {
    expect(closest('crwal', Object.keys(commands))).toBe('crawl');
    expect(closest('snapshot', Object.keys(commands))).toBe('snapshots');
    expect(closest('--contnet', ['--content', '--json'])).toBe('--content');
    expect(closest('zzz', Object.keys(commands))).toBeUndefined();
  });

  it('takes --content from TMSNAP_CONTENT and says so in --help', async () => {
    const config = join(scratch, 'no-config');
    const fromEnv = await tmsnap(['verify', '--help'], { env: cleanEnv(config, { TMSNAP_CONTENT: join(scratch, 'elsewhere') }) });
    expect(fromEnv.stdout).toContain(`--content   ${join(scratch, 'elsewhere')}  (TMSNAP_CONTENT)`);
    const verify = await tmsnap(['verify'], { env: cleanEnv(config, { TMSNAP_CONTENT: join(scratch, 'elsewhere') }) });
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain(`no archive at ${join(scratch, 'elsewhere')}`);
    const builtIn = await tmsnap(['verify', '--help'], { env: cleanEnv(config) });
    expect(builtIn.stdout).toContain('--content   content  (built-in default)');
    // build too: the Action sets TMSNAP_CONTENT once for every step.
    const build = await tmsnap(['build', '--out', join(scratch, 'site')], { env: cleanEnv(config, { TMSNAP_CONTENT: join(scratch, 'elsewhere') }) });
    expect(build.code).toBe(1);
    expect(build.stderr).toContain(join(scratch, 'elsewhere'));
  });
});

describe('defaults from WEBLATE_*, WLC_* and wlc’s configuration file', () => {
  it('reads wlc’s INI as wlc does: sections, `=` only, keys lower-cased, comments skipped', () => {
    const ini = parseIni('[weblate]\nurl = https://hosted.weblate.org/api/\n# comment\n; other\n[keys]\nHTTPS://Hosted.Weblate.org/api/ = wlu_abc\n');
    expect(ini.get('weblate')?.get('url')).toBe('https://hosted.weblate.org/api/');
    expect(ini.get('keys')?.get('https://hosted.weblate.org/api/')).toBe('wlu_abc');
  });

  it('lets WEBLATE_* win over WLC_*, and WLC_* over the file; a stored key only for its own URL', async () => {
    const config = join(scratch, 'xdg-order');
    await mkdir(config, { recursive: true });
    await writeFile(join(config, 'weblate'), '[weblate]\nurl = https://file.example/api/\n\n[keys]\nhttps://file.example/api/ = wlu_file\n');
    expect(urlDefault(cleanEnv(config))).toEqual({ value: 'https://file.example/api/', source: `${join(config, 'weblate')} [weblate] url` });
    expect(urlDefault(cleanEnv(config, { WLC_URL: 'https://wlc.example/api/' }))?.source).toBe('WLC_URL');
    expect(urlDefault(cleanEnv(config, { WLC_URL: 'https://wlc.example/api/', WEBLATE_URL: 'https://w.example/api/' }))?.source).toBe('WEBLATE_URL');
    expect(tokenDefault('https://file.example/api/', cleanEnv(config))?.value).toBe('wlu_file');
    expect(tokenDefault('https://other.example/api/', cleanEnv(config))).toBeUndefined();
    expect(tokenDefault('https://other.example/api/', cleanEnv(config, { WLC_KEY: 'wlu_env' }))?.source).toBe('WLC_KEY');
    expect(tokenDefault('https://other.example/api/', cleanEnv(config, { WLC_KEY: 'wlu_env', WEBLATE_TOKEN: 'wlu_w' }))?.source).toBe('WEBLATE_TOKEN');
  });

  it('crawls with the URL and key of wlc’s file, and --help names the file without printing the key', async () => {
    const key = 'wlu_from_the_wlc_file_1234';
    const server = await startTestServer({ behaviours: { tokens: [key] } });
    try {
      const config = join(scratch, 'xdg-crawl');
      await mkdir(config, { recursive: true });
      await writeFile(join(config, 'weblate'), `[weblate]\nurl = ${server.url}\n\n[keys]\n${server.url} = ${key}\n`);
      const help = await tmsnap(['crawl', '--help'], { env: cleanEnv(config) });
      expect(help.stdout).toContain(`--url       ${server.url}  (${join(config, 'weblate')} [weblate] url)`);
      expect(help.stdout).toContain(`token       set  (${join(config, 'weblate')} [keys] ${server.url})`);
      expect(help.stdout).not.toContain(key);
      const content = join(scratch, 'crawled-with-file');
      const run = await tmsnap(['crawl', '--content', content], { env: cleanEnv(config) });
      expect(run.code, run.stderr).toBe(0);
      expect(`${run.stdout}${run.stderr}`).not.toContain(key);
      // The private project answers 404 without the key: its records prove the key was sent.
      const exported = await tmsnap(['export', '--format', 'ndjson', '--content', content], { env: cleanEnv(config) });
      expect(exported.code).toBe(0);
      expect(exported.stdout).toContain('/api/projects/secret/');
      expect(exported.stdout).not.toContain(key);
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('old flag names of a never-released version', () => {
  it('are gone: crawl --out and preview --dist are unknown options (exit 2), naming the one to use', async () => {
    const crawl = await tmsnap(['crawl', '--url', 'http://127.0.0.1:9/api/', '--out', join(scratch, 'old-out')]);
    expect(crawl.code).toBe(2);
    expect(crawl.stderr).toContain('tmsnap crawl: unknown option --out');
    const preview = await tmsnap(['preview', '--dist', join(scratch, 'no-site')]);
    expect(preview.code).toBe(2);
    expect(preview.stderr).toContain('tmsnap preview: unknown option --dist');
    expect((await tmsnap(['crawl', '--help'])).stdout).not.toContain('0.3');
  });
});

describe('crawl options', () => {
  it('reads --max-duration as hours, minutes, seconds or bare seconds', () => {
    expect(parseDuration('5h')).toBe(5 * 3_600_000);
    expect(parseDuration('300m')).toBe(300 * 60_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('3600')).toBe(3_600_000);
    expect(parseDuration('1h30m')).toBe(90 * 60_000);
    expect(parseDuration('5 hours')).toBe(5 * 3_600_000);
    expect(parseDuration('90 min')).toBe(90 * 60_000);
    expect(parseDuration('2 Minutes 30 sec')).toBe(150_000);
    expect(() => parseDuration('0')).toThrow('--max-duration "0": expected a time, e.g. 5h, 300m, 90s, 1h30m or a number of seconds');
    for (const text of ['5 days', 'soon', '5x', 'h', '1h 2', '']) expect(() => parseDuration(text), text).toThrow('e.g. 5h, 300m, 90s, 1h30m');
  });

  it('stops at --max-duration with the snapshot resumable (exit 1), and the same command then finishes it', async () => {
    // Every request takes 400 ms: a 1-second deadline passes long before the crawl is done.
    const server = await startTestServer({ behaviours: { faults: { seed: 1, slowRate: 1, slowMs: 400 } } });
    try {
      const content = join(scratch, 'deadline');
      const env = cleanEnv(join(scratch, 'no-config'));
      const stopped = await tmsnap(['crawl', '--url', server.url, '--content', content, '--max-duration', '1s', '--concurrency', '1'], { env });
      expect(stopped.code, stopped.stderr).toBe(1);
      expect(stopped.stderr).toContain('the time allowed (--max-duration) ran out');
      expect(stopped.stderr).toContain('Re-run the same command to resume');
      const resumed = await tmsnap(['crawl', '--url', server.url, '--content', content, '--concurrency', '4'], { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      const listed = JSON.parse((await tmsnap(['snapshots', '--content', content, '--json'], { env })).stdout) as { state: string }[];
      expect(listed.map((snapshot) => snapshot.state)).toEqual(['complete']);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('treats only this machine as safe for a token over plain http', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', 'a.localhost', '[::1]']) expect(isLoopback(host), host).toBe(true);
    for (const host of ['weblate.test', '10.0.0.1', '127.0.0.1.example.org', 'localhost.example.org']) expect(isLoopback(host), host).toBe(false);
  });

  it('refuses to send a token over plain http to another host unless --allow-insecure-http', async () => {
    const env = cleanEnv(join(scratch, 'no-config'), { WEBLATE_TOKEN: 'wlu_secret_plain_http' });
    const refused = await tmsnap(['crawl', '--url', 'http://weblate.test:9/api/', '--content', join(scratch, 'insecure')], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to send the API token over plain http to weblate.test:9');
    expect(refused.stderr).not.toContain('wlu_secret_plain_http');
    const allowed = await tmsnap(['crawl', '--url', 'http://127.0.0.1:9/api/', '--content', join(scratch, 'insecure'), '--retries', '0'], { env });
    expect(allowed.stderr).not.toContain('refusing');
  });
});
