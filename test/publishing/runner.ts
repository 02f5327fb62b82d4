import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Runs the `run:` steps of an Action or a workflow job in order, as a runner would: `${{ … }}`
 * in `env:` filled from the context (inputs, github, secrets, runner.temp, steps' outputs),
 * `if:` decided, GITHUB_OUTPUT, GITHUB_ENV and GITHUB_STEP_SUMMARY honoured, and the first step
 * that fails ends the run. `uses:` steps and the steps named in `skip` are not run; the outputs
 * of `uses:` steps that later steps read are given in `outputs`.
 */

export interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  if?: string;
  with?: Record<string, unknown>;
}

export interface RunContext {
  inputs: Record<string, string>;
  github?: Record<string, string>;
  secrets?: Record<string, string>;
  runner: { temp: string };
  /** Outputs of steps that are not run (`uses:` ones), by step id. */
  outputs?: Record<string, Record<string, string>>;
  /** Where the steps run; the runner's temp folder unless given. */
  cwd?: string;
  path: string;
  /** More of the environment every step sees. */
  env?: Record<string, string>;
  skip?: string[];
  stopAfter?: string;
}

export interface RunResult {
  steps: Record<string, Record<string, string>>;
  logs: Record<string, string>;
  /** What the steps wrote to GITHUB_STEP_SUMMARY. */
  summary: string;
  /** The step that failed, if one did; no step after it ran. */
  failed?: { name: string; code: number };
}

/**
 * `${{ … }}` as a runner reads it, over `context` and the steps' outputs so far: `evaluate` for
 * an `if:`, `fill` for a value (an `env:` or a `with:` of a workflow's step).
 */
export function expressions(
  context: Pick<RunContext, 'inputs' | 'github' | 'secrets' | 'runner'>,
  steps: Record<string, Record<string, string>> = {},
): { evaluate: (expression: string) => string | boolean; fill: (text: string) => string } {
  const lookup = (path: string): string => {
    const [scope, ...rest] = path.trim().split('.');
    if (scope === 'inputs') return context.inputs[rest.join('.')] ?? '';
    if (scope === 'github') return context.github?.[rest.join('.')] ?? '';
    if (scope === 'secrets') return context.secrets?.[rest.join('.')] ?? '';
    if (scope === 'runner' && rest.join('.') === 'temp') return context.runner.temp;
    if (scope === 'steps') return steps[rest[0]!]?.[rest[2]!] ?? '';
    if (/^'[^']*'$/.test(path.trim())) return path.trim().slice(1, -1);
    throw new Error(`unknown expression ${path}`);
  };
  const evaluate = (expression: string): string | boolean => {
    const inner = /^\s*\$\{\{(.*)\}\}\s*$/s.exec(expression)?.[1] ?? expression;
    const equals = /^(.+?)\s*(==|!=)\s*'([^']*)'$/.exec(inner.trim());
    if (equals) return (lookup(equals[1]!) === equals[3]) === (equals[2] === '==');
    return inner.split('||').map(lookup).find(Boolean) ?? '';
  };
  const fill = (text: string) => text.replace(/\$\{\{([^}]+)\}\}/g, (_, expression: string) => String(evaluate(expression)));
  return { evaluate, fill };
}

export async function runSteps(stepList: Step[], context: RunContext): Promise<RunResult> {
  const steps: Record<string, Record<string, string>> = { ...context.outputs };
  const logs: Record<string, string> = {};
  const { evaluate, fill } = expressions(context, steps);
  const env: NodeJS.ProcessEnv = {
    PATH: context.path,
    HOME: context.runner.temp,
    RUNNER_TEMP: context.runner.temp,
    XDG_CONFIG_HOME: join(context.runner.temp, 'config'),
    ...context.env,
  };
  const summaryFile = join(context.runner.temp, 'step-summary');
  await writeFile(summaryFile, '');
  let failed: RunResult['failed'];
  for (const step of stepList) {
    if (step.if !== undefined && !evaluate(step.if)) continue;
    if (step.run === undefined || context.skip?.includes(step.name ?? '')) continue;
    const outputFile = join(context.runner.temp, `output-${step.id ?? 'step'}`);
    const envFile = join(context.runner.temp, 'env');
    await writeFile(outputFile, '');
    await writeFile(envFile, '');
    const stepEnv = {
      ...env,
      GITHUB_OUTPUT: outputFile,
      GITHUB_ENV: envFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, fill(value)])),
    };
    const code = await new Promise<number>((resolve) => {
      const child = spawn('bash', ['-e', '-c', step.run!], { cwd: context.cwd ?? context.runner.temp, env: stepEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      let log = '';
      child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
      child.on('close', (exit) => {
        logs[step.name ?? step.id ?? ''] = log;
        resolve(exit ?? 1);
      });
      // No close follows a spawn that failed (a missing cwd): the step fails instead of hanging.
      child.on('error', (error) => {
        logs[step.name ?? step.id ?? ''] = `${log}${error.message}\n`;
        resolve(127);
      });
    });
    const outputs = Object.fromEntries(
      (await readFile(outputFile, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
    );
    if (step.id) steps[step.id] = outputs;
    for (const line of (await readFile(envFile, 'utf8')).split('\n').filter(Boolean)) {
      const [key, value] = line.split(/=(.*)/s);
      env[key!] = value;
    }
    if (code !== 0) {
      failed = { name: step.name ?? step.id ?? '', code };
      break;
    }
    if (step.name === context.stopAfter) break;
  }
  return { steps, logs, summary: await readFile(summaryFile, 'utf8'), ...(failed ? { failed } : {}) };
}
