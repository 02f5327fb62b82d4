import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type PathFacts, outputRefusal, siteMark } from '../../cli/output-guard.ts';
import { siteMarkFile } from '../../site/build.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { fingerprint } from '../helpers/fingerprint.ts';

/**
 * Issue 24, "Output folders": `build --out .` once deleted the archive beside it, `build
 * --content archive --out archive` every snapshot, `build --out docs` a thesis. Each command that
 * writes refuses such an output in one line (exit 2) and touches nothing; the archive survives
 * every case (checked byte for byte after each).
 */

const tempFolder = useTempFolders('tmsnap-outputs-', 'all');
let scratch: string;
let archive: string;
let home: string;
let archivePrint: string;
let pack: string;

/** The tree of `folder` as names only, to tell that nothing was created or removed. */
async function names(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true })).sort();
}

beforeAll(async () => {
  scratch = await tempFolder();
  archive = join(scratch, 'archive');
  home = join(scratch, 'home');
  const server = await startTestServer();
  try {
    await crawlComplete(server, archive);
  } finally {
    await server.close();
  }
  await mkdir(join(home, 'letters'), { recursive: true });
  await writeFile(join(home, 'letters', 'mum.txt'), 'dear mum');
  await mkdir(join(scratch, 'docs'));
  await writeFile(join(scratch, 'docs', 'thesis.txt'), 'chapter one');
  await writeFile(join(scratch, 'notes.txt'), 'a file, not a folder');
  await mkdir(join(scratch, 'other-archive', 'snapshots'), { recursive: true });
  await mkdir(join(scratch, 'other-archive', 'objects'));
  pack = join(scratch, 'first.tar.gz');
  const packed = await tmsnap(['pack', '--content', archive, '--out', pack]);
  expect(packed.code, packed.stderr).toBe(0);
  archivePrint = await fingerprint(archive);
}, 120_000);

/** Runs tmsnap in `cwd` (default: the scratch folder, which holds the archive) with the scratch home as HOME. */
function run(args: string[], cwd = scratch) {
  return tmsnap(args, { cwd, env: { HOME: home, TMSNAP_CONTENT: '' } });
}

interface Refusal {
  args: string[];
  cwd?: string;
  says: string;
}

