import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../cli/main.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { useTempFolders } from '../helpers/temp.ts';

/**
 * One set of conventions (issue 12), walked command by command: a missing or empty archive, a
 * missing snapshot or pack file is a failure (exit 1) told in one line that names the path,
 * and nothing is created on the way out; a bad flag or argument is bad usage (exit 2). The
 * table below is the one in the note; README "Exit codes" sums it up.
 */

const tempFolder = useTempFolders('tmsnap-conventions-', 'all');
let scratch: string;
let archive: string;
beforeAll(async () => {
  scratch = await tempFolder();
  archive = join(scratch, 'archive');
  const server = await startTestServer();
  try {
    await crawlComplete(server, archive);
  } finally {
    await server.close();
  }
  await mkdir(join(scratch, 'empty'));
}, 120_000);

interface Case {
  /** The command line, `$` standing for the scratch folder. */
  args: string[];
  code: 0 | 1 | 2 | 3;
  says: string;
  /** A crawl that got as far as the server leaves a resumable snapshot in progress: that is its job. */
  creates?: boolean;
}

const missingArchive = '$/nope';
const emptyArchive = '$/empty';
const missingSnapshot = '2001-01-01T000000Z';

/** command × bad input → exit code and a phrase of the one-line message. */
const table: Record<string, Case> = {
  'verify, missing archive': { args: ['verify', '--content', missingArchive], code: 1, says: 'no archive at $/nope' },
  'verify, empty archive': { args: ['verify', '--content', emptyArchive], code: 1, says: 'no snapshots in $/empty' },
  'snapshots, missing archive': { args: ['snapshots', '--content', missingArchive], code: 1, says: 'no archive at $/nope' },
  'snapshots, empty archive': { args: ['snapshots', '--content', emptyArchive], code: 1, says: 'no snapshots in $/empty' },
  'diff, missing archive': { args: ['diff', '--content', missingArchive], code: 1, says: 'no archive at $/nope' },
  'diff, empty archive': { args: ['diff', '--content', emptyArchive], code: 1, says: 'no snapshots in $/empty' },
  'diff, missing snapshot': { args: ['diff', missingSnapshot, '--content', '$/archive'], code: 1, says: `no finished snapshot "${missingSnapshot}"` },
  'diff, unknown tag': { args: ['diff', 'v9', '--content', '$/archive'], code: 1, says: 'no finished snapshot or tag "v9"' },
  'verify, missing snapshot': { args: ['verify', missingSnapshot, '--content', '$/archive'], code: 1, says: `no snapshot "${missingSnapshot}"` },
  'export, missing archive': { args: ['export', '--format', 'ndjson', '--content', missingArchive], code: 1, says: 'no archive at $/nope' },
  'export, empty archive': { args: ['export', '--format', 'ndjson', '--content', emptyArchive], code: 1, says: 'no snapshots in $/empty' },
  'export, missing snapshot': {
    args: ['export', '--format', 'ndjson', '--snapshot', missingSnapshot, '--content', '$/archive'],
    code: 1,
    says: missingSnapshot,
  },
  'search, missing archive': { args: ['search', 'save', '--content', missingArchive], code: 1, says: 'no archive at $/nope' },
  'search, empty archive': { args: ['search', 'save', '--content', emptyArchive], code: 1, says: 'no snapshots in $/empty' },
  'search, missing snapshot': { args: ['search', 'save', '--snapshot', missingSnapshot, '--content', '$/archive'], code: 1, says: missingSnapshot },
  'prune, missing archive': { args: ['prune', '--keep-daily', '1', '--content', missingArchive], code: 1, says: 'no archive at $/nope' },
  'prune, empty archive': { args: ['prune', '--keep-daily', '1', '--content', emptyArchive], code: 1, says: 'no snapshots in $/empty' },
  'prune, no policy': { args: ['prune', '--content', '$/archive'], code: 2, says: 'say what to keep' },
  'pack, missing archive': { args: ['pack', '--out', '$/out.tar.gz', '--content', missingArchive], code: 1, says: '$/nope' },
  'pack, missing snapshot': { args: ['pack', missingSnapshot, '--out', '$/out.tar.gz', '--content', '$/archive'], code: 1, says: missingSnapshot },
  'migrate, missing archive': { args: ['migrate', '--content', missingArchive], code: 1, says: 'no archive at $/nope' },
  'migrate, empty archive': { args: ['migrate', '--content', emptyArchive], code: 1, says: 'no snapshots in $/empty' },
  'unpack, missing pack file': { args: ['unpack', '$/missing.tgz', '--content', '$/fresh'], code: 1, says: 'no pack file at $/missing.tgz' },
  'unpack, no file given': { args: ['unpack', '--content', '$/fresh'], code: 2, says: 'give exactly one archive file' },
  'build, missing archive': { args: ['build', '--content', missingArchive, '--out', '$/site'], code: 1, says: '$/nope' },
  'build, empty archive': { args: ['build', '--content', emptyArchive, '--out', '$/site'], code: 1, says: '$/empty' },
  'build, missing snapshot': { args: ['build', '--snapshot', missingSnapshot, '--content', '$/archive', '--out', '$/site'], code: 1, says: missingSnapshot },
  'tag, missing archive': { args: ['tag', '--content', missingArchive], code: 1, says: 'no archive at $/nope' },
  'tag, missing snapshot': { args: ['tag', 'v1', missingSnapshot, '--content', '$/archive'], code: 1, says: `no finished snapshot "${missingSnapshot}"` },
  'tag, bad name': { args: ['tag', '../v1', '--content', '$/archive'], code: 2, says: 'is not a tag name' },
  'dataset, missing archive': {
    args: ['dataset', '--format', 'sqlite', '--out', '$/dataset.sqlite', '--content', missingArchive],
    code: 1,
    says: 'no archive at $/nope',
  },
  'dataset, empty archive': {
    args: ['dataset', '--format', 'sqlite', '--out', '$/dataset.sqlite', '--content', emptyArchive],
    code: 1,
    says: 'no snapshots in $/empty',
  },
  'dataset, missing snapshot': {
    args: ['dataset', '--format', 'parquet', '--out', '$/dataset', '--snapshot', missingSnapshot, '--content', '$/archive'],
    code: 1,
    says: missingSnapshot,
  },
  'dataset, bad --format': { args: ['dataset', '--format', 'csv', '--out', '$/dataset.csv', '--content', '$/archive'], code: 2, says: '--format "csv"' },
  // Node's parser's own words, in the CLI's (issue 35).
  'snapshots, a value for a flag that takes none': {
    args: ['snapshots', '--json=yes', '--content', '$/archive'],
    code: 2,
    says: 'tmsnap snapshots: --json takes no value: give --json alone to turn it on, or leave it out',
  },
  'diff, a flag missing its value': { args: ['diff', '--content', '$/archive', '--lang'], code: 2, says: 'tmsnap diff: --lang needs a value after it' },
  'credits, missing archive': { args: ['credits', '--content', missingArchive], code: 1, says: 'no archive at $/nope' },
  'credits, missing snapshot': { args: ['credits', '--snapshot', missingSnapshot, '--content', '$/archive'], code: 1, says: missingSnapshot },
  'credits, bad --since': { args: ['credits', '--since', 'someday', '--content', '$/archive'], code: 2, says: '--since "someday"' },
  'preview, missing site': { args: ['preview', '--out', '$/nosite', '--port', '0'], code: 1, says: 'no built site at $/nosite' },
  'crawl, no URL': { args: ['crawl', '--content', '$/fresh'], code: 2, says: '--url is required' },
  'crawl, bad --max-duration': {
    args: ['crawl', '--url', 'http://127.0.0.1:9/api/', '--content', '$/fresh', '--max-duration', 'soon'],
    code: 2,
    says: 'expected a time, e.g. 5h, 300m, 90s, 1h30m or a number of seconds',
  },
  'crawl, unreachable server': {
    args: ['crawl', '--url', 'http://127.0.0.1:9/api/', '--content', '$/unreachable', '--retries', '0'],
    code: 1,
    says: 'failed',
  },
  'mistyped command': { args: ['verfy'], code: 2, says: 'did you mean `tmsnap verify`?' },
  'mistyped flag': { args: ['verify', '--contnet', '$/archive'], code: 2, says: 'did you mean --content?' },
  'help of an unknown command': { args: ['help', 'frobnicate'], code: 2, says: 'unknown command "frobnicate"' },
};

