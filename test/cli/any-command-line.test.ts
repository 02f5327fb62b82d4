import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join, relative, resolve, sep } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteMark } from '../../cli/output-guard.ts';
import { commands } from '../../cli/main.ts';
import { listSnapshots } from '../../snapshot/index.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';

/**
 * Issue 24, "Errors", as a property: whatever command line a user types (every command, flags
 * in any order with paths, ports, URLs and values drawn from what users get wrong), tmsnap
 * exits 0, 1, 2 or 3, prints no stack trace, creates or changes nothing outside the output the
 * line names, and leaves the archive as it was. Each run gets a fresh copy of the same folder;
 * the runs are few (each spawns a process; about 30 s in all), the cases many. A failure prints
 * its seed: TMSNAP_PROPERTY_SEED=<seed> runs the same lines again.
 */

const bin = resolve(import.meta.dirname, '../../bin/tmsnap.js');
const tempFolder = useTempFolders('tmsnap-any-line-', 'all');
let template: string;
/** The runs' copies, removed with it after the file's tests. */
let runs: string;
let snapshotId: string;
let busy: Server;
let busyPort: number;
/** An HTTP server that is not Weblate: the crawl learns so on its first request, without retries. */
let notWeblate: ReturnType<typeof createHttpServer>;
let notWeblateUrl: string;

