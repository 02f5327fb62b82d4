/**
 * Helpers for the site's browser tests: build a site with the real CLI, serve `dist/` from a
 * tiny static server on 127.0.0.1:0, and drive Debian's Chromium headless.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { hasCommand } from '../helpers/outside-command.ts';

const repo = resolve(import.meta.dirname, '../..');
export const artifacts = join(repo, 'test/artifacts');
/** Git-ignored scratch space inside the repository for built sites. */
export const scratch = join(repo, '.tmsnap-tmp');

/** Runs `tmsnap build` as a user would; rejects with its output when it fails. */
export async function buildWithCli(args: string[]): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(repo, 'bin/tmsnap.js'), 'build', ...args], {
    cwd: repo,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout + stderr;
}

/** Serves `dist/` like a plain static host: the same server `tmsnap preview` runs. */
export { serveStatic } from '../../site/serve.ts';

/** Debian's Chromium, which every browser test drives. */
const chromiumPath = '/usr/bin/chromium';

/** Whether the browser tests can run (outside-command.ts): call at the top of a file, gate its browser tests on it. */
export function hasChromium(): boolean {
  return hasCommand(chromiumPath, 'apt-get install -y chromium');
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

const axeSource = readFile(join(repo, 'node_modules/axe-core/axe.min.js'), 'utf8');

/** axe-core violations of impact serious or critical, as `id: target` lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: await axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> };
      }
    ).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.targets.join(' ')}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: false });
}