/** command line → the phrase of its one line; `$` is the scratch folder, which holds `archive/`. */
const refusals: Record<string, Refusal> = {
  'build --out . where . holds the archive': {
    args: ['build', '--content', 'archive', '--out', '.'],
    says: 'refusing --out $: it holds the archive $/archive',
  },
  'build --out . with --force, where . holds the archive': {
    args: ['build', '--content', 'archive', '--out', '.', '--force'],
    says: 'refusing --out $: it holds the archive $/archive (--content), and the build would empty it',
  },
  'build --out the archive': { args: ['build', '--content', 'archive', '--out', 'archive'], says: 'refusing --out $/archive: that is the archive (--content)' },
  'build --out the archive, --force': {
    args: ['build', '--content', 'archive', '--out', 'archive', '--force'],
    says: 'refusing --out $/archive: that is the archive (--content)',
  },
  'build --out a folder inside the archive': {
    args: ['build', '--content', 'archive', '--out', 'archive/snapshots'],
    says: 'refusing --out $/archive/snapshots: it lies inside the archive $/archive',
  },
  'build --out a new folder inside the archive, --force': {
    args: ['build', '--content', 'archive', '--out', 'archive/site', '--force'],
    says: 'refusing --out $/archive/site: it lies inside the archive $/archive',
  },
  'build --out a folder holding the archive, run from elsewhere': {
    args: ['build', '--content', '$/archive', '--out', '$'],
    cwd: '$/docs',
    says: 'refusing --out $: it holds the archive $/archive',
  },
  'build --out the current folder': {
    args: ['build', '--content', '$/archive', '--out', '.'],
    cwd: '$/docs',
    says: 'refusing --out $/docs: the current folder; give a folder of its own, e.g. --out site, or --force to use this one',
  },
  'build --out a folder of someone else’s files': {
    args: ['build', '--content', 'archive', '--out', 'docs'],
    says: 'refusing --out $/docs: it holds files tmsnap did not write (thesis.txt) and the site would be mixed with them; give an empty or new folder, or --force',
  },
  'build --out another archive, --force': {
    args: ['build', '--content', 'archive', '--out', 'other-archive', '--force'],
    says: 'refusing --out $/other-archive: it holds an archive (snapshots/, objects/), which the build would empty',
  },
  'build --out the home folder': { args: ['build', '--content', 'archive', '--out', '$/home'], says: 'refusing --out $/home: your home folder' },
  'build --out the home folder, --force': {
    args: ['build', '--content', 'archive', '--out', '$/home', '--force'],
    says: 'refusing --out $/home: your home folder',
  },
  // The archive is real: were the guard gone, the build's own last check would still refuse to empty / (it holds the archive).
  'build --out /': {
    args: ['build', '--content', 'archive', '--out', '/'],
    says: 'refusing --out /: the root folder; give a folder of its own, e.g. --out $/site',
  },
  'build --out a file': { args: ['build', '--content', 'archive', '--out', 'notes.txt'], says: '--out $/notes.txt is a file, not a folder' },
  'build --out a folder below a file': {
    args: ['build', '--content', 'archive', '--out', 'notes.txt/site'],
    says: '--out $/notes.txt/site: $/notes.txt is a file, not a folder',
  },
  'pack --out a file below a file': {
    args: ['pack', '--content', 'archive', '--out', 'notes.txt/a.tar.gz'],
    says: '--out $/notes.txt/a.tar.gz: $/notes.txt is a file, not a folder; give a path under a folder, e.g. --out $/archive.tar.gz',
  },
  'pack --out a file inside the archive': {
    args: ['pack', '--content', 'archive', '--out', 'archive/all.tar.gz', '--force'],
    says: 'refusing --out $/archive/all.tar.gz: it lies inside the archive $/archive',
  },
  'pack --out a folder': {
    args: ['pack', '--content', 'archive', '--out', 'docs'],
    says: '--out $/docs is a folder: give a file name, e.g. --out $/docs/archive.tar.gz',
  },
  'pack --out the current folder': { args: ['pack', '--content', 'archive', '--out', '.'], says: '--out $ is a folder' },
  'pack --out someone else’s file': {
    args: ['pack', '--content', 'archive', '--out', 'notes.txt'],
    says: 'refusing --out $/notes.txt: the file exists and is not a tmsnap pack; give a new file name, or --force to replace it',
  },
  'unpack into a folder of someone else’s files': {
    args: ['unpack', '$/first.tar.gz', '--content', 'docs'],
    says: 'refusing --content $/docs: it holds files tmsnap did not write (thesis.txt) and tmsnap would mix its files with them',
  },
  'unpack into the home folder, --force': {
    args: ['unpack', '$/first.tar.gz', '--content', '$/home', '--force'],
    says: 'refusing --content $/home: your home folder',
  },
  'unpack into a file': { args: ['unpack', '$/first.tar.gz', '--content', 'notes.txt'], says: '--content $/notes.txt is a file, not a folder' },
  'crawl into a folder of someone else’s files': {
    args: ['crawl', '--url', 'http://127.0.0.1:9/api/', '--content', 'docs'],
    says: 'refusing --content $/docs: it holds files tmsnap did not write (thesis.txt)',
  },
  // Was a Node stack trace (EEXIST from mkdir).
  'crawl into a file': { args: ['crawl', '--url', 'http://127.0.0.1:9/api/', '--content', 'notes.txt'], says: '--content $/notes.txt is a file, not a folder' },
  'crawl into the current folder': {
    args: ['crawl', '--url', 'http://127.0.0.1:9/api/', '--content', '.'],
    cwd: '$/docs',
    says: 'refusing --content $/docs: the current folder',
  },
  'demo into a folder of someone else’s files': {
    args: ['demo', '--dir', 'docs', '--data', 'synthetic:projects=1,components=1,languages=2,units=10'],
    says: 'refusing --dir $/docs: it holds files tmsnap did not write (thesis.txt)',
  },
  'demo into the home folder, --force': { args: ['demo', '--dir', '$/home', '--force'], says: 'refusing --dir $/home: your home folder' },
};