beforeAll(async () => {
  template = await tempFolder();
  runs = await tempFolder();
  const server = await startTestServer();
  try {
    await crawlComplete(server, join(template, 'archive'));
  } finally {
    await server.close();
  }
  snapshotId = (await listSnapshots(join(template, 'archive')))[0]!.id;
  await mkdir(join(template, 'docs'));
  await writeFile(join(template, 'docs', 'thesis.txt'), 'chapter one');
  await mkdir(join(template, 'empty'));
  await writeFile(join(template, 'notes.txt'), 'a file');
  await mkdir(join(template, 'site'));
  await writeFile(join(template, 'site', 'index.html'), '<h1>a site</h1>');
  await writeFile(join(template, 'site', siteMark), '');
  // A JavaScript project's own content/ and dist/ (Astro, Hugo, Nuxt Content), beside the archive.
  await mkdir(join(template, 'content'));
  await writeFile(join(template, 'content', 'post.md'), '# a post');
  await mkdir(join(template, 'dist'));
  await writeFile(join(template, 'dist', 'app.js'), 'console.log(1)');
  await mkdir(join(template, 'home', 'letters'), { recursive: true });
  await writeFile(join(template, 'home', 'letters', 'mum.txt'), 'dear mum');
  busy = createServer();
  await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
  busyPort = (busy.address() as { port: number }).port;
  notWeblate = createHttpServer((_, response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
  await new Promise<void>((done) => notWeblate.listen(0, '127.0.0.1', done));
  notWeblateUrl = `http://127.0.0.1:${(notWeblate.address() as { port: number }).port}/api/`;
}, 120_000);

afterAll(async () => {
  await new Promise((done) => busy.close(done));
  await new Promise((done) => notWeblate.close(done));
});

/** `$BUSY`, `$SNAPSHOT`, `$HOME` and `$URL` stand for what exists only once the suite runs. */
const paths = ['archive', 'archive/snapshots', '.', 'docs', 'notes.txt', 'empty', 'new', 'new/deeper', 'site', 'first.tar.gz', '$HOME', 'nowhere/x'];
const values: Record<string, readonly string[]> = {
  // The archive more often than the rest: most lines that get anywhere read it.
  '--content': ['archive', 'archive', 'archive', ...paths],
  '--out': [...paths, '-'],
  '--dir': paths,
  '--port': ['$BUSY', '0', '-1', '65536', 'http'],
  '--snapshot': ['$SNAPSHOT', '2001-01-01T000000Z', 'latest'],
  '--since': ['$SNAPSHOT', '2001-01-01T000000Z'],
  '--format': ['ndjson', 'csv', 'sqlite', 'parquet'],
  '--url': ['$URL', '$URL', 'not a url', 'ftp://x/api/', 'http://127.0.0.1:1/api/'],
  '--max-duration': ['5h', '5', 'soon', '0', '1h30m'],
  '--site-url': ['https://x/l10n/', 'nope'],
  '--base': ['/l10n/', '/other/', 'relative'],
  '--retries': ['0', '0', '-1'],
  '--data': ['synthetic:projects=1,components=1,languages=2,units=5', 'nonsense'],
  '--lang': ['pl', 'xx'],
  '--title': ['A title'],
  '--keep-daily': ['1', 'x'],
};
const switches = ['--force', '--json', '--noindex', '--full', '--move'];

/** The flags each command takes (and positional words it may be given): lines that get past the parser, mostly. */
const flagsOf: Record<string, { flags: string[]; words?: string[] }> = {
  build: { flags: ['--content', '--out', '--snapshot', '--site-url', '--base', '--force', '--title', '--noindex', '--json'] },
  pack: { flags: ['--content', '--out', '--since', '--force', '--json'], words: ['$SNAPSHOT', '2001-01-01T000000Z'] },
  unpack: { flags: ['--content', '--force', '--json'], words: ['first.tar.gz', 'notes.txt', 'missing.tar.gz', '-'] },
  crawl: { flags: ['--url', '--url', '--content', '--max-duration', '--retries', '--retries', '--force', '--full'], words: ['hours'] },
  demo: { flags: ['--dir', '--dir', '--force', '--port', '--data', '--data'] },
  preview: { flags: ['--out', '--port', '--port'] },
  'reference-server': { flags: ['--port', '--port', '--data'] },
  export: { flags: ['--content', '--snapshot', '--format'] },
  verify: { flags: ['--content', '--json'] },
  snapshots: { flags: ['--content', '--json'] },
  migrate: { flags: ['--content', '--json'] },
  prune: { flags: ['--content', '--keep-daily', '--json'] },
  search: { flags: ['--content', '--lang', '--snapshot', '--json'], words: ['save', 'save', 'file'] },
  diff: { flags: ['--content', '--json'], words: ['$SNAPSHOT', '2001-01-01T000000Z'] },
  tag: { flags: ['--content', '--json', '--move'], words: ['v1', '$SNAPSHOT', '../v1'] },
  credits: { flags: ['--content', '--snapshot', '--since', '--format'] },
  dataset: { flags: ['--content', '--out', '--format', '--format', '--snapshot', '--since', '--json'] },
  help: { flags: [], words: ['crawl', 'nonsense'] },
};

const option = (flag: string): fc.Arbitrary<string[]> =>
  switches.includes(flag) ? fc.constant([flag]) : fc.constantFrom(...values[flag]!).map((value) => [flag, value]);

/** A command, mostly with its own flags, sometimes a word or a flag of another command. */
const commandLine = fc.constantFrom(...Object.keys(flagsOf)).chain((command) => {
  const { flags, words = [] } = flagsOf[command]!;
  const own = flags.length > 0 ? [fc.constantFrom(...flags).chain(option)] : [];
  const word = words.length > 0 ? [fc.constantFrom(...words).map((text) => [text])] : [];
  const stray = fc.constantFrom(...Object.keys(values), ...switches).chain(option);
  return fc.record({
    command: fc.constant(command),
    options: fc.array(fc.oneof({ arbitrary: fc.oneof(...own, ...word, stray), weight: 1 }, ...own.map((arbitrary) => ({ arbitrary, weight: 4 }))), {
      maxLength: 5,
    }),
  });
});

/** Every file under `folder` with a hash of its bytes (folders as such), by path relative to it. */
async function tree(folder: string): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    entries.set(
      relative(folder, path),
      entry.isFile()
        ? createHash('sha256')
            .update(await readFile(path))
            .digest('hex')
        : 'folder',
    );
  }
  return entries;
}

interface Run {
  code: number | null;
  output: string;
  /** Still running after it started serving (or after the time allowed): stopped with Ctrl-C. */
  interrupted: boolean;
}

/** Runs the command line in `cwd`; a server that starts serving (a URL on stdout) is stopped with Ctrl-C, as a user would. */
function run(args: string[], cwd: string, home: string): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: {
        ...process.env,
        HOME: home,
        WEBLATE_TOKEN: '',
        WLC_KEY: '',
        WEBLATE_URL: '',
        WLC_URL: '',
        TMSNAP_CONTENT: '',
        XDG_CONFIG_HOME: join(home, '.config'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let interrupted = false;
    const stop = () => {
      if (child.exitCode !== null || interrupted) return;
      interrupted = true;
      child.kill('SIGINT');
    };
    const timer = setTimeout(stop, 60_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (/^http:\/\/127\.0\.0\.1:\d+\//m.test(output) && !args.includes('--help') && args[0] !== 'export') setTimeout(stop, 300);
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, output, interrupted });
    });
  });
}

