import { spawn } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { readTags } from '../../archive/tags.ts';
import { buildDemoSite, demoTitle } from '../../cli/demo.ts';
import { type Scenario, playNights } from '../../cli/demo-nights.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { serveStatic } from '../../site/serve.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { fixtureModel, startTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';

const repo = resolve(import.meta.dirname, '../..');
const temp = await useTempFolders('tmsnap-demo-', 'all')();

/** A raw GET, so that `..` segments reach the server as sent (fetch would normalize them away). */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const target = new URL(url);
    request({ host: target.hostname, port: target.port, path }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, body }));
    })
      .on('error', fail)
      .end();
  });
}

describe('tmsnap preview', () => {
  test('serves files and folder indexes, and nothing outside the folder', async () => {
    const site = join(temp, 'site');
    await mkdir(join(site, 'projects'), { recursive: true });
    await writeFile(join(site, 'index.html'), '<h1>home</h1>');
    await writeFile(join(site, 'projects/index.html'), '<h1>projects</h1>');
    await writeFile(join(temp, 'secret.txt'), 'outside');
    const server = await serveStatic(site);
    try {
      expect(await rawGet(server.url, '/')).toEqual({ status: 200, body: '<h1>home</h1>' });
      expect(await rawGet(server.url, '/projects/')).toEqual({ status: 200, body: '<h1>projects</h1>' });
      expect((await rawGet(server.url, '/missing.html')).status).toBe(404);
      for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/projects/..%2f..%2fsecret.txt']) {
        const answer = await rawGet(server.url, path);
        expect(answer.body, path).not.toContain('outside');
        expect([403, 404], path).toContain(answer.status);
      }
    } finally {
      await server.close();
    }
  });
});

describe('tmsnap demo', () => {
  test('run inside a JavaScript project, writes only into a folder of its own and says where; serves the site; stops cleanly on Ctrl-C', async () => {
    // A project whose content/ and dist/ belong to other tools (Astro, Hugo, Nuxt Content).
    const project = join(temp, 'js-project');
    await mkdir(join(project, 'content'), { recursive: true });
    await mkdir(join(project, 'dist'), { recursive: true });
    await writeFile(join(project, 'content', 'post.md'), '# a post');
    await writeFile(join(project, 'dist', 'app.js'), 'console.log(1)');
    const demo = await startDemo(project);
    const { siteUrl } = demo;
    const home = await (await fetch(siteUrl)).text();
    const stderr = demo.stderr();
    expect(home).toContain('Translation status');
    // Named for what it shows, not "127.0.0.1 translation status" (issue 35).
    expect(home).toContain(`<title>${demoTitle}</title>`);
    expect(stderr).toMatch(/requests made \d+, minimum requests \d+/);
    expect(stderr).toContain('open the site at');
    const own = join(project, 'tmsnap-demo');
    expect(stderr).toContain(`tmsnap demo: writing into ${own}: the archive in content/, the site in site/`);
    expect(stderr).toContain(`the archive is in ${join(own, 'content')} and the site in ${join(own, 'site')}`);

    expect(await demo.stop()).toBe(0);
    await expect(fetch(siteUrl)).rejects.toThrow();
    // The project's own folders as they were; the demo's folder holds its mark, archive, site and server port.
    expect((await readdir(project)).sort()).toEqual(['content', 'dist', 'tmsnap-demo']);
    expect(await readdir(join(project, 'content'))).toEqual(['post.md']);
    expect(await readdir(join(project, 'dist'))).toEqual(['app.js']);
    expect(await readFile(join(project, 'dist', 'app.js'), 'utf8')).toBe('console.log(1)');
    expect((await readdir(own)).sort()).toEqual(['.tmsnap-demo', 'content', 'reference-server-port', 'site', 'site-port']);
  }, 600_000);
});

/** `tmsnap demo` in `cwd`, once it prints the site's URL; `stop` sends Ctrl-C and gives the exit code. */
async function startDemo(cwd: string): Promise<{ siteUrl: string; stderr: () => string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [join(repo, 'bin/tmsnap.js'), 'demo', '--data', 'synthetic:projects=1,components=2,languages=3,units=240,seed=7'], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const siteUrl = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const url = /^(http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(stdout);
      if (url) done(url[1]!);
    });
    void exited.then((code) => fail(new Error(`demo exited with ${code} before printing the site URL:\n${stderr}`)));
  });
  return {
    siteUrl,
    stderr: () => stderr,
    stop: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** One `tmsnap demo` in `cwd` until it serves the site, then Ctrl-C: what it wrote to stderr. */
async function demoRun(cwd: string): Promise<string> {
  const demo = await startDemo(cwd);
  expect((await fetch(demo.siteUrl)).status).toBe(200);
  const code = await demo.stop();
  expect(code, demo.stderr()).toBe(0);
  return demo.stderr();
}

describe('tmsnap demo, run again', () => {
  test('crawls the same server again, incrementally (issue 28)', async () => {
    const cwd = join(temp, 'twice');
    await mkdir(cwd, { recursive: true });
    const serverOf = (stderr: string) => /reference server \([^)]*\) at (\S+)/.exec(stderr)?.[1];
    const requestsOf = (stderr: string) => Number(/requests made (\d+)/.exec(stderr)?.[1]);
    const siteOf = (stderr: string) => /open the site at (\S+)/.exec(stderr)?.[1];
    const first = await demoRun(cwd);
    const second = await demoRun(cwd);
    expect(serverOf(second)).toBe(serverOf(first));
    expect(requestsOf(second)).toBeLessThan(requestsOf(first));
    // The site keeps its port too, so that a tab left open on it works again (issue 35).
    expect(siteOf(second)).toBe(siteOf(first));
  }, 600_000);
});