describe('commands × bad inputs: exit code and one clear line, nothing created', () => {
  for (const [name, row] of Object.entries(table)) {
    it(`${name} → exit ${row.code}`, async () => {
      const args = row.args.map((arg) => arg.replace('$', scratch));
      const before = await readdir(scratch);
      const result = await tmsnap(args);
      expect(result.code, result.stderr).toBe(row.code);
      expect(result.stderr).toContain(row.says.replace('$', scratch));
      // One clear line (plus the help hint for bad usage), never a stack trace.
      expect(result.stderr).not.toMatch(/\n\s+at /);
      if (row.code === 1 && !name.startsWith('crawl'))
        expect(
          result.stderr
            .trim()
            .split('\n')
            .filter((line) => !line.includes('warning')),
        ).toHaveLength(1);
      if (!row.creates) expect(await readdir(scratch), 'nothing created in the scratch folder').toEqual(before);
    }, 60_000);
  }

  it('the table covers every command', () => {
    const covered = new Set(Object.values(table).map((row) => row.args[0]));
    const skip = new Set(['demo', 'reference-server']);
    expect(Object.keys(commands).filter((name) => !covered.has(name) && !skip.has(name))).toEqual([]);
  });

  it('every command answers an unknown flag with exit 2', async () => {
    const results = await Promise.all(Object.keys(commands).map(async (name) => [name, (await tmsnap([name, '--no-such-flag'])).code] as const));
    expect(Object.fromEntries(results)).toEqual(Object.fromEntries(Object.keys(commands).map((name) => [name, 2])));
  }, 120_000);

  it('the archive used above is a real one: verify passes on it', async () => {
    const result = await tmsnap(['verify', '--content', archive]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(scratch, 'fresh'))).toBe(false);
    // A server that never answered leaves nothing, not even the folder (issue 35).
    expect(existsSync(join(scratch, 'unreachable'))).toBe(false);
  });
});
