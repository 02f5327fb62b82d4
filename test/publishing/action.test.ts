import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestServer } from '../helpers/reference-server.ts';
import { type RunResult, type Step, expressions, runSteps } from './runner.ts';

/**
 * The publishing path users copy (issue 12): `action.yml` (the Action, `uses: tmsnap/tmsnap@v0`)
 * and the example workflow in docs/publishing.md. Both parse as Actions expects; every `tmsnap`
 * command line in them is answered by the CLI's own `--help`, so renaming a flag without
 * updating them fails here instead of at 3 a.m.; and the Action's shell steps run for real,
 * twice, against a local reference server and a local archive branch.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin', 'tmsnap.js');
const run = promisify(execFile);

interface Action {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  runs: { using: string; steps: Step[] };
}
interface Job {
  'runs-on': string;
  'timeout-minutes'?: number;
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { schedule?: { cron: string }[]; workflow_dispatch?: unknown };
  jobs: Record<string, Job>;
}

async function loadAction(): Promise<Action> {
  return parse(await readFile(join(root, 'action.yml'), 'utf8')) as Action;
}

/** The first ```yaml block of docs/publishing.md: the workflow users paste. */
async function loadExample(): Promise<{ text: string; workflow: Workflow }> {
  const doc = await readFile(join(root, 'docs', 'publishing.md'), 'utf8');
  const text = /```yaml\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  return { text, workflow: parse(text) as Workflow };
}

interface Invocation {
  subcommand: string;
  flags: string[];
  values: Map<string, string>;
}

/** Shell words of one line: enough quoting for a workflow, not a shell. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) out.push(match[1] ?? match[2] ?? match[3] ?? '');
  return out;
}

/** Every `tmsnap <subcommand> --flag …` the `run:` scripts of these steps execute. */
function invocations(steps: Step[]): Invocation[] {
  const found: Invocation[] = [];
  for (const step of steps) {
    if (step.run === undefined) continue;
    for (const command of step.run.replace(/\\\n/g, ' ').split(/\n|;|&&|\|\||\|/)) {
      const tokens = words(command);
      const at = tokens.findIndex((token) => token === 'tmsnap' || token.endsWith('bin/tmsnap.js'));
      if (at === -1) continue;
      const args = tokens.slice(at + 1);
      const values = new Map<string, string>();
      const flags: string[] = [];
      args.forEach((token, index) => {
        if (!token.startsWith('--')) return;
        const [flag = token, inline] = token.split('=', 2);
        flags.push(flag);
        const next = args[index + 1];
        values.set(flag, inline ?? (next !== undefined && !next.startsWith('--') ? next : ''));
      });
      found.push({ subcommand: args[0] ?? '', flags, values });
    }
  }
  return found;
}

/** What the CLI says is wrong with the invocations: unknown subcommands and flags its help does not list. */
async function problems(found: Invocation[]): Promise<string[]> {
  const out: string[] = [];
  const helps = new Map<string, Promise<string | undefined>>();
  for (const { subcommand, flags } of found) {
    if (!helps.has(subcommand)) {
      helps.set(
        subcommand,
        run(process.execPath, [bin, subcommand, '--help'], { cwd: root }).then(
          ({ stdout }) => stdout,
          () => undefined,
        ),
      );
    }
    const help = await helps.get(subcommand);
    if (help === undefined) {
      out.push(`tmsnap ${subcommand}: no such subcommand (its --help failed)`);
      continue;
    }
    for (const flag of flags) if (!new RegExp(`${flag}(?![\\w-])`).test(help)) out.push(`tmsnap ${subcommand}: ${flag} is not in its --help`);
  }
  return out;
}

/** The index of the first step matching, asserted present: -1 must never pass an ordering check. */
function stepIndex(steps: Step[], what: string, matches: (step: Step) => boolean): number {
  const index = steps.findIndex(matches);
  expect(index, `a step that ${what}`).toBeGreaterThanOrEqual(0);
  return index;
}

const actionMajors = /^actions\/[\w/-]+@v(\d+)$/;

describe('action.yml', () => {
  it('is a composite action whose steps each run or use something, in bash', async () => {
    const action = await loadAction();
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps) {
      expect(Boolean(step.run) !== Boolean(step.uses), step.name ?? step.uses).toBe(true);
      if (step.run) expect(step.shell, step.name).toBe('bash');
    }
  });

  it('declares every input it reads and reads every input it declares', async () => {
    const text = await readFile(join(root, 'action.yml'), 'utf8');
    const action = await loadAction();
    const used = new Set([...text.matchAll(/(?<!steps\.)inputs\.([\w-]+)/g)].map((match) => match[1]));
    expect([...used].filter((name) => !(name! in action.inputs))).toEqual([]);
    expect(Object.keys(action.inputs).filter((name) => !used.has(name))).toEqual([]);
    expect(action.inputs.url?.required).toBe(true);
  });

  it('runs only tmsnap subcommands and flags that the CLI lists in its --help', async () => {
    const found = invocations((await loadAction()).runs.steps);
    expect([...new Set(found.map((i) => i.subcommand))].sort()).toEqual(['build', 'crawl', 'prune', 'snapshots', 'tag', 'verify']);
    expect(await problems(found)).toEqual([]);
  }, 120_000);

  it('uses the Node 24 majors of the actions it calls, and Node 24', async () => {
    const steps = (await loadAction()).runs.steps;
    const majors = Object.fromEntries(steps.flatMap((step) => (step.uses ? [[step.uses.split('@')[0], Number(actionMajors.exec(step.uses)?.[1])]] : [])));
    expect(majors).toEqual({
      'actions/setup-node': 7,
      'actions/cache/restore': 5,
      'actions/cache/save': 5,
      'actions/configure-pages': 6,
      'actions/upload-pages-artifact': 5,
    });
    expect(steps.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe(24);
  });

  it('builds with the Pages base_url (repository path included), never the bare origin', async () => {
    const steps = (await loadAction()).runs.steps;
    const build = steps[stepIndex(steps, 'builds', (step) => step.run?.includes('tmsnap build') ?? false)]!;
    expect(build.env?.SITE_URL).toContain('steps.pages.outputs.base_url');
    expect(JSON.stringify(steps)).not.toContain('outputs.origin');
    expect(build.run).toContain('--site-url "${SITE_URL%/}/"');
  });

  it('gives the token to the crawl step alone, through its environment (others learn only whether it is set)', async () => {
    const steps = (await loadAction()).runs.steps;
    const withToken = steps.filter((step) => JSON.stringify(step).replaceAll("inputs.token != ''", '').includes('inputs.token'));
    expect(withToken).toHaveLength(1);
    expect(withToken[0]?.env?.WEBLATE_TOKEN).toBe('${{ inputs.token }}');
    expect(withToken[0]?.run).toContain('tmsnap crawl');
    expect(withToken[0]?.run).not.toContain('inputs.');
    // The archive key likewise: only the branch steps that decrypt and encrypt see it.
    const withKey = steps.filter((step) => JSON.stringify(step).replaceAll("inputs.archive-key != ''", '').includes('inputs.archive-key'));
    expect(withKey.map((step) => step.name)).toEqual(['Restore the archive (branch)', 'Save the archive (branch)']);
  });

  it('restores the archive before the crawl, saves it after (whatever the crawl did), and uploads the build', async () => {
    const steps = (await loadAction()).runs.steps;
    const crawl = stepIndex(steps, 'crawls', (step) => step.run?.includes('tmsnap crawl') ?? false);
    expect(steps[crawl]?.run).toContain('--max-duration "$MAX_DURATION"');
    // The crawl step itself never fails on exit 1: the save below must run.
    expect(steps[crawl]?.run).toContain('set +e');
    for (const [home, condition] of [
      ['cache', "steps.inputs.outputs.home == 'cache'"],
      ['branch', "steps.inputs.outputs.home != 'cache'"],
    ] as const) {
      const chosen = steps.filter((step) => step.if === undefined || step.if === condition);
      const restore = stepIndex(chosen, `restores (${home})`, (step) => /^Restore/.test(step.name ?? ''));
      const at = chosen.findIndex((step) => step.run?.includes('tmsnap crawl'));
      const save = stepIndex(chosen, `saves (${home})`, (step) => /^Save/.test(step.name ?? ''));
      expect(restore).toBeLessThan(at);
      expect(save).toBeGreaterThan(at);
      expect(chosen[save]?.if).toBe(condition);
    }
    const upload = stepIndex(steps, 'uploads the site', (step) => step.uses?.startsWith('actions/upload-pages-artifact@') ?? false);
    expect(upload).toBeGreaterThan(stepIndex(steps, 'builds', (step) => step.run?.includes('tmsnap build') ?? false));
    expect(steps[upload]?.if).toBe("steps.build.outputs.path != ''");
  });

  it('keeps the archive on a branch by default, and publishes no extra beyond the anonymous view by default', async () => {
    const action = await loadAction();
    expect(action.inputs.archive?.default).toBe('auto');
    expect(action.inputs['archive-branch']?.default).toBe('tmsnap-archive');
    expect(action.inputs.publish?.default).toBe('');
    expect(action.inputs['keep-alive']?.default).toBe('true');
    const pushes = action.runs.steps.filter((step) => step.run?.includes('git') && step.run.includes('push'));
    expect(pushes).toHaveLength(1);
    expect(pushes[0]?.if).toBe("steps.inputs.outputs.home != 'cache'");
    // The build names --publish only inside a test of the input: never an extra by default.
    const build = action.runs.steps.find((step) => step.run?.includes('tmsnap build'))!;
    expect(build.run).toContain('if [ -n "$PUBLISH" ]; then args+=(--publish "$PUBLISH"); fi');
    expect(build.run!.match(/--publish/g)).toHaveLength(1);
  });

  it('installs its own version from npm by default, or its own files packed with version: source', async () => {
    const install = (await loadAction()).runs.steps.find((step) => step.name === 'Install tmsnap')!;
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    const scratch = await mkdtemp(join(tmpdir(), 'tmsnap-install-'));
    try {
      const shims = join(scratch, 'bin');
      await mkdir(shims);
      await writeFile(join(shims, 'npm'), `#!/bin/bash\necho "npm $*" >> "$LOG"\nif [ "$1" = pack ]; then echo tmsnap-${pkg.version}.tgz; fi\n`);
      await chmod(join(shims, 'npm'), 0o755);
      const calls = async (version: string) => {
        const log = join(scratch, `log-${version || 'default'}`);
        const result = await runSteps([install], {
          inputs: { version },
          runner: { temp: scratch },
          path: [shims, process.env.PATH].join(delimiter),
          env: { LOG: log, GITHUB_ACTION_PATH: root },
        });
        expect(result.failed).toBeUndefined();
        return (await readFile(log, 'utf8')).trim().split('\n');
      };
      expect(await calls('')).toEqual([`npm install -g --no-audit --no-fund tmsnap@${pkg.version}`]);
      expect(await calls('0.9.1')).toEqual(['npm install -g --no-audit --no-fund tmsnap@0.9.1']);
      expect(await calls('source')).toEqual([
        'npm ci --no-audit --no-fund',
        `npm pack --silent --pack-destination ${scratch}`,
        `npm install -g --no-audit --no-fund ${join(scratch, `tmsnap-${pkg.version}.tgz`)}`,
      ]);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

describe('the example workflow in docs/publishing.md', () => {
  it('grants what the archive branch and the keep-alive need, and the docs say what GitHub does to idle schedules', async () => {
    const { workflow } = await loadExample();
    const job = Object.values(workflow.jobs).find((candidate) => candidate.steps.some((step) => step.uses?.startsWith('tmsnap/tmsnap@')))!;
    expect(job.permissions).toMatchObject({ contents: 'write', actions: 'write' });
    const doc = await readFile(join(root, 'docs', 'publishing.md'), 'utf8');
    const idle = doc.slice(doc.indexOf('### Idle repositories'));
    expect(idle).toContain('60 days');
    expect(idle).toContain('actions: write');
    expect(doc).toContain('evicts a cache entry unused for 7 days');
  });

  it('is short, parses, runs nightly, and uses the Action and the Node 24 deploy-pages', async () => {
    const { text, workflow } = await loadExample();
    expect(text.trim().split('\n').length).toBeLessThanOrEqual(36);
    expect(workflow.on.schedule?.[0]?.cron.split(' ')).toHaveLength(5);
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    expect(steps.map((step) => step.uses?.replace(/^tmsnap\/tmsnap@.*$/, 'tmsnap/tmsnap@<ref>'))).toEqual([
      'actions/checkout@v5',
      'tmsnap/tmsnap@<ref>',
      'actions/deploy-pages@v5',
    ]);
    const deploy = Object.values(workflow.jobs).find((job) => job.steps.some((step) => step.uses?.startsWith('actions/deploy-pages@')));
    expect(deploy?.permissions).toMatchObject({ pages: 'write', 'id-token': 'write' });
    expect(deploy?.needs).toBe('crawl-and-build');
  });

  it('names a ref of the Action that resolves today: @main with version: source until the CHANGELOG has a release of the major (issue 35)', async () => {
    const { workflow } = await loadExample();
    const step = Object.values(workflow.jobs)
      .flatMap((job) => job.steps)
      .find((candidate) => candidate.uses?.startsWith('tmsnap/tmsnap@'))!;
    const ref = step.uses!.split('@')[1]!;
    // The release workflow dates a section when it releases it (docs/publishing.md, "Releasing tmsnap").
    const changelog = await readFile(join(root, 'CHANGELOG.md'), 'utf8');
    const released = new Set([...changelog.matchAll(/^## (\d+)\.\d+\.\d+ \(\d{4}-\d\d-\d\d\)$/gm)].map((match) => Number(match[1])));
    if (ref === 'main') {
      // main's package.json holds the next version, not yet on npm: only the Action's own files install.
      expect(step.with?.version, 'tmsnap/tmsnap@main installs from npm what is not there without version: source').toBe('source');
    } else {
      const major = /^v(\d+)$/.exec(ref)?.[1];
      expect(major, `tmsnap/tmsnap@${ref}: the repository has main and the vN tags of releases`).toBeDefined();
      expect(released.has(Number(major)), `tmsnap/tmsnap@${ref} resolves only once a ${major}.x release is made`).toBe(true);
    }
  });

  it('passes the secret only as the token input, and a crawl deadline 30 minutes under the job timeout', async () => {
    const { workflow } = await loadExample();
    const job = Object.values(workflow.jobs).find((candidate) => candidate.steps.some((step) => step.uses?.startsWith('tmsnap/tmsnap@')))!;
    const step = job.steps.find((candidate) => candidate.uses?.startsWith('tmsnap/tmsnap@'))!;
    expect(step.with?.token).toBe('${{ secrets.WEBLATE_TOKEN }}');
    expect(step.with?.['archive-key']).toBe('${{ secrets.TMSNAP_ARCHIVE_KEY }}');
    expect(JSON.stringify({ ...step, with: { ...step.with, token: '', 'archive-key': '' } })).not.toContain('secrets.');
    const hours = Number(/^(\d+)h$/.exec(String(step.with?.['max-duration']))?.[1]);
    expect(job['timeout-minutes']! - hours * 60).toBeGreaterThanOrEqual(30);
    const action = await loadAction();
    for (const input of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs), input).toContain(input);
  });
});

it('catches a script that runs an unknown subcommand or flag', async () => {
  const bad: Step[] = [{ run: 'tmsnap verify --content archive --no-such-flag && node bin/tmsnap.js frobnicate --out x' }];
  expect(await problems(invocations(bad))).toEqual([
    'tmsnap verify: --no-such-flag is not in its --help',
    'tmsnap frobnicate: no such subcommand (its --help failed)',
  ]);
}, 60_000);

/**
 * Runs the Action's `run:` steps as a runner would (runner.ts), its inputs' defaults filled in;
 * `uses:` steps are skipped (configure-pages' outputs are given) and `tmsnap` is this checkout,
 * not the npm install. Every step must succeed unless `mayFail` is set.
 */
async function runAction(context: {
  inputs: Record<string, string>;
  github: Record<string, string>;
  runner: { temp: string };
  pagesOutputs: Record<string, string>;
  stopAfter?: string;
  path: string;
  env?: Record<string, string>;
  mayFail?: boolean;
  /** The job's workspace, where a workflow's checkout put the user's repository. */
  cwd?: string;
  /** Run the Install step too (with an `npm` on the path that only writes its calls down). */
  install?: boolean;
}): Promise<RunResult> {
  const action = await loadAction();
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, context.inputs[name] ?? input.default ?? '']));
  const result = await runSteps(action.runs.steps, {
    ...context,
    inputs,
    outputs: { pages: context.pagesOutputs },
    skip: context.install ? [] : ['Install tmsnap'],
  });
  if (result.failed && !context.mayFail) console.error(`step "${result.failed.name}" exited ${result.failed.code}:\n${result.logs[result.failed.name]}`);
  if (!context.mayFail) expect(result.failed).toBeUndefined();
  return result;
}

