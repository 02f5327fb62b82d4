/**
 * Issue 35, "Nothing lost": a build stopped by Ctrl-C, SIGTERM or SIGKILL once left a half-written
 * output folder with no index.html, and a build deleted a CNAME or a folder the user had added to
 * the site. Now the site is written beside `--out` and swapped in once complete
 * (site/site-folder.ts): the folder holds yesterday's site or the new one, whole, and what no build
 * wrote stays. Builds run as a user's shell runs them, killed at points read off their progress.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { progressLine } from '../../cli/build.ts';
import { asidePrefix, carriedEntries, clearLeftovers, planSwap, siteMarkFile, siteMarkText, writtenNames } from '../../site/site-folder.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { fingerprint } from '../helpers/fingerprint.ts';

const bin = fileURLToPath(new URL('../../bin/tmsnap.js', import.meta.url));
const folder = useTempFolders('tmsnap-interrupted-', 'all');
const scratchFolder = useTempFolders('tmsnap-site-folder-');

let scratch: string;
let archive: string;
let out: string;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Whether the signal was sent before the build ended by itself. */
  sent: boolean;
}

/**
 * `tmsnap build` into `out`, sent `signal` once a progress line of at least `atShare`% appears
 * (`atShare` 0: the first line); never signalled when `signal` is undefined.
 */
function build(signal?: NodeJS.Signals, atShare = 0): Promise<Run> {
  const child = spawn(process.execPath, [bin, 'build', '--content', archive, '--out', out], { cwd: scratch, env: { ...process.env, TMSNAP_CONTENT: '' } });
  let stderr = '';
  let sent = false;
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (signal === undefined || sent) return;
    const shares = [...stderr.matchAll(/^tmsnap build: (\d+)% written/gm)].map((match) => Number(match[1]));
    if (shares.some((share) => share >= atShare)) {
      sent = true;
      child.kill(signal);
    }
  });
  return new Promise((resolve) => child.on('exit', (code, killed) => resolve({ code, signal: killed, stderr, sent })));
}

/** What lies beside `out` that a build made: nothing, once a build is over. */
async function aside(): Promise<string[]> {
  return (await readdir(dirname(out))).filter((name) => name.startsWith(asidePrefix(out, 'new')) || name.startsWith(asidePrefix(out, 'old')));
}

let oldPrint: string;

beforeAll(async () => {
  scratch = await folder();
  archive = join(scratch, 'archive');
  // A folder whose parent does not exist yet: the first build makes both.
  out = join(scratch, 'web', 'dist');
  const server = await startTestServer();
  try {
    await crawlComplete(server, archive);
  } finally {
    await server.close();
  }
  const first = await build();
  expect(first.code, first.stderr).toBe(0);
  // What a GitHub Pages user adds to the site: a custom domain, and a folder of their own.
  await writeFile(join(out, 'CNAME'), 'l10n.example.org\n');
  await mkdir(join(out, 'handbook'));
  await writeFile(join(out, 'handbook', 'index.html'), '<p>ours</p>\n');
  oldPrint = await fingerprint(out);
}, 300_000);

describe('a build stopped part way leaves the site it replaces whole', () => {
  const stops: [string, NodeJS.Signals, number][] = [
    ['Ctrl-C at the first progress line', 'SIGINT', 0],
    ['SIGKILL half way', 'SIGKILL', 40],
    ['SIGTERM late, during the last writing', 'SIGTERM', 60],
  ];
  for (const [name, signal, atShare] of stops) {
    it(
      name,
      async () => {
        const run = await build(signal, atShare);
        if (!run.sent) {
          // The build ended before the line came: then it must have ended well.
          expect(run.code, run.stderr).toBe(0);
          return;
        }
        if (signal === 'SIGKILL') {
          expect(run.signal).toBe('SIGKILL');
        } else {
          expect(run.code, run.stderr).toBe(130);
          // One line saying what the folder holds, as the last line.
          expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(
            `tmsnap build: interrupted: the site in ${out} is the one it held before, unchanged; nothing of this build was kept`,
          );
          expect(await aside(), 'nothing left beside it').toEqual([]);
        }
        expect(run.stderr).not.toMatch(/100% written|ETA 0 s/);
        // Byte for byte the site of before, the user's CNAME and folder included.
        expect(await fingerprint(out)).toBe(oldPrint);
      },
      300_000,
    );
  }

  it('the next build removes what a killed one left, puts its site in place and keeps the user’s files', async () => {
    const run = await build();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/100% written|ETA 0 s/);
    expect(run.stderr).toContain(`tmsnap build: kept in ${out} what no build wrote: CNAME, handbook`);
    expect(await aside()).toEqual([]);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    expect(existsSync(join(out, 'projects'))).toBe(true);
    expect(await readFile(join(out, 'CNAME'), 'utf8')).toBe('l10n.example.org\n');
    expect(await readFile(join(out, 'handbook', 'index.html'), 'utf8')).toBe('<p>ours</p>\n');
    const written = writtenNames(await readFile(join(out, siteMarkFile), 'utf8'));
    expect(written?.has('index.html')).toBe(true);
    expect(written?.has('CNAME')).toBe(false);
  }, 300_000);
});

