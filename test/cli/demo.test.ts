import { spawn } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { serveStatic } from '../../site/serve.ts';
import { useTempFolders } from '../helpers/temp.ts';

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
    expect((await readdir(own)).sort()).toEqual(['.tmsnap-demo', 'content', 'reference-server-port', 'site']);
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
    const first = await demoRun(cwd);
    const second = await demoRun(cwd);
    expect(serverOf(second)).toBe(serverOf(first));
    expect(requestsOf(second)).toBeLessThan(requestsOf(first));
  }, 600_000);
});
