/**
 * How a build replaces its output folder (docs/site.md, "The output folder"): the new site is
 * written into a folder of its own beside `--out` and swapped in by renames once complete, so an
 * interrupted or failed build leaves yesterday's site whole; what the last build did not write
 * (a `CNAME`, a `.git`, a folder of the user's) is carried over into the new site, never deleted.
 * The pure rules come first; the I/O after. Decision: docs/decisions/2026-11-29-nothing-lost.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The file a build leaves in its output folder: `tmsnap build` refuses a non-empty folder without it (cli/output-guard.ts). */
export const siteMarkFile = '.tmsnap-site';

const markHeading = 'A site written by tmsnap build. The next build replaces the names listed below, which it wrote, and keeps everything else.';
const buildingHeading = 'A site being written by tmsnap build, process';

/** The mark of a finished site: a heading, then the top-level names the build wrote, folders with a `/`. */
export function siteMarkText(written: readonly string[]): string {
  return [markHeading, ...[...written].sort()].join('\n') + '\n';
}

/**
 * The top-level names a site's mark says its build wrote (folders without their `/`), or
 * undefined for a mark that lists none: one written before builds kept a list (up to 0.2).
 */
export function writtenNames(mark: string): Set<string> | undefined {
  const [heading, ...names] = mark.split('\n');
  if (heading !== markHeading) return undefined;
  return new Set(names.filter((name) => name !== '').map((name) => name.replace(/\/$/, '')));
}

export interface Carried {
  /** Entries of the old folder to carry into the new site. */
  keep: string[];
  /** Entries not of the last build's making that the new site has too. */
  clashes: string[];
}

/**
 * What of the old output folder is not the last build's, and so goes into the new site: every
 * entry its mark does not list. A folder whose mark lists nothing (an older build's, or someone
 * else's given `--force`) keeps what the new site does not replace: nothing can tell its own files
 * from the user's there. The mark itself is the new site's.
 */
export function carriedEntries(oldEntries: readonly string[], written: ReadonlySet<string> | undefined, newEntries: readonly string[]): Carried {
  const fresh = new Set(newEntries);
  const theirs = oldEntries.filter((name) => name !== siteMarkFile && !(written ?? fresh).has(name)).sort();
  return { keep: theirs.filter((name) => !fresh.has(name)), clashes: theirs.filter((name) => fresh.has(name)) };
}

/** A refusal of entries the user added that the new site would replace: one line, naming them and what to do. */
export function clashLine(out: string, clashes: readonly string[]): string {
  const names = clashes.slice(0, 3).join(', ') + (clashes.length > 3 ? ', …' : '');
  return (
    `${out} holds ${names}, which no build wrote, and the new site has ${clashes.length === 1 ? 'one' : 'them'} too: ` +
    `move ${clashes.length === 1 ? 'it' : 'them'} away, or give --force to let the site's replace ${clashes.length === 1 ? 'it' : 'them'}; the site in ${out} is unchanged`
  );
}

/** The names of the folders beside `out` that a build of `out` makes: the new site's, and the old one's while it is swapped out. */
export function asidePrefix(out: string, kind: 'new' | 'old'): string {
  return `.${basename(out)}.tmsnap-${kind}-`;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}

async function readMark(dir: string): Promise<string | undefined> {
  return readFile(join(dir, siteMarkFile), 'utf8').catch(() => undefined);
}

/** Whether process `pid` still runs (a build writing its new site). */
function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Puts right what a killed build left beside `out`, before a new one starts: a new site's folder
 * whose build no longer runs is removed (its mark says it is a build's); an old site swapped out
 * but not yet removed goes back to `out` when `out` is missing (killed between the two renames),
 * else gives the entries the user added back to `out` and goes. Returns a line per thing done.
 */
export async function clearLeftovers(out: string): Promise<string[]> {
  const parent = dirname(out);
  const names = await readdir(parent).catch(() => [] as string[]);
  const said: string[] = [];
  for (const name of names.filter((entry) => entry.startsWith(asidePrefix(out, 'old')))) {
    const old = join(parent, name);
    const mark = await readMark(old);
    if (mark === undefined) continue;
    if (!(await exists(out))) {
      await rename(old, out);
      said.push(`put back the site an interrupted build had moved aside (${name} → ${basename(out)})`);
      continue;
    }
    const present = new Set(await readdir(out));
    const { keep } = carriedEntries(await readdir(old), writtenNames(mark), []);
    const blocked = keep.filter((entry) => present.has(entry));
    for (const entry of keep.filter((entry) => !present.has(entry))) await rename(join(old, entry), join(out, entry));
    if (blocked.length > 0) {
      said.push(`left ${old}: it holds ${blocked.join(', ')}, which no build wrote and ${out} has too; move them yourself`);
      continue;
    }
    await rm(old, { recursive: true, force: true });
  }
  for (const name of names.filter((entry) => entry.startsWith(asidePrefix(out, 'new')))) {
    const dir = join(parent, name);
    const mark = await readMark(dir);
    if (mark === undefined) continue;
    const pid = mark.startsWith(buildingHeading) ? Number.parseInt(mark.slice(buildingHeading.length), 10) : undefined;
    if (pid !== undefined && Number.isInteger(pid) && running(pid)) continue;
    await rm(dir, { recursive: true, force: true });
  }
  return said;
}

/** Makes the folder the new site is written into, beside `out` (one file system: the swap is renames), marked as a build's. */
export async function newSiteFolder(out: string): Promise<string> {
  // `--out a/b/site` with no `a/b` yet: made, as the output folder always was.
  await mkdir(dirname(out), { recursive: true });
  const dir = await mkdtemp(join(dirname(out), asidePrefix(out, 'new')));
  await writeFile(join(dir, siteMarkFile), `${buildingHeading} ${process.pid}. Removed by the next build if this one did not finish.\n`);
  return dir;
}

/**
 * Whether the new site in `fresh` can replace `out`, and what it carries over: throws the
 * clash line (the caller's error type) when the user's entries would be replaced without `force`.
 */
export async function planSwap(fresh: string, out: string, force: boolean, refuse: (line: string) => Error): Promise<string[]> {
  if (!(await exists(out))) return [];
  const mark = await readMark(out);
  const { keep, clashes } = carriedEntries(await readdir(out), mark === undefined ? undefined : writtenNames(mark), await readdir(fresh));
  if (clashes.length > 0 && !force) throw refuse(clashLine(out, clashes));
  return keep;
}

/**
 * Replaces `out` with the complete new site in `fresh`, by renames: `out` moves aside, `fresh`
 * takes its name, the `keep` entries move from the old folder into the new one, and the old
 * folder goes. Killed in between, `clearLeftovers` finishes the job on the next build.
 */
export async function swapIn(fresh: string, out: string, keep: readonly string[]): Promise<void> {
  const written = (await readdir(fresh, { withFileTypes: true })).filter((entry) => entry.name !== siteMarkFile);
  await writeFile(join(fresh, siteMarkFile), siteMarkText(written.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))));
  if (!(await exists(out))) {
    await rename(fresh, out);
    return;
  }
  const old = join(dirname(out), `${asidePrefix(out, 'old')}${randomBytes(4).toString('hex')}`);
  await rename(out, old);
  await rename(fresh, out);
  for (const entry of keep) await rename(join(old, entry), join(out, entry));
  await rm(old, { recursive: true, force: true });
}
