import { spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { listSnapshots } from '../../snapshot/index.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { json, startScriptedServer } from './scripted-server.ts';
import { useTempFolders } from '../helpers/temp.ts';

const bin = new URL('../../bin/tmsnap.js', import.meta.url).pathname;
const token = 'wlu_cliSecretToken_fedcba9876543210';
const contentFolder = useTempFolders('tmsnap-cli-', 'all');

async function tmsnap(args: string[], environment: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, WEBLATE_TOKEN: '', ...environment } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}

async function allText(folder: string): Promise<string> {
  const texts: string[] = [];
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) texts.push(await readFile(join(entry.parentPath, entry.name), 'utf8'));
  }
  return texts.join('\n');
}

/** Fixture rows whose every free-text and foreign-link field points at `evil` (another listener on the same host). */
function hostileRows(evil: string) {
  const rows = fixtureRows();
  for (const project of rows.projects) {
    project.web = `${evil}api/projects/`;
    project.instructions = `See <a href="${evil}api/">this</a> and ${evil}api/units/`;
  }
  for (const component of rows.components) {
    component.repo = `${evil}api/repo.git`;
    component.git_export = `${evil}api/components/`;
    component.license_url = `${evil}api/licence/`;
    component.repoweb = `${evil}api/browse/{{filename}}`;
  }
  for (const unit of rows.units) {
    unit.target = unit.target.map(() => `${evil}api/units/`);
    unit.note = `${evil}api/translations/`;
    unit.context = `${evil}api/changes/`;
  }
  for (const user of rows.users) user.full_name = `${evil}api/users/`;
  return rows;
}

describe('tmsnap crawl', () => {
  it('never requests a hostile off-origin link, and the token appears in no file, log or error', async () => {
    const evil = await startScriptedServer([json('{"count":0,"next":null,"previous":null,"results":[]}')]);
    const server = await startTestServer({
      data: new MemoryModel(hostileRows(evil.origin)),
      // Page links pointing at the other listener too, with pages to follow.
      behaviours: { tokens: [token], pageLinkOrigin: evil.origin.replace(/\/$/, ''), legacyPagination: true },
    });
    try {
      const content = await contentFolder();
      const run = await tmsnap(['crawl', '--url', server.url, '--content', content], { WEBLATE_TOKEN: token });
      expect(run.stderr).toContain('requests made');
      expect(run.code).toBe(0);
      expect(evil.hits).toHaveLength(0);
      expect(`${run.stdout}${run.stderr}${await allText(content)}`).not.toContain(token);
      expect((await listSnapshots(content)).filter((summary) => summary.complete)).toHaveLength(1);
    } finally {
      await server.close();
      await evil.close();
    }
  });

  it('keeps the token out of errors even when the server echoes it back', async () => {
    const echo = await startScriptedServer([
      (request, response) => {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ detail: `Invalid token: ${request.headers.authorization}` }));
      },
    ]);
    try {
      const content = await contentFolder();
      const run = await tmsnap(['crawl', '--url', `${echo.origin}api/`, '--content', content], { WEBLATE_TOKEN: token });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('WEBLATE_TOKEN');
      expect(echo.hits[0]?.headers.authorization).toBe(`Token ${token}`);
      expect(`${run.stdout}${run.stderr}${await allText(content)}`).not.toContain(token);
    } finally {
      await echo.close();
    }
  });

  it('exits 3 when complete with problems, listing them', async () => {
    const rows = fixtureRows();
    // A field the site reads (figures follow it): a kept one of another type would be drift, exit 0 (docs/weblate-api.md).
    for (const project of rows.projects) (project as unknown as { translation_review: unknown }).translation_review = 'yes';
    const server = await startTestServer({ data: new MemoryModel(rows) });
    try {
      const content = await contentFolder();
      const run = await tmsnap(['crawl', '--url', server.url, '--content', content, '--json']);
      expect(run.code).toBe(3);
      const finished = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { event: string; outcome?: string; problems?: { field: string }[] })
        .find((event) => event.event === 'finished');
      expect(finished?.outcome).toBe('problems');
      expect(finished?.problems?.map((problem) => problem.field)).toContain('translation_review');
    } finally {
      await server.close();
    }
  });

  it('exits 0 on a Weblate 5.4 server crawled anonymously, where only access limits went wrong, and says where the requests went', async () => {
    const server = await startTestServer({ profile: 'weblate-5.4', behaviours: { rateLimit: raisedRateLimit } });
    try {
      const content = await contentFolder();
      const run = await tmsnap(['crawl', '--url', server.url, '--content', content, '--project', 'hello']);
      expect(run.stderr).toMatch(/requests by kind: lists \d+, units \d+, statistics \d+, files \d+, other \d+/);
      expect(run.stderr).toMatch(/not readable with these credentials[\s\S]*\n {2}translations\/\*\/\*\/\*\/repository\/: 403 at /);
      expect(run.stderr).not.toMatch(/problem\(s\)/);
      expect(run.code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('exits 1 naming the URL when the server cannot be reached, leaving nothing that looks finished', async () => {
    const gone = await startScriptedServer([json('{}')]);
    await gone.close();
    const content = await contentFolder();
    const run = await tmsnap(['crawl', '--url', `${gone.origin}api/`, '--content', content, '--retries', '1']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`GET ${gone.origin}api/ failed`);
    expect((await listSnapshots(content)).filter((summary) => summary.finished)).toEqual([]);
  });

  it('exits 2 on bad usage, saying what was expected', async () => {
    // Five starts of the CLI, each a few seconds of CPU: at once they overlap on idle cores, and the
    // limit holds them at load 24 on two (30 s; docs/decisions/2026-11-28-unit-tier-line.md).
    const [missing, relative, zero, fraction, flag] = await Promise.all([
      tmsnap(['crawl']),
      tmsnap(['crawl', '--url', 'weblate.example.org/api/']),
      tmsnap(['crawl', '--url', 'http://127.0.0.1:9/api/', '--concurrency', '0']),
      tmsnap(['crawl', '--url', 'http://127.0.0.1:9/api/', '--max-requests', '2.5']),
      tmsnap(['crawl', '--url', 'http://127.0.0.1:9/api/', '--token', token]),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--url is required');
    expect(relative.code).toBe(2);
    expect(relative.stderr).toContain('is not an absolute URL');
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--concurrency "0": expected a whole number above 0');
    expect(fraction.code).toBe(2);
    expect(fraction.stderr).toContain('--max-requests "2.5": expected a whole number above 0');
    expect(flag.code).toBe(2);
  }, 120_000);
});
