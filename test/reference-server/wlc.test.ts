import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { statistics, translation } from '../../api/index.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { startTestServer, useReferenceServer } from '../helpers/reference-server.ts';
import { get } from './get.ts';
import { hasCommand } from '../helpers/outside-command.ts';
import { useTempFolders } from '../helpers/temp.ts';

/**
 * Weblate's official client (Debian package `wlc`, installed by .ci/run; skipped without it) as an independent
 * judge of the server: it must read projects and statistics without an error from the default
 * profile (a real 5.4), with a token as it is used against a real server.
 */
const run = promisify(execFile);
const home = await useTempFolders('tmsnap-wlc-', 'all')();

const KEY = 'wlu_wlc';

async function wlc(url: string, ...args: string[]): Promise<unknown> {
  return wlcAs(url, ['--key', KEY], ...args);
}

async function wlcAs(url: string, key: string[], ...args: string[]): Promise<unknown> {
  // A private HOME: no ~/.config/weblate of the machine's user leaks in.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' };
  const { stdout, stderr } = await run('wlc', ['--url', url, ...key, '--format', 'json', ...args], { env });
  expect(stderr).toBe('');
  return JSON.parse(stdout);
}

const server = useReferenceServer({ profile: 'weblate-5.4', behaviours: { tokens: [KEY], rateLimit: raisedRateLimit } });
const authorized = { headers: { Authorization: `Token ${KEY}` } };

describe.runIf(hasCommand('wlc', 'apt-get install -y wlc'))('wlc against the reference server', () => {
  it('lists the projects', async () => {
    const projects = (await wlc(server().url, 'list-projects')) as { slug: string; url: string }[];
    expect(projects.map((row) => row.slug)).toEqual(['hello', 'secret']);
    expect(projects[0]!.url).toBe(`${server().url}projects/hello/`);
  });

  it('lists components, languages and translations', async () => {
    expect(((await wlc(server().url, 'list-components')) as { slug: string }[]).map((row) => row.slug)).toEqual(['po', 'glossary', 'app']);
    expect(((await wlc(server().url, 'list-languages')) as { code: string }[]).map((row) => row.code)).toEqual(['ar', 'cs', 'en', 'sr@latin']);
    expect((await wlc(server().url, 'list-translations')) as unknown[]).toHaveLength(7);
  });

  it('shows project, component and translation statistics equal to the API', async () => {
    const project = (await wlc(server().url, 'stats', 'hello')) as Record<string, unknown>;
    const api = statistics.parse((await get(`${server().url}projects/hello/statistics/`, authorized)).json);
    expect([project.total, project.translated, project.fuzzy, project.failing]).toEqual([api.total, api.translated, api.fuzzy, api.failing]);
    const perTranslation = (await wlc(server().url, 'stats', 'hello/po')) as { code: string; translated: number }[];
    expect(perTranslation.map((row) => row.code)).toEqual(['en', 'cs', 'ar']);
    const cs = (await wlc(server().url, 'stats', 'hello/po/cs')) as Record<string, unknown>;
    const csApi = translation.parse((await get(`${server().url}translations/hello/po/cs/`, authorized)).json);
    expect([cs.translated, cs.total, cs.last_author]).toEqual([csApi.translated, csApi.total, csApi.last_author]);
  });

  it('reads repository status, lock status and changes', async () => {
    expect(await wlc(server().url, 'repo', 'hello/po')).toMatchObject({ needs_commit: false, needs_push: false });
    expect(await wlc(server().url, 'lock-status', 'hello/po')).toEqual({ locked: false });
    const changes = (await wlc(server().url, 'changes', 'hello/po/cs')) as { action_name: string }[];
    // Newest first, as a real server lists changes.
    expect(changes.map((row) => row.action_name)).toEqual(['Translation changed', 'Translation added']);
  });

  it('sends its key as a token and then sees private projects', async () => {
    const own = await startTestServer({ profile: 'weblate-5.4', behaviours: { tokens: [KEY] } });
    try {
      expect(((await wlcAs(own.url, [], 'list-projects')) as { slug: string }[]).map((row) => row.slug)).toEqual(['hello']);
      expect(((await wlc(own.url, 'list-projects')) as { slug: string }[]).map((row) => row.slug)).toEqual(['hello', 'secret']);
    } finally {
      await own.close();
    }
  });
});
