import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { crawl } from '../crawler/crawl.ts';
import { parseApiRoot } from '../crawler/links.ts';
import { ProgressReporter } from '../crawler/progress.ts';
import { type ReferenceServer, type ReferenceServerOptions, raisedRateLimit, startReferenceServer } from '@tmsnap/reference-server';
import { DATASET_HELP } from '@tmsnap/reference-server/datasets';
import { BuildInterrupted, buildSite } from '../site/build.ts';
import { serveStatic } from '../site/serve.ts';
import { type Command, exitCodes, parseCommandLine, parsePort } from './command.ts';
import { crawlInterruptMessages } from './crawl.ts';
import { demoMark, guardOutput } from './output-guard.ts';
import { loadDatasetFlag } from './reference-server.ts';
import { interruptible, untilInterrupted } from './signals.ts';
import { version } from './version.ts';

/** The demo's own folder, beside nothing of the user's: a project's `content/` and `dist/` are not its to touch (issue 24). */
export const demoDirDefault = 'tmsnap-demo';

const help = `Usage: tmsnap demo [options]

The whole job on this machine, with no account anywhere: starts the reference server on a
free port (the same one as the last run when it is still free, so a rerun crawls only what
changed), crawls it into a snapshot, builds the site from that snapshot and serves it.
Ctrl-C stops everything.

Everything it writes goes into one folder of its own (default: ./${demoDirDefault}): the archive in
<dir>/content and the site in <dir>/site. Run it again to reuse them; delete the folder when done.

Options:
  --data DATASET   ${DATASET_HELP} (default: bundled)
  --dir DIR        the demo's folder (default: ${demoDirDefault}); refused when it holds files an
                   earlier demo did not write (a demo marks its folder with ${demoMark})
  --force          use such a folder all the same (never / or home)
  --port N         port of the site preview; 0 picks a free one (default: 0)
  -h, --help       this help`;

/** The file in the demo's folder that keeps the reference server's port from one run to the next. */
export const demoPortFile = 'reference-server-port';

/**
 * Starts the demo's reference server on the port an earlier demo in `dir` used, or on a free one
 * when there was none or it is taken, and keeps that port for the next run. The crawl takes a
 * snapshot for the same server only when the base URL is the same (crawler/incremental.ts), so
 * a stable port is what lets a second demo crawl incrementally (issue 28).
 */
export async function startDemoServer(dir: string, options: Omit<ReferenceServerOptions, 'port' | 'host'>): Promise<ReferenceServer> {
  const file = join(dir, demoPortFile);
  const remembered = await readFile(file, 'utf8').then(
    (text) => Number.parseInt(text.trim(), 10),
    () => 0,
  );
  const port = Number.isInteger(remembered) && remembered > 0 && remembered < 65536 ? remembered : 0;
  const server = await startReferenceServer({ ...options, host: '127.0.0.1', port }).catch((error: unknown) => {
    if (port !== 0 && (error as NodeJS.ErrnoException).code === 'EADDRINUSE') return startReferenceServer({ ...options, host: '127.0.0.1', port: 0 });
    throw error;
  });
  await writeFile(file, `${new URL(server.url).port}\n`);
  return server;
}

function step(message: string): void {
  console.error(`\ntmsnap demo: ${message}`);
}

export const command: Command = {
  summary: 'reference server → crawl → build → preview, in one command',
  help,
  async run(args) {
    const { values } = parseCommandLine(args, {
      data: { type: 'string', default: 'bundled' },
      dir: { type: 'string', default: demoDirDefault },
      force: { type: 'boolean', default: false },
      port: { type: 'string', default: '0' },
    });
    const port = parsePort(values.port);
    const model = await loadDatasetFlag(values.data);
    const dir = resolve(values.dir);
    const content = join(dir, 'content');
    const out = join(dir, 'site');
    // A marked folder is a demo's, site/ included: the build may empty that.
    await guardOutput(dir, { kind: 'demo', flag: '--dir', force: values.force });
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, demoMark), 'The folder of `tmsnap demo`: its archive (content/) and site (site/). Safe to delete.\n');
    step(`writing into ${dir}: the archive in content/, the site in site/`);

    // A real-server profile (weblate-5.4), read as its admin: anonymous clients get 100 requests
    // a day, fewer than one crawl of the bundled data takes. The key is made here and lives only
    // as long as this process; a token client's limits raised as a test's are.
    const token = `wlu_demo_${randomBytes(16).toString('hex')}`;
    const server = await startDemoServer(dir, { model, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
    try {
      step(`1/3 reference server (${values.data}) at ${server.url}`);
      step('2/3 crawling it');
      // `tmsnap crawl`'s defaults, against a server on this machine.
      const reporter = new ProgressReporter(process.stderr.isTTY ? 'tty' : 'lines', (text) => process.stderr.write(text));
      const interrupt = interruptible((text) => reporter.note(text), crawlInterruptMessages, exitCodes.interrupted);
      const crawled = await crawl({
        apiRoot: parseApiRoot(server.url),
        contentDir: content,
        projects: [],
        token,
        concurrency: 4,
        timeoutMs: 60_000,
        retries: 5,
        maxWaitMs: 300_000,
        tmsnapVersion: version,
        userAgent: `tmsnap/${version} (Weblate snapshot crawler, demo; node ${process.version})`,
        signal: interrupt.signal,
        onStart: ({ snapshotId, resumed }) => {
          if (resumed) reporter.note(`resuming snapshot ${snapshotId}, which an earlier demo left unfinished`);
        },
        onProgress: (progress) => reporter.update(progress),
      }).finally(() => interrupt.dispose());
      reporter.finish(crawled);
      if (interrupt.signal.aborted) return exitCodes.interrupted;
      if (crawled.outcome === 'failed') {
        console.error('tmsnap demo: the crawl failed (see above); run the same command again to resume it.');
        return exitCodes.failed;
      }
      step(`3/3 building the site into ${out}`);
      // Built aside and swapped in, as `tmsnap build` does: Ctrl-C here leaves the last demo's site whole.
      const building = interruptible(() => {}, { first: '', lastWords: '' }, exitCodes.interrupted);
      try {
        await buildSite({ content, out, base: '/', hideAuthors: false, signal: building.signal });
      } catch (error) {
        if (!(error instanceof BuildInterrupted)) throw error;
        console.error(`tmsnap demo: ${error.message}`);
        return exitCodes.interrupted;
      } finally {
        building.dispose();
      }
      const site = await serveStatic(out, port);
      console.error(`\ntmsnap demo: done. The reference API stays up at ${server.url} while the site is served.`);
      console.error(`tmsnap demo: the archive is in ${content} and the site in ${out}; delete ${dir} when done.`);
      console.error(`tmsnap demo: open the site at ${site.url}  (Ctrl-C stops everything)`);
      console.log(site.url);
      await untilInterrupted();
      await site.close();
      return exitCodes.ok;
    } finally {
      await server.close();
    }
  },
};
