import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * Lints the GitHub Actions workflow that docs/publishing.md ships: valid YAML of the shape
 * Actions expects, and every `tmsnap` subcommand and flag it runs answered by the CLI's own
 * `--help`, so renaming a flag without updating the workflow fails here instead of at 3 a.m.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const workflowPath = fileURLToPath(new URL('../../docs/workflows/nightly.yml', import.meta.url));
const run = promisify(execFile);

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  if?: string;
  with?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  needs?: string | string[];
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { schedule?: { cron: string }[]; workflow_dispatch?: unknown };
  jobs: Record<string, Job>;
}

interface Invocation {
  subcommand: string;
  flags: string[];
  /** The value after each flag, as written (variables unexpanded). */
  values: Map<string, string>;
  step: Step;
}

/** Shell words of one line: enough quoting for a workflow, not a shell. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) out.push(match[1] ?? match[2] ?? match[3] ?? '');
  return out;
}

/** Every `tmsnap <subcommand> --flag …` a workflow's `run:` scripts execute. */
function invocations(workflow: Workflow): Invocation[] {
  const found: Invocation[] = [];
  for (const job of Object.values(workflow.jobs)) {
    for (const step of job.steps) {
      if (step.run === undefined) continue;
      const script = step.run.replace(/\\\n/g, ' ');
      for (const command of script.split(/\n|;|&&|\|\||\|/)) {
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
        found.push({ subcommand: args[0] ?? '', flags, values, step });
      }
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
        run(process.execPath, ['bin/tmsnap.js', subcommand, '--help'], { cwd: root }).then(
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
    for (const flag of flags) {
      if (!new RegExp(`${flag}(?![\\w-])`).test(help)) out.push(`tmsnap ${subcommand}: ${flag} is not in its --help`);
    }
  }
  return out;
}

async function loadWorkflow(): Promise<Workflow> {
  return parse(await readFile(workflowPath, 'utf8')) as Workflow;
}

describe('docs/workflows/nightly.yml', () => {
  it('is a workflow Actions can run: a nightly schedule, jobs with runners, steps that run or use something', async () => {
    const workflow = await loadWorkflow();
    const cron = workflow.on.schedule?.[0]?.cron ?? '';
    expect(cron.split(' ')).toHaveLength(5);
    expect(Object.keys(workflow.jobs).length).toBeGreaterThan(0);
    for (const [name, job] of Object.entries(workflow.jobs)) {
      expect(job['runs-on'], name).toBeTruthy();
      for (const step of job.steps) expect(Boolean(step.run) !== Boolean(step.uses), `${name}: ${step.name ?? step.uses}`).toBe(true);
    }
  });

  it('runs only tmsnap subcommands and flags that the CLI lists in its --help', async () => {
    const found = await invocations(await loadWorkflow());
    expect(found.map((i) => i.subcommand).sort()).toEqual(['build', 'crawl', 'prune', 'verify']);
    expect(await problems(found)).toEqual([]);
  }, 120_000);

  it('reads and writes one content directory across crawl, prune, verify and build', async () => {
    const found = await invocations(await loadWorkflow());
    const dirs = found.map((i) => (i.subcommand === 'crawl' ? i.values.get('--out') : i.values.get('--content')));
    expect(new Set(dirs).size).toBe(1);
    expect(dirs[0]).toBeTruthy();
  });

  it('gives the WEBLATE_TOKEN secret to the crawl step alone, through the environment', async () => {
    const workflow = await loadWorkflow();
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    const withSecret = steps.filter((step) => JSON.stringify(step).includes('secrets.'));
    expect(withSecret).toHaveLength(1);
    expect(withSecret[0]?.env?.WEBLATE_TOKEN).toBe('${{ secrets.WEBLATE_TOKEN }}');
    expect(withSecret[0]?.run).toMatch(/tmsnap\.js crawl /);
    expect(withSecret[0]?.run).not.toContain('secrets.');
    for (const job of Object.values(workflow.jobs)) expect(JSON.stringify(job.env ?? {})).not.toContain('secrets.');
  });

  it('restores the archive before the crawl, saves it after, and deploys the build to Pages', async () => {
    const workflow = await loadWorkflow();
    const build = Object.values(workflow.jobs).find((job) => job.steps.some((step) => step.run?.includes('tmsnap.js crawl')));
    const names = build?.steps.map((step) => step.run ?? step.uses ?? '') ?? [];
    const crawl = names.findIndex((text) => text.includes('tmsnap.js crawl'));
    expect(names.findIndex((text) => text.includes('git fetch'))).toBeLessThan(crawl);
    expect(names.findIndex((text) => text.includes('git push'))).toBeGreaterThan(crawl);
    expect(build?.permissions?.contents).toBe('write');
    const deploy = Object.values(workflow.jobs).find((job) => job.steps.some((step) => step.uses?.startsWith('actions/deploy-pages@')));
    expect(deploy?.permissions).toMatchObject({ pages: 'write', 'id-token': 'write' });
    expect(build?.steps.some((step) => step.uses?.startsWith('actions/upload-pages-artifact@'))).toBe(true);
  });

  it('catches a workflow that runs an unknown subcommand or flag', async () => {
    const bad = parse(`
on: { workflow_dispatch: {} }
jobs:
  x:
    runs-on: ubuntu-latest
    steps:
      - run: node bin/tmsnap.js verify --content archive --no-such-flag && node bin/tmsnap.js frobnicate --out x
`) as Workflow;
    expect(await problems(invocations(bad))).toEqual([
      'tmsnap verify: --no-such-flag is not in its --help',
      'tmsnap frobnicate: no such subcommand (its --help failed)',
    ]);
  }, 60_000);
});