describe('tmsnap demo --nights (issue 35)', () => {
  test('refuses nights the story does not have, and data the server cannot edit, in one line each', async () => {
    const four = await tmsnap(['demo', '--nights', '4', '--dir', join(temp, 'refused')]);
    expect([four.code, four.stderr.split('\n')[0]]).toEqual([2, 'tmsnap demo: --nights "4": give 1 to 3 (the guide\'s story has 3 nights)']);
    const synthetic = await tmsnap([
      'demo',
      '--nights',
      '2',
      '--data',
      'synthetic:projects=1,components=1,languages=2,units=20',
      '--dir',
      join(temp, 'refused'),
    ]);
    expect(synthetic.code).toBe(2);
    expect(synthetic.stderr).toContain("--nights 2 plays the guide's story on the bundled data");
    await expect(readdir(join(temp, 'refused'))).rejects.toThrow();
  }, 120_000);

  /** The guide's story on the fixture data: what the demo plays on the bundled data, in seconds. */
  const scenario: Scenario = {
    subject: { project: 'hello', component: 'po', language: 'cs' },
    marked: 2,
    saved: 1,
    people: { reviewer: 'bob', translator: 'alice' },
    // The one translated string the reviewer leaves alone: its translation drifts.
    reword: { before: '<b>Bold</b> & <script>alert(1)</script>', after: '<b>Bold</b> & <script>alert(2)</script>' },
    releases: ['v1.0', 'v2.0'],
  };

  test('three nights: edits between them, two tags, credits, drift, string histories, and strings keep the date they were added', async () => {
    const work = join(temp, 'nights');
    const content = join(work, 'content');
    let clock = new Date();
    const model = fixtureModel(() => clock);
    const token = 'wlu_demo_nights';
    const server = await startTestServer({ data: model, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
    const said: string[] = [];
    let played;
    try {
      played = await playNights({
        model,
        scenario,
        nights: 3,
        content,
        now: new Date(),
        setClock: (date) => (clock = date),
        crawlNight: async (full) => (await crawlComplete(server, content, { token, full })).snapshotId,
        say: (line) => said.push(line),
      });
    } finally {
      await server.close();
    }
    expect(played).toBeDefined();
    const { ids, unitIds, firstUnitPath } = played!;
    // A snapshot a night, a day apart at 04:15 UTC.
    expect(ids).toHaveLength(3);
    expect(ids.every((id) => id.endsWith('T041500Z'))).toBe(true);
    expect((Date.parse(ids[2]!.replace(/^(\d{4})-(\d\d)-(\d\d)T.*/, '$1-$2-$3')) - Date.parse(ids[0]!.slice(0, 10))) / 86_400_000).toBe(2);
    expect(said[1]).toContain('bob marked 2 strings of hello/po/cs for editing');
    expect(said[2]).toContain('alice saved 1 of them again');
    expect(await readTags(content)).toEqual([
      { name: 'v1.0', snapshot: ids[1] },
      { name: 'v2.0', snapshot: ids[2] },
    ]);

    const out = join(work, 'site');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let stderr: string;
    try {
      await buildDemoSite(content, out, 3);
    } finally {
      stderr = errors.mock.calls.map((call) => call.join(' ')).join('\n');
      errors.mockRestore();
    }
    // The fixture's private project, said plainly to someone who gave no key.
    expect(stderr).not.toContain('keyed crawl');
    expect(stderr).toContain(
      "one of the demo server's projects is private: the site leaves it out, as the server hides it from visitors who are not signed in",
    );
    const page = (path: string) => readFile(join(out, path), 'utf8');
    expect(await page('index.html')).toContain(`<title>${demoTitle}</title>`);
    expect(await page('credits/index.html')).toContain('Bob');
    expect(await page('releases/v2.0/index.html')).toContain('v1.0');
    expect(await page(`changes-between/${ids[1]}--${ids[2]}/index.html`)).toContain('Ahoj světe!');
    expect(await page('drift/cs/index.html')).toContain('alert(2)');
    const strings = await page(firstUnitPath!.replace(/#.*/, 'index.html'));
    const row = new RegExp(`<tr id="unit-${unitIds[0]}">.*?(?=<tr|</tbody>)`, 's').exec(strings)?.[0] ?? '';
    expect(strings).toContain(`history-of`);
    // "Added": the fixture's date, not a night's (the reference server keeps a unit's timestamp).
    expect(row).toContain('2024-05-01');
  }, 300_000);
});
