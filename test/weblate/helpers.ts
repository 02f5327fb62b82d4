import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { type CliResult, tmsnap } from '../helpers/tmsnap.ts';
import type { WeblateUnderTest } from './global-setup.ts';
import { WeblateClient } from './seed.ts';
import { resetThrottle as resetThrottleOf, weblateShell } from './server.ts';

const execute = promisify(execFile);
const bin = new URL('../../bin/tmsnap.js', import.meta.url).pathname;

/** The tier's server, as the global set-up made and seeded it. */
export function weblate(): WeblateUnderTest {
  return inject('weblate');
}

/** The server's whole rate budget again, as after a day without requests. */
export function resetThrottle(): Promise<void> {
  return resetThrottleOf(weblate().cachePrefix);
}

/** `weblate shell -c CODE` on the tier's server: for what the API does not tell (a component's figures). */
export function shell(code: string): Promise<string> {
  return weblateShell(weblate().venv, weblate().shellEnv, code);
}

/** A key of the seeded server by role, or '' for an anonymous visitor. */
export type Role = 'admin' | 'user' | 'project' | 'anonymous';

export function tokenOf(role: Role): string {
  return role === 'anonymous' ? '' : weblate().tokens[role];
}

/** The API as `role` sees it. */
export function apiAs(role: Role): WeblateClient {
  return new WeblateClient(weblate().url, tokenOf(role));
}

/**
 * Commits every pending edit on the server. A crawl's file downloads would commit them otherwise,
 * adding changes to the log after the crawl read it (crawler/plan.ts, phases), so two crawls in a
 * row would see two logs.
 */
export async function commitAll(): Promise<void> {
  const api = apiAs('admin');
  for (const project of [...weblate().publicProjects, weblate().privateProject])
    await api.call('POST', `projects/${project}/repository/`, { operation: 'commit' });
}

/** `tmsnap crawl` of the tier's server into `content`, with the role's key in WEBLATE_TOKEN. */
export function crawlAs(role: Role, content: string, extra: string[] = []): Promise<CliResult> {
  return tmsnap(['crawl', '--url', weblate().url, '--content', content, '--json', ...extra], { env: { WEBLATE_TOKEN: tokenOf(role) } });
}

export interface CrawlSummary {
  outcome: string;
  made: number;
  /** Present when a run stopped for the night with the site current and some history left. */
  parts?: { history: boolean };
  problems: unknown[];
  access: unknown[];
}

/** The `finished` line of a crawl's `--json` output. */
export function summaryOf(result: CliResult): CrawlSummary {
  const line = result.stdout
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text) as CrawlSummary & { event: string })
    .filter((event) => event.event === 'finished')
    .at(-1);
  if (line === undefined) throw new Error(`the crawl printed no summary (exit ${result.code}): ${result.stderr.slice(-1000)}`);
  return line;
}

/**
 * The newest complete snapshot's `tmsnap export`, one line per record, sorted: the archive's
 * content, for comparing two archives. Weblate 2026 embeds in a change the alert it is about as
 * that alert stands now (`updated`, `details`, `dismissed_*` move after the change), so a change
 * compares by its alert's name: an archive keeps the change as first fetched.
 */
export async function exportLines(content: string): Promise<string[]> {
  const { stdout } = await execute(process.execPath, [bin, 'export', '--content', content], { maxBuffer: 1 << 28 });
  return stdout.split('\n').filter(Boolean).map(withAlertByName).sort();
}

function withAlertByName(line: string): string {
  const parsed = JSON.parse(line) as { record?: { alert?: { name?: unknown } | null } };
  const alert = parsed.record?.alert;
  if (alert === undefined || alert === null || typeof alert !== 'object') return line;
  return JSON.stringify({ ...parsed, record: { ...parsed.record, alert: { name: alert.name } } });
}

/**
 * An incremental crawl of `content` as admin, then a full crawl of the same state into `full`,
 * each with the whole rate budget; both archives' exports.
 */
export async function incrementalThenFull(content: string, full: string): Promise<{ incremental: CliResult; got: string[]; want: string[] }> {
  await resetThrottle();
  const incremental = await crawlAs('admin', content);
  if (incremental.code !== 0) throw new Error(`the incremental crawl exited ${incremental.code}: ${incremental.stderr}`);
  await resetThrottle();
  const whole = await crawlAs('admin', full);
  if (whole.code !== 0) throw new Error(`the full crawl exited ${whole.code}: ${whole.stderr}`);
  return { incremental, got: await exportLines(content), want: await exportLines(full) };
}

export async function buildSite(content: string, out: string, extra: string[] = []): Promise<CliResult> {
  return tmsnap(['build', '--content', content, '--out', out, ...extra]);
}

export interface SiteStatus {
  projects: {
    slug: string;
    page: string;
    statistics: Record<string, number>;
    components: {
      slug: string;
      page: string;
      statistics: Record<string, number>;
      translations: { language: string; page: string; last_change: string | null; statistics: Record<string, number> }[];
    }[];
  }[];
  languages: { code: string; page: string; statistics: Record<string, number> }[];
}

export async function siteStatus(out: string): Promise<SiteStatus> {
  return JSON.parse(await readFile(join(out, 'data', 'status.json'), 'utf8')) as SiteStatus;
}

/** `project/component/language` of every translation the status file lists. */
export function siteTranslations(status: SiteStatus): string[] {
  return status.projects
    .flatMap((project) => project.components.flatMap((component) => component.translations.map((t) => `${project.slug}/${component.slug}/${t.language}`)))
    .sort();
}

/**
 * `project/component/language` of every translation `role` can list on the server, the
 * component as its URL spells it (`category%252Fslug` inside a category), as the site keys it.
 */
export async function serverTranslations(role: Role, project?: string): Promise<string[]> {
  const root = new URL('translations/', weblate().url).href;
  const items = await apiAs(role).all<{ url: string }>('translations/?page_size=1000');
  return items
    .map((item) => item.url.slice(root.length, -1))
    .filter((key) => project === undefined || key.startsWith(`${project}/`))
    .sort();
}