describe('any command line', () => {
  it('drives every command', () => {
    expect(Object.keys(commands).filter((name) => !(name in flagsOf))).toEqual([]);
  });

  it('exits 0, 1, 2 or 3 with no stack trace, touching nothing outside the output it names, the archive intact', async () => {
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(commandLine, async ({ command, options }) => {
        const folder = await mkdtemp(join(runs, 'run-'));
        await cp(template, folder, { recursive: true });
        const home = join(folder, 'home');
        const fill = (text: string) =>
          text.replace('$BUSY', String(busyPort)).replace('$SNAPSHOT', snapshotId).replace('$HOME', home).replace('$URL', notWeblateUrl);
        // The demo's default data (the bundled catalogs) takes a minute to crawl and build: a small instance instead.
        const data = command === 'demo' && !options.some(([flag]) => flag === '--data') ? ['--data', values['--data']![0]!] : [];
        const args = [command, ...options.flat().map(fill), ...data];
        const archiveBefore = await tree(join(folder, 'archive'));
        const before = await tree(folder);
        const result = await run(args, folder, home);
        ran++;
        const line = `tmsnap ${args.join(' ')}`;

        expect(result.output, line).not.toMatch(/\n\s+at /);
        if (result.interrupted) expect([0, 130, null], `${line}\n${result.output}`).toContain(result.code);
        else expect([0, 1, 2, 3], `${line}\n${result.output}`).toContain(result.code);

        // What the line names as its output (and each command's default output), and nothing else, may change.
        const named = options
          .filter(([flag]) => flag === '--out' || flag === '--content' || flag === '--dir')
          .map(([, value]) => resolve(folder, fill(value!)));
        const defaultOutput = ({ build: 'dist', crawl: 'content', unpack: 'content', demo: 'tmsnap-demo' } as Record<string, string>)[command];
        const outputs = [...named, ...(defaultOutput === undefined ? [] : [join(folder, defaultOutput)])];
        const mayChange = (path: string) => outputs.some((output) => path === output || path.startsWith(output + sep) || output.startsWith(path + sep));
        const after = await tree(folder);
        const changed = [...new Set([...before.keys(), ...after.keys()])].filter((path) => before.get(path) !== after.get(path));
        expect(
          changed.filter((path) => !mayChange(join(folder, path))),
          `${line}\n${result.output}`,
        ).toEqual([]);
        // The archive may grow (a crawl or unpack into it), never lose or change a file.
        const archiveAfter = await tree(join(folder, 'archive'));
        expect(
          [...archiveBefore].filter(([path, hash]) => archiveAfter.get(path) !== hash).map(([path]) => path),
          line,
        ).toEqual([]);
        await rm(folder, { recursive: true, force: true });
      }),
      {
        numRuns: 30,
        seed: Number(process.env.TMSNAP_PROPERTY_SEED ?? Date.now() % 1_000_000),
        endOnFailure: true,
        // The lines of issue 24 first, every run: they once deleted the archive, a stranger's
        // files and a project's dist/, or ended in a stack trace.
        examples: [
          [
            {
              command: 'build',
              options: [
                ['--content', 'archive'],
                ['--out', '.'],
              ],
            },
          ],
          [
            {
              command: 'build',
              options: [
                ['--content', 'archive'],
                ['--out', 'archive'],
              ],
            },
          ],
          [
            {
              command: 'build',
              options: [
                ['--content', 'archive'],
                ['--out', 'docs'],
              ],
            },
          ],
          [
            {
              command: 'crawl',
              options: [
                ['--url', '$URL'],
                ['--content', 'notes.txt'],
              ],
            },
          ],
          [
            {
              command: 'preview',
              options: [
                ['--out', 'site'],
                ['--port', '$BUSY'],
              ],
            },
          ],
          [{ command: 'demo', options: [['--data', 'synthetic:projects=1,components=1,languages=2,units=5']] }],
        ],
      },
    );
    expect(ran).toBe(30);
  }, 1_200_000);
});
