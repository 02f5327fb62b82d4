import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestServer } from '../helpers/reference-server.ts';
import { type RunResult, type Step, runSteps } from './runner.ts';

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
    const used = new Set([...text.matchAll(/inputs\.([\w-]+)/g)].map((match) => match[1]));
    expect([...used].filter((name) => !(name! in action.inputs))).toEqual([]);
    expect(Object.keys(action.inputs).filter((name) => !used.has(name))).toEqual([]);
    expect(action.inputs.url?.required).toBe(true);
  });

  it('runs only tmsnap subcommands and flags that the CLI lists in its --help', async () => {
    const found = invocations((await loadAction()).runs.steps);
    expect([...new Set(found.map((i) => i.subcommand))].sort()).toEqual(['build', 'crawl', 'prune', 'verify']);
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

  it('gives the token to the crawl step alone, through its environment', async () => {
    const steps = (await loadAction()).runs.steps;
    const withToken = steps.filter((step) => JSON.stringify(step).includes('inputs.token'));
    expect(withToken).toHaveLength(1);
    expect(withToken[0]?.env?.WEBLATE_TOKEN).toBe('${{ inputs.token }}');
    expect(withToken[0]?.run).toContain('tmsnap crawl');
    expect(withToken[0]?.run).not.toContain('inputs.');
  });

  it('restores the archive before the crawl, saves it after (whatever the crawl did), and uploads the build', async () => {
    const steps = (await loadAction()).runs.steps;
    const crawl = stepIndex(steps, 'crawls', (step) => step.run?.includes('tmsnap crawl') ?? false);
    expect(steps[crawl]?.run).toContain('--max-duration "$MAX_DURATION"');
    // The crawl step itself never fails on exit 1: the save below must run.
    expect(steps[crawl]?.run).toContain('set +e');
    for (const mode of ['omit', 'publish']) {
      const chosen = steps.filter((step) => step.if === undefined || step.if.includes(`'${mode}'`));
      const restore = stepIndex(chosen, `restores (${mode})`, (step) => /^Restore/.test(step.name ?? ''));
      const at = chosen.findIndex((step) => step.run?.includes('tmsnap crawl'));
      const save = stepIndex(chosen, `saves (${mode})`, (step) => /^Save/.test(step.name ?? ''));
      expect(restore).toBeLessThan(at);
      expect(save).toBeGreaterThan(at);
      expect(chosen[save]?.if).toBe(`inputs.private-data == '${mode}'`);
    }
    const upload = stepIndex(steps, 'uploads the site', (step) => step.uses?.startsWith('actions/upload-pages-artifact@') ?? false);
    expect(upload).toBeGreaterThan(stepIndex(steps, 'builds', (step) => step.run?.includes('tmsnap build') ?? false));
  });

  it('keeps private data out of anything public by default: the archive branch is opt-in', async () => {
    const action = await loadAction();
    expect(action.inputs['private-data']?.default).toBe('omit');
    const pushes = action.runs.steps.filter((step) => step.run?.includes('git') && step.run.includes('push'));
    expect(pushes).toHaveLength(1);
    expect(pushes[0]?.if).toBe("inputs.private-data == 'publish'");
  });
});

