import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type RunResult, type Step, runSteps } from './runner.ts';

/**
 * The release workflow (issue 24): `.github/workflows/release.yml` parses as Actions expects,
 * and its shell steps run for real against a local origin, in a checkout holding this tree's
 * package.json, package-lock.json and CHANGELOG.md, with `npm publish` (not a dry run) and `gh`
 * stood in for by scripts that write down what they were asked and what the origin held then.
 * Its "Install and check" step is not run here: this suite is what it runs.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

interface Workflow {
  on: { workflow_dispatch?: { inputs: Record<string, { required?: boolean; type?: string; default?: unknown }> } } & Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, { permissions?: Record<string, string>; steps: Step[] }>;
}

async function loadRelease(): Promise<Workflow> {
  return parse(await readFile(join(root, '.github', 'workflows', 'release.yml'), 'utf8')) as Workflow;
}

const git = async (cwd: string, ...args: string[]) => (await run('git', args, { cwd })).stdout.trim();

let scratch: string;
let shims: string;
let version: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'tmsnap-release-'));
  shims = join(scratch, 'bin');
  await mkdir(shims);
  const realNpm = (await run('bash', ['-c', 'command -v npm'])).stdout.trim();
  // npm publish (not --dry-run) and gh are written down, with the origin's tags at that moment.
  await writeFile(
    join(shims, 'npm'),
    `#!/bin/bash
if [ "$1" = publish ] && [[ " $* " != *" --dry-run "* ]]; then
  { echo "npm $*"; echo "origin: $(git ls-remote -q --tags --refs origin | awk '{print $2}' | tr '\\n' ' ')"; } >> "$LOG"
  exit 0
fi
exec "${realNpm}" "$@"
`,
  );
  await writeFile(join(shims, 'gh'), `#!/bin/bash\n{ echo "gh $*"; echo "notes: $(cat "\${@: -1}")"; } >> "$LOG"\n`);
  for (const name of ['npm', 'gh']) await chmod(join(shims, name), 0o755);
  version = (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string }).version;
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A bare origin and a checkout of its main holding this tree's package.json, lock and CHANGELOG. */
async function checkout(changelog?: (text: string) => string): Promise<{ origin: string; work: string; temp: string; log: string }> {
  const base = await mkdtemp(join(scratch, 'case-'));
  const origin = join(base, 'origin.git');
  const work = join(base, 'work');
  const temp = join(base, 'runner');
  await mkdir(temp);
  await run('git', ['init', '-q', '--bare', '-b', 'main', origin]);
  await run('git', ['clone', '-q', origin, work]);
  for (const file of ['package.json', 'package-lock.json', 'CHANGELOG.md']) await copyFile(join(root, file), join(work, file));
  // The checkout holds no sources to compile: pack-js's prepack and postpack are tested on the
  // whole tree by test/package/; here npm publishes the package.json alone.
  const manifest = JSON.parse(await readFile(join(work, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  delete manifest.scripts.prepack;
  delete manifest.scripts.postpack;
  await writeFile(join(work, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (changelog) await writeFile(join(work, 'CHANGELOG.md'), changelog(await readFile(join(work, 'CHANGELOG.md'), 'utf8')));
  await git(work, 'add', '.');
  await git(work, '-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-q', '-m', 'before the release');
  await git(work, 'push', '-q', 'origin', 'HEAD:main');
  return { origin, work, temp, log: join(base, 'log') };
}

async function release(
  at: { work: string; temp: string; log: string },
  inputs: Record<string, string>,
  ref = 'refs/heads/main',
): Promise<RunResult & { calls: string }> {
  const workflow = await loadRelease();
  const result = await runSteps(workflow.jobs.release!.steps, {
    inputs: { 'dry-run': 'false', ...inputs },
    github: { ref, token: 'ghs_not_a_real_token' },
    secrets: {},
    runner: { temp: at.temp },
    cwd: at.work,
    path: [shims, process.env.PATH].join(delimiter),
    env: { LOG: at.log },
    skip: ['Install and check'],
  });
  return { ...result, calls: await readFile(at.log, 'utf8').catch(() => '') };
}

describe('.github/workflows/release.yml', () => {
  it('runs by hand with a version, dry by default, with only the permissions a release needs', async () => {
    const workflow = await loadRelease();
    expect(Object.keys(workflow.on)).toEqual(['workflow_dispatch']);
    expect(workflow.on.workflow_dispatch?.inputs.version?.required).toBe(true);
    expect(workflow.on.workflow_dispatch?.inputs['dry-run']).toMatchObject({ type: 'boolean', default: true });
    expect(workflow.permissions).toEqual({});
    expect(workflow.jobs.release?.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
    const steps = workflow.jobs.release!.steps;
    for (const step of steps) {
      expect(Boolean(step.run) !== Boolean(step.uses), step.name ?? step.uses).toBe(true);
      if (step.run) expect(step.shell, step.name).toBe('bash');
    }
    const setup = steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(setup?.with).toMatchObject({ 'node-version': 24, 'registry-url': 'https://registry.npmjs.org' });
    expect(steps.find((step) => step.uses?.startsWith('actions/checkout@'))?.with?.['fetch-depth']).toBe(0);
  });

  it('stamps, checks, pushes, publishes with provenance, and only then moves the major tag', async () => {
    const steps = (await loadRelease()).jobs.release!.steps;
    const names = steps.filter((step) => step.run).map((step) => step.name);
    expect(names).toEqual([
      'Stamp the version',
      'Install and check',
      'Commit and tag',
      'Push the release commit and its tag',
      'Publish to npm',
      'Move the major tag',
      'Make the GitHub release',
    ]);
    const check = steps.find((step) => step.name === 'Install and check')!.run!;
    for (const line of ['npm ci', 'npm run typecheck', 'node bin/tmsnap.js --version', 'vitest run test/package test/publishing'])
      expect(check).toContain(line);
    expect(steps.find((step) => step.name === 'Publish to npm')?.run).toContain('--provenance --access public');
  });
});

describe('the release workflow’s shell steps, run for real', () => {
  it('releases: the CHANGELOG section dated, a commit and v<version> on main, npm publish, then v0 moved and the GitHub release', async () => {
    const at = await checkout();
    const result = await release(at, { version });
    expect(result.failed, result.failed && result.logs[result.failed.name]).toBeUndefined();
    const today = new Date().toISOString().slice(0, 10);
    const head = await git(at.origin, 'rev-parse', 'main');
    expect(await git(at.origin, 'log', '-1', '--format=%s', 'main')).toBe(`Release ${version}`);
    expect(await git(at.origin, 'rev-parse', `v${version}^{commit}`)).toBe(head);
    expect(await git(at.origin, 'rev-parse', `v${version.split('.')[0]}^{commit}`)).toBe(head);
    const changelog = await git(at.origin, 'show', 'main:CHANGELOG.md');
    expect(changelog.split('\n').find((line) => line.startsWith('## '))).toBe(`## ${version} (${today})`);
    expect(changelog).not.toContain('(unreleased)');
    expect(JSON.parse(await git(at.origin, 'show', 'main:package.json')).version).toBe(version);
    expect(JSON.parse(await git(at.origin, 'show', 'main:package-lock.json')).version).toBe(version);
    const calls = result.calls.split('\n');
    expect(calls[0]).toBe('npm publish --provenance --access public');
    // At the publish: the version's tag pushed, the major tag not yet moved.
    expect(calls[1]).toBe(`origin: refs/tags/v${version} `);
    expect(calls[2]).toBe(`gh release create v${version} --verify-tag --title tmsnap ${version} --notes-file ${join(at.temp, 'notes.md')}`);
    // The release notes: the CHANGELOG section, without its heading or the next section.
    const notes = calls.slice(3).join('\n');
    expect(notes).toContain('### Added');
    expect(notes).not.toMatch(/^## /m);
  }, 120_000);

  it('releases a version other than package.json’s by stamping it everywhere', async () => {
    const at = await checkout();
    const result = await release(at, { version: '7.8.9' });
    expect(result.failed).toBeUndefined();
    expect(JSON.parse(await git(at.origin, 'show', 'main:package.json')).version).toBe('7.8.9');
    expect((await git(at.origin, 'show', 'main:CHANGELOG.md')).split('\n').find((line) => line.startsWith('## '))).toMatch(/^## 7\.8\.9 \(\d{4}-\d\d-\d\d\)$/);
    expect(await git(at.origin, 'rev-parse', 'v7^{commit}')).toBe(await git(at.origin, 'rev-parse', 'main'));
  }, 120_000);

  it('dry-run: npm publish --dry-run for real, nothing pushed, no GitHub release', async () => {
    const at = await checkout();
    const before = await git(at.origin, 'rev-parse', 'main');
    const result = await release(at, { version, 'dry-run': 'true' });
    expect(result.failed, result.failed && result.logs[result.failed.name]).toBeUndefined();
    expect(result.logs['Publish to npm']).toContain(`tmsnap@${version}`);
    expect(result.logs['Publish to npm']).toContain('(dry-run)');
    expect(result.calls).toBe('');
    expect(await git(at.origin, 'rev-parse', 'main')).toBe(before);
    expect(await git(at.origin, 'tag')).toBe('');
  }, 120_000);

  for (const [what, setUp, inputs, ref] of [
    [
      'a version already tagged',
      async (work: string) => void (await git(work, 'push', '-q', 'origin', 'HEAD:refs/tags/v1.0.0')),
      { version: '1.0.0' },
      undefined,
    ],
    ['a version that is not x.y.z', undefined, { version: 'v1.0' }, undefined],
    ['a CHANGELOG with no unreleased section', 'changelog', { version: '1.0.0' }, undefined],
    ['a branch other than main', undefined, { version: '1.0.0' }, 'refs/heads/topic'],
  ] as const) {
    it(`refuses ${what} before anything is committed, pushed or published`, async () => {
      const at = await checkout(setUp === 'changelog' ? (text) => text.replace(' (unreleased)', ' (2026-01-01)') : undefined);
      if (typeof setUp === 'function') {
        await setUp(at.work);
        await git(at.work, 'fetch', '-q', '--tags', 'origin');
      }
      const before = await git(at.origin, 'show-ref');
      const result = await release(at, inputs, ref);
      expect(result.failed?.name).toBe('Stamp the version');
      expect(result.logs['Stamp the version']).toContain('::error::');
      expect(result.calls).toBe('');
      expect(await git(at.origin, 'show-ref')).toBe(before);
    }, 60_000);
  }
});