describe('the Action’s shell steps, run for real', () => {
  let scratch: string;
  let shims: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'tmsnap-action-'));
    shims = join(scratch, 'bin');
    await mkdir(shims);
    await writeFile(join(shims, 'tmsnap'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
    // gh: the keep-alive call written down; it fails when GH_FAIL is set, as without actions: write.
    await writeFile(
      join(shims, 'gh'),
      `#!/bin/bash\necho "gh $*" >> "$LOG"\nif [ -n "$GH_FAIL" ]; then echo "HTTP 403: Resource not accessible by integration" >&2; exit 1; fi\n`,
    );
    // npm: the Install step's calls written down (a packed tarball named), tmsnap being the shim above.
    await writeFile(join(shims, 'npm'), `#!/bin/bash\necho "npm $*" >> "$LOG"\nif [ "$1" = pack ]; then echo tmsnap-0.0.0.tgz; fi\n`);
    for (const name of ['tmsnap', 'gh', 'npm']) await chmod(join(shims, name), 0o755);
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  /** A run of the Action in a fresh runner temp folder, against the bare repository `origin`. */
  async function runOnce(
    origin: string,
    inputs: Record<string, string>,
    options: { stopAfter?: string; mayFail?: boolean; env?: Record<string, string> } = {},
  ) {
    const temp = await mkdtemp(join(scratch, 'run-'));
    const log = join(temp, 'calls.log');
    const result = await runAction({
      inputs: { 'max-duration': '10m', ...inputs },
      github: {
        token: 'ghs_not_a_real_token',
        server_url: `file://${dirname(origin)}`,
        repository: basename(origin),
        workflow_ref: 'me/site/.github/workflows/tmsnap.yml@refs/heads/main',
      },
      runner: { temp },
      pagesOutputs: { base_url: 'https://user.github.io/repo', base_path: '/repo' },
      path: [shims, process.env.PATH].join(delimiter),
      env: { LOG: log, ...options.env },
      ...options,
    });
    return { ...result, temp, calls: await readFile(log, 'utf8').catch(() => '') };
  }

  async function newOrigin(): Promise<string> {
    const origin = join(await mkdtemp(join(scratch, 'origin-')), 'origin.git');
    await run('git', ['init', '-q', '--bare', origin]);
    return origin;
  }

  const branchFiles = async (origin: string) =>
    (await run('git', ['--git-dir', origin, 'ls-tree', '-r', '--name-only', 'tmsnap-archive'])).stdout.split('\n').filter(Boolean);

  it('anonymous (the default): crawl, prune, verify, save on the archive branch, keep alive, build; the next run restores and adds a snapshot', async () => {
    const server = await startTestServer();
    try {
      const origin = await newOrigin();
      const first = await runOnce(origin, { url: server.url });
      expect(first.steps.inputs?.home).toBe('branch');
      expect(first.steps.crawl?.code).toBe('0');
      const feed = await readFile(join(first.steps.build!.path!, 'changes', 'feed.xml'), 'utf8');
      expect(feed).toContain('https://user.github.io/repo/');
      const branch = await branchFiles(origin);
      expect(branch.some((path) => path.startsWith('snapshots/'))).toBe(true);
      expect(branch.some((path) => path.startsWith('objects/'))).toBe(true);
      expect(first.calls).toBe('gh api --silent -X PUT repos/origin.git/actions/workflows/tmsnap.yml/enable\n');
      expect(first.summary).toContain(`Published the site of snapshot ${first.steps.build?.snapshot}.`);
      expect(first.summary).not.toContain('WARNING');

      const firstIds = branch.filter((path) => path.endsWith('/manifest.json')).map((path) => path.split('/')[1]);
      expect(firstIds).toHaveLength(1);
      const again = await runOnce(origin, { url: server.url }, { stopAfter: 'Save the archive (branch)' });
      expect(again.steps.crawl?.code).toBe('0');
      // Restored, then crawled: two snapshots of one day, of which prune keeps the newer.
      expect(again.logs['Prune and verify the archive']).toContain(`removing snapshot ${firstIds[0]}`);
      const secondIds = (await readdir(join(again.temp, 'tmsnap-archive', 'snapshots'))).filter((name) => !name.startsWith('.'));
      expect(secondIds).toHaveLength(1);
      expect(secondIds[0]).not.toBe(firstIds[0]);
      const log = (await run('git', ['--git-dir', origin, 'log', '--oneline', 'tmsnap-archive'])).stdout.trim().split('\n');
      expect(log, 'one commit, force-pushed').toHaveLength(1);
    } finally {
      await server.close();
    }
  }, 300_000);

  it('with a token and archive-key: the branch holds only the encrypted archive, which the next run decrypts and continues', async () => {
    const server = await startTestServer({ behaviours: { tokens: ['wlu_test_key'] } });
    try {
      const origin = await newOrigin();
      const inputs = { url: server.url, token: 'wlu_test_key', 'archive-key': 'correct horse battery staple' };
      const first = await runOnce(origin, inputs);
      expect(first.steps.inputs?.home).toBe('branch-encrypted');
      expect(first.steps.crawl?.code).toBe('0');
      expect(await branchFiles(origin)).toEqual(['archive.tar.gpg.000']);
      const blob = (
        await run('git', ['--git-dir', origin, 'cat-file', 'blob', 'tmsnap-archive:archive.tar.gpg.000'], { encoding: 'latin1', maxBuffer: 256 * 1024 * 1024 })
      ).stdout;
      for (const plain of ['manifest.json', 'snapshots/', 'hello']) expect(blob).not.toContain(plain);
      const again = await runOnce(origin, inputs, { stopAfter: 'Prune and verify the archive' });
      expect(again.logs['Crawl']).not.toContain('full crawl');
      const ids = (await readdir(join(again.temp, 'tmsnap-archive', 'snapshots'))).filter((name) => !name.startsWith('.'));
      expect(ids.length, 'the first snapshot was restored from the encrypted branch').toBeGreaterThanOrEqual(1);
      expect(again.logs['Prune and verify the archive']).toContain('removing snapshot');
      const wrong = await runOnce(origin, { ...inputs, 'archive-key': '', archive: 'branch' }, { mayFail: true });
      expect(wrong.failed?.name).toBe('Restore the archive (branch)');
      expect(wrong.logs['Restore the archive (branch)']).toContain('holds an encrypted archive: give archive-key');
    } finally {
      await server.close();
    }
  }, 300_000);

  it('with a token and no archive-key: the Actions cache, pushing nothing, with a warning in the job summary', async () => {
    const server = await startTestServer({ behaviours: { tokens: ['wlu_test_key'] } });
    try {
      const origin = await newOrigin();
      const result = await runOnce(origin, { url: server.url, token: 'wlu_test_key' }, { stopAfter: 'Save the archive (branch)' });
      expect(result.steps.inputs?.home).toBe('cache');
      expect(result.summary).toContain('evicts after 7 days without a run');
      expect(result.logs['Save the archive (branch)']).toBeUndefined();
      expect((await run('git', ['--git-dir', origin, 'branch', '--list'])).stdout).toBe('');
    } finally {
      await server.close();
    }
  }, 300_000);

  it('a crawl that hits its deadline publishes the newest complete snapshot with a notice on the site and in the job summary', async () => {
    const server = await startTestServer();
    // Every answer of this server takes 1.5 s: a one-second crawl runs out of time.
    const slow = await startTestServer({ behaviours: { faults: { seed: 1, slowRate: 1, slowMs: 1500 } } });
    try {
      const origin = await newOrigin();
      const first = await runOnce(origin, { url: server.url });
      const done = first.steps.build!.snapshot!;
      const late = await runOnce(origin, { url: slow.url, 'max-duration': '1' }, { env: { GH_FAIL: '1' } });
      expect(late.failed).toBeUndefined();
      expect(late.steps.crawl).toMatchObject({ code: '1', stopped: 'deadline' });
      expect(late.steps.build?.snapshot).toBe(done);
      const page = await readFile(join(late.steps.build!.path!, 'index.html'), 'utf8');
      expect(page).toContain('The latest crawl stopped at its time limit (1) before the end');
      expect(page).toContain(done);
      expect(late.summary).toContain(`The crawl stopped at its time limit (1) before the end. The site was built from ${done}`);
      // Without actions: write, the keep-alive says what to do instead of failing the run.
      expect(late.summary).toContain('grant the job permissions actions: write');
    } finally {
      await Promise.all([server.close(), slow.close()]);
    }
  }, 300_000);

  /**
   * The job of docs/publishing.md's workflow that uses the Action, as a user copies it: its
   * checkout (a clone of `repository` into the workspace), then the Action with the page's
   * `with:`, every `${{ … }}` filled from `secrets` and the run's `inputs`; only the values a
   * user replaces with their own (`url`, `projects`) are this test's.
   */
  async function runCopiedWorkflow(
    origin: string,
    repository: string,
    copy: { url: string; project: string; secrets: Record<string, string>; inputs: Record<string, string>; mayFail?: boolean },
  ) {
    const { workflow } = await loadExample();
    const job = Object.values(workflow.jobs).find((candidate) => candidate.steps.some((step) => step.uses?.startsWith('tmsnap/tmsnap@')))!;
    const temp = await mkdtemp(join(scratch, 'run-'));
    // GitHub makes the workspace, empty, for every job; checkout fills it.
    const workspace = join(temp, 'workspace');
    await mkdir(workspace);
    const log = join(temp, 'calls.log');
    const github = {
      token: 'ghs_not_a_real_token',
      server_url: `file://${dirname(origin)}`,
      repository: basename(origin),
      workflow_ref: 'me/site/.github/workflows/tmsnap.yml@refs/heads/main',
    };
    const { fill } = expressions({ inputs: copy.inputs, secrets: copy.secrets, github, runner: { temp } });
    let result: RunResult | undefined;
    for (const step of job.steps) {
      if (step.uses?.startsWith('actions/checkout@')) {
        await run('git', ['clone', '-q', repository, '.'], { cwd: workspace });
      } else if (step.uses?.startsWith('tmsnap/tmsnap@')) {
        const given = Object.fromEntries(Object.entries(step.with ?? {}).map(([name, value]) => [name, fill(String(value))]));
        expect(given.url, 'the page gives a server to replace').toMatch(/^https:\/\//);
        result = await runAction({
          inputs: { ...given, url: copy.url, projects: copy.project },
          github,
          runner: { temp },
          pagesOutputs: { base_url: 'https://user.github.io/repo', base_path: '/repo' },
          path: [shims, process.env.PATH].join(delimiter),
          env: { LOG: log, GITHUB_WORKSPACE: workspace, GITHUB_ACTION_PATH: root },
          cwd: workspace,
          install: true,
          mayFail: copy.mayFail ?? false,
        });
      } else {
        throw new Error(`docs/publishing.md's job has a step this test cannot run: ${JSON.stringify(step)}`);
      }
    }
    expect(result, 'the job runs the Action').toBeDefined();
    return { ...result!, temp, calls: await readFile(log, 'utf8').catch(() => '') };
  }

  it("the workflow of docs/publishing.md as copied: the repository's settings file, then a release tagged from Run workflow (issue 35)", async () => {
    const server = await startTestServer({ behaviours: { tokens: ['wlu_test_key'] } });
    try {
      const origin = await newOrigin();
      // The user's repository: the settings file of docs/site.md and the stylesheet it names.
      const repository = join(await mkdtemp(join(scratch, 'user-')), 'site');
      await mkdir(join(repository, 'brand'), { recursive: true });
      await writeFile(
        join(repository, 'tmsnap.config.json'),
        JSON.stringify({ title: 'Hello translations', css: 'brand/site.css', uiLang: 'de', credits: true, levels: 'beta=50' }),
      );
      await writeFile(join(repository, 'brand', 'site.css'), ':root { --link: #a0f; }\n');
      await run('git', ['init', '-q', repository]);
      await run('git', ['-C', repository, 'add', '.']);
      await run('git', ['-C', repository, '-c', 'user.name=me', '-c', 'user.email=me@example.invalid', 'commit', '-qm', 'site settings']);
      const secrets = { WEBLATE_TOKEN: 'wlu_test_key', TMSNAP_ARCHIVE_KEY: 'correct horse battery staple' };
      const copied = { url: server.url, project: 'hello', secrets };

      // The nightly run: no inputs.
      const nightly = await runCopiedWorkflow(origin, repository, { ...copied, inputs: {} });
      expect(nightly.calls).toContain('npm pack');
      expect(nightly.steps.inputs?.home).toBe('branch-encrypted');
      const site = nightly.steps.build!.path!;
      const home = await readFile(join(site, 'index.html'), 'utf8');
      expect(home).toMatch(/<title>[^<]*Hello translations[^<]*<\/title>/);
      expect(home).toContain('lang="de"');
      expect(home).toContain('assets/brand/custom.css');
      await expect(readFile(join(site, 'credits', 'index.html'), 'utf8')).resolves.toContain('Hello translations');

      // Run workflow with tag v1.0: tagged in the archive on its branch, encrypted, and on the site.
      const release = await runCopiedWorkflow(origin, repository, { ...copied, inputs: { tag: 'v1.0' } });
      const snapshot = release.steps.build!.snapshot!;
      expect(release.summary).toContain(`Release: tagged ${snapshot} as v1.0.`);
      await expect(readFile(join(release.steps.build!.path!, 'releases', 'v1.0', 'index.html'), 'utf8')).resolves.toContain('v1.0');
      expect(await branchFiles(origin)).toEqual(['archive.tar.gpg.000']);
      const decrypt = `git --git-dir "$ORIGIN" cat-file blob tmsnap-archive:archive.tar.gpg.000 | gpg --batch --quiet --pinentry-mode loopback --passphrase "$KEY" --decrypt | tar -xO ./tags.json`;
      const tags = await run('bash', ['-c', decrypt], {
        env: { ...process.env, ORIGIN: origin, KEY: secrets.TMSNAP_ARCHIVE_KEY, GNUPGHOME: nightly.temp },
      });
      expect(JSON.parse(tags.stdout)).toMatchObject({ tags: { 'v1.0': snapshot } });

      // The same tag again: one line saying why, and the job fails, after the save (the tag step never fails itself).
      const steps = (await loadAction()).runs.steps.filter((step) => step.name === 'Tag a release' || step.name === 'Report');
      const again = await runSteps(steps, {
        inputs: { tag: 'v1.0' },
        runner: { temp: release.temp },
        outputs: { crawl: { code: '0' }, build: { snapshot } },
        path: [shims, process.env.PATH].join(delimiter),
        env: { TMSNAP_CONTENT: join(release.temp, 'tmsnap-archive') },
      });
      expect(again.failed?.name).toBe('Report');
      expect(again.summary).toContain(`The release tag was not set: tag v1.0 exists (snapshot ${snapshot})`);
    } finally {
      await server.close();
    }
  }, 300_000);

  it('a first crawl that hits its deadline ends in one clear message, not a build error', async () => {
    const slow = await startTestServer({ behaviours: { faults: { seed: 1, slowRate: 1, slowMs: 1500 } } });
    try {
      const origin = await newOrigin();
      const result = await runOnce(origin, { url: slow.url, 'max-duration': '1' }, { mayFail: true });
      expect(result.steps.crawl).toMatchObject({ code: '1', stopped: 'deadline' });
      expect(result.steps.build?.path).toBeUndefined();
      expect(result.failed?.name).toBe('Report');
      const message = 'The first crawl stopped at its time limit (1) before the end, so there is no complete snapshot to publish yet.';
      expect(result.summary).toContain(message);
      expect(result.logs['Report']).toContain(`::error::${message}`);
      expect(JSON.stringify(result.logs)).not.toContain('tmsnap crawl` first');
      // The crawl stopped before the server's first answer: it stored nothing, so prune removed its
      // unfinished snapshot and no snapshot is saved for the next run (issue 35, docs/crawl.md).
      expect((await branchFiles(origin)).some((path) => path.startsWith('snapshots/'))).toBe(false);
    } finally {
      await slow.close();
    }
  }, 300_000);
});