describe('the example workflow in docs/publishing.md', () => {
  it('is short, parses, runs nightly, and uses the Action and the Node 24 deploy-pages', async () => {
    const { text, workflow } = await loadExample();
    expect(text.trim().split('\n').length).toBeLessThanOrEqual(30);
    expect(workflow.on.schedule?.[0]?.cron.split(' ')).toHaveLength(5);
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    expect(steps.map((step) => step.uses)).toEqual(['tmsnap/tmsnap@v0', 'actions/deploy-pages@v5']);
    const deploy = Object.values(workflow.jobs).find((job) => job.steps.some((step) => step.uses?.startsWith('actions/deploy-pages@')));
    expect(deploy?.permissions).toMatchObject({ pages: 'write', 'id-token': 'write' });
    expect(deploy?.needs).toBe('crawl-and-build');
  });

  it('passes the secret only as the token input, and a crawl deadline 30 minutes under the job timeout', async () => {
    const { workflow } = await loadExample();
    const job = Object.values(workflow.jobs).find((candidate) => candidate.steps.some((step) => step.uses?.startsWith('tmsnap/tmsnap@')))!;
    const step = job.steps.find((candidate) => candidate.uses?.startsWith('tmsnap/tmsnap@'))!;
    expect(step.with?.token).toBe('${{ secrets.WEBLATE_TOKEN }}');
    expect(JSON.stringify({ ...step, with: { ...step.with, token: '' } })).not.toContain('secrets.');
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
  mayFail?: boolean;
}): Promise<RunResult> {
  const action = await loadAction();
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, context.inputs[name] ?? input.default ?? '']));
  const result = await runSteps(action.runs.steps, {
    ...context,
    inputs,
    outputs: { pages: context.pagesOutputs },
    skip: ['Install tmsnap'],
  });
  if (result.failed && !context.mayFail) console.error(`step "${result.failed.name}" exited ${result.failed.code}:\n${result.logs[result.failed.name]}`);
  if (!context.mayFail) expect(result.failed).toBeUndefined();
  return result;
}

describe('the Action’s shell steps, run for real', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'tmsnap-action-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('crawl, prune, verify, save to the archive branch, build; the next run restores it and adds a snapshot', async () => {
    const server = await startTestServer();
    try {
      const shims = join(scratch, 'bin');
      await mkdir(shims);
      await writeFile(join(shims, 'tmsnap'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
      await chmod(join(shims, 'tmsnap'), 0o755);
      await run('git', ['init', '-q', '--bare', join(scratch, 'origin.git')]);
      const context = (temp: string) => ({
        inputs: { url: server.url, 'private-data': 'publish', 'max-duration': '10m' },
        github: { token: 'ghs_not_a_real_token', server_url: `file://${scratch}`, repository: 'origin.git' },
        runner: { temp },
        pagesOutputs: { base_url: 'https://user.github.io/repo', base_path: '/repo' },
        path: [shims, process.env.PATH].join(delimiter),
      });
      const first = join(scratch, 'run-1');
      await mkdir(first);
      const { steps } = await runAction(context(first));
      expect(steps.crawl?.code).toBe('0');
      const feed = await readFile(join(steps.build!.path!, 'changes', 'feed.xml'), 'utf8');
      expect(feed).toContain('https://user.github.io/repo/');
      const branch = (await run('git', ['--git-dir', join(scratch, 'origin.git'), 'ls-tree', '-r', '--name-only', 'tmsnap-archive'])).stdout.split('\n');
      expect(branch.some((path) => path.startsWith('snapshots/'))).toBe(true);
      expect(branch.some((path) => path.startsWith('objects/'))).toBe(true);

      const second = join(scratch, 'run-2');
      await mkdir(second);
      const firstIds = branch.filter((path) => path.endsWith('/manifest.json')).map((path) => path.split('/')[1]);
      expect(firstIds).toHaveLength(1);
      const again = await runAction({ ...context(second), stopAfter: 'Save the archive (branch)' });
      expect(again.steps.crawl?.code).toBe('0');
      // Restored, then crawled: two snapshots of one day, of which prune keeps the newer.
      expect(again.logs['Prune and verify the archive']).toContain(`removing snapshot ${firstIds[0]}`);
      const secondIds = (await readdir(join(second, 'tmsnap-archive', 'snapshots'))).filter((name) => !name.startsWith('.'));
      expect(secondIds).toHaveLength(1);
      expect(secondIds[0]).not.toBe(firstIds[0]);
      const log = (await run('git', ['--git-dir', join(scratch, 'origin.git'), 'log', '--oneline', 'tmsnap-archive'])).stdout.trim().split('\n');
      expect(log, 'one commit, force-pushed').toHaveLength(1);
    } finally {
      await server.close();
    }
  }, 300_000);
});