describe('every command that writes refuses an output it could destroy: exit 2, one line, nothing touched', () => {
  for (const [name, row] of Object.entries(refusals)) {
    it(
      name,
      async () => {
        const fill = (text: string) => text.replaceAll('$', scratch);
        const before = await names(scratch);
        const result = await run(row.args.map(fill), row.cwd === undefined ? scratch : fill(row.cwd));
        expect(result.stderr.trim().split('\n'), result.stderr).toEqual(
          [`tmsnap ${row.args[0]}: ${fill(row.says)}`].map((line) => expect.stringContaining(line)),
        );
        expect(result.code).toBe(2);
        expect(await names(scratch), 'nothing created or removed').toEqual(before);
        expect(await fingerprint(archive), 'the archive as it was').toBe(archivePrint);
      },
      60_000,
    );
  }
});

describe('what a build may write into', () => {
  it('a new folder, then the same folder again (its mark says it is a build’s), and someone else’s files with --force', async () => {
    const first = await run(['build', '--content', 'archive', '--out', 'site']);
    expect(first.code, first.stderr).toBe(0);
    expect((await readdir(join(scratch, 'site'))).includes(siteMark)).toBe(true);
    const again = await run(['build', '--content', 'archive', '--out', 'site']);
    expect(again.code, again.stderr).toBe(0);
    // The progress is a share, the summary counts pages and files: no "3118 / 3118 pages" then "2289 pages" (issue 28).
    expect(again.stderr).toMatch(/^tmsnap build: \d+% written, ETA \d+ s$/m);
    expect(again.stderr).toMatch(/^tmsnap build: \d+ pages in \d+ files \(\d+\.\d MB\) from snapshot /m);
    expect(again.stderr).not.toMatch(/\d+ \/ \d+ pages/);

    const forced = await run(['build', '--content', 'archive', '--out', 'docs', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    // Kept beside the site: a build never deletes what it did not write (issue 35).
    expect(existsSync(join(scratch, 'docs', 'thesis.txt'))).toBe(true);
    expect(existsSync(join(scratch, 'docs', 'index.html'))).toBe(true);
    expect(await fingerprint(archive)).toBe(archivePrint);
  }, 300_000);

  it('a folder holding only .git (a fresh checkout of a publishing branch) is as good as empty', () => {
    const facts: PathFacts = { path: '/w/pages', type: 'folder', entries: ['.git'], gzip: false };
    expect(outputRefusal(facts, { cwd: '/w', home: '/home/u', archive: '/w/archive' }, { kind: 'site', flag: '--out', force: false })).toBeUndefined();
  });

  it('an archive may start beside the README of the repository’s own content/, and nowhere else beside a README', () => {
    const context = { cwd: '/w', home: '/home/u' };
    const facts: PathFacts = { path: '/w/content', type: 'folder', entries: ['README.md'], gzip: false };
    expect(outputRefusal(facts, context, { kind: 'archive', flag: '--content', force: false })).toBeUndefined();
    expect(outputRefusal({ ...facts, path: '/w/site' }, context, { kind: 'site', flag: '--out', force: false })).toMatch(/README\.md/);
  });

  it('pack replaces a pack it wrote, and any file with --force', async () => {
    const again = await run(['pack', '--content', 'archive', '--out', 'first.tar.gz']);
    expect(again.code, again.stderr).toBe(0);
    await writeFile(join(scratch, 'scratch.txt'), 'mine');
    const forced = await run(['pack', '--content', 'archive', '--out', 'scratch.txt', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect((await readFile(join(scratch, 'scratch.txt')))[0]).toBe(0x1f);
    expect(await fingerprint(archive)).toBe(archivePrint);
  }, 60_000);

  it('the mark the build writes is the one the guard looks for', () => {
    expect(siteMarkFile).toBe(siteMark);
  });
});