describe('the progress line', () => {
  it('never says 100% or ETA 0 s before the build is over, even when the estimate was short', () => {
    expect(progressLine({ done: 500, total: 500 }, 20)).toBe('tmsnap build: 99% written, finishing');
    expect(progressLine({ done: 999, total: 1000 }, 20)).toBe('tmsnap build: 99% written, ETA 1 s');
    expect(progressLine({ done: 0, total: 1000 }, 0)).toBe('tmsnap build: 0% written, ETA ?');
  });

  it('takes its rate from the first report on: the seconds before any file do not make the first ETA minutes long (issue 36)', () => {
    // 10 s to open the snapshot and start Astro, then 50 files in 2 s: 940 to go at 25 a second.
    expect(progressLine({ done: 60, total: 1000 }, 12, { done: 10, seconds: 10 })).toBe('tmsnap build: 6% written, ETA 38 s');
    expect(progressLine({ done: 10, total: 1000 }, 10, { done: 10, seconds: 10 })).toBe('tmsnap build: 1% written, ETA ?');
  });

  it('counts on as many files as the build reports, within 10% (issue 36: it counted pages only, two thirds of them)', async () => {
    const { buildSite } = await import('../../site/build.ts');
    const reports: Array<{ done: number; total: number }> = [];
    await buildSite({
      content: archive,
      out: join(scratch, 'estimate'),
      base: '/',
      hideAuthors: false,
      onProgress: ({ done, total }) => reports.push({ done, total }),
    });
    const first = reports[0]!.total;
    const written = reports.at(-1)!.done;
    expect(written / first).toBeGreaterThan(0.9);
    expect(written / first).toBeLessThan(1.1);
  }, 300_000);
});

describe('what a build keeps of the folder it replaces', () => {
  it('what the last build did not list, and what the new site does not replace when no list says', () => {
    const written = writtenNames(siteMarkText(['index.html', 'assets/', 'projects/']));
    expect(carriedEntries(['.tmsnap-site', 'index.html', 'assets', 'projects', 'CNAME', '.git', 'handbook'], written, ['index.html', 'assets'])).toEqual({
      keep: ['.git', 'CNAME', 'handbook'],
      clashes: [],
    });
    // A mark of an older build lists nothing: keep what the new site does not have.
    expect(writtenNames('A site written by tmsnap build. The next build into this folder replaces all but .git.\n')).toBeUndefined();
    expect(carriedEntries(['index.html', 'sitemap.xml', 'CNAME'], undefined, ['index.html'])).toEqual({ keep: ['CNAME', 'sitemap.xml'], clashes: [] });
  });

  it('refuses, in one line, to replace a file of the user’s with one of the site’s, unless forced', async () => {
    const dir = await scratchFolder();
    const [fresh, old] = [join(dir, '.site.tmsnap-new-x'), join(dir, 'site')];
    await mkdir(fresh);
    await mkdir(old);
    await writeFile(join(fresh, 'robots.txt'), 'User-agent: *\n');
    await writeFile(join(old, siteMarkFile), siteMarkText(['index.html']));
    await writeFile(join(old, 'robots.txt'), 'mine\n');
    const refuse = (line: string) => new Error(line);
    await expect(planSwap(fresh, old, false, refuse)).rejects.toThrow(
      `${old} holds robots.txt, which no build wrote, and the new site has one too: move it away, or give --force to let the site's replace it; the site in ${old} is unchanged`,
    );
    expect(await planSwap(fresh, old, true, refuse)).toEqual([]);
  });

  it('a build killed between its renames: the next one puts the old site back, or gives the user’s files to the new one', async () => {
    const dir = await scratchFolder();
    const site = join(dir, 'site');
    // Killed after the old site moved aside and before the new one took its name.
    const movedAside = join(dir, `${asidePrefix(site, 'old')}1`);
    await mkdir(movedAside);
    await writeFile(join(movedAside, siteMarkFile), siteMarkText(['index.html']));
    await writeFile(join(movedAside, 'index.html'), 'old');
    await writeFile(join(movedAside, 'CNAME'), 'l10n.example.org\n');
    const unfinished = join(dir, `${asidePrefix(site, 'new')}2`);
    await mkdir(unfinished);
    await writeFile(
      join(unfinished, siteMarkFile),
      'A site being written by tmsnap build, process 2147483646. Removed by the next build if this one did not finish.\n',
    );
    // Someone's folder of a like name but no mark: not a build's, never touched.
    const foreign = join(dir, `${asidePrefix(site, 'new')}3`);
    await mkdir(foreign);
    expect(await clearLeftovers(site)).toHaveLength(1);
    expect((await readdir(dir)).sort()).toEqual([`${asidePrefix(site, 'new')}3`, 'site']);
    expect(await readFile(join(site, 'CNAME'), 'utf8')).toBe('l10n.example.org\n');

    // Killed after the new site took the name and before the user's files followed it.
    await mkdir(movedAside);
    await writeFile(join(movedAside, siteMarkFile), siteMarkText(['index.html']));
    await writeFile(join(movedAside, 'index.html'), 'old');
    await mkdir(join(movedAside, 'handbook'));
    await writeFile(join(movedAside, 'handbook', 'a.html'), 'ours');
    expect(await clearLeftovers(site)).toEqual([]);
    expect(await readFile(join(site, 'handbook', 'a.html'), 'utf8')).toBe('ours');
    expect(existsSync(movedAside)).toBe(false);
    // A build still running (this process) keeps its folder.
    await writeFile(join(foreign, siteMarkFile), `A site being written by tmsnap build, process ${process.pid}.\n`);
    await clearLeftovers(site);
    expect(existsSync(foreign)).toBe(true);
  });
});
