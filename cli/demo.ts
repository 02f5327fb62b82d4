import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { crawl } from '../crawler/crawl.ts';
import { parseApiRoot } from '../crawler/links.ts';
import { ProgressReporter } from '../crawler/progress.ts';
import { type ReferenceServer, type ReferenceServerOptions, isActivityModel, raisedRateLimit, startReferenceServer } from '@tmsnap/reference-server';
import { DATASET_HELP } from '@tmsnap/reference-server/datasets';
import { type BuildSummary, BuildInterrupted, buildSite } from '../site/build.ts';
import { type StaticServer, serveStatic } from '../site/serve.ts';
import { type Command, CommandFailure, UsageError, exitCodes, parseCommandLine, parsePort } from './command.ts';
import { type PlayedNights, guideScenario, maxNights, playNights, scenarioProblem } from './demo-nights.ts';
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
changed), crawls it into a snapshot, builds the site from that snapshot and serves it (on the
same port as the last run, when free). Ctrl-C stops everything.

With --nights 2 or 3 it plays the story of docs/guide.md instead: the server crawled on
consecutive nights, a reviewer (user "${guideScenario.people.reviewer}") marking ${guideScenario.marked} German strings of
Django's Admin for editing before night 2, a translator ("${guideScenario.people.translator}") saving ${guideScenario.saved} of them
again and the repository rewording a source string before night 3; the last two nights tagged
${guideScenario.releases.join(' and ')}, the site built with credits: string histories, what changed, releases,
credits and strings translated against an older source, all to be seen. Each run plays the
nights afresh, in <dir>/nights.

Everything it writes goes into one folder of its own (default: ./${demoDirDefault}): the archive in
<dir>/content and the site in <dir>/site. Run it again to reuse them; delete the folder when done.

Options:
  --data DATASET   ${DATASET_HELP} (default: bundled;
                   --nights needs the bundled data, which the server can edit)
  --nights N       nights to crawl, 1 to ${maxNights} (default: 1)
  --dir DIR        the demo's folder (default: ${demoDirDefault}); refused when it holds files an
                   earlier demo did not write (a demo marks its folder with ${demoMark})
  --force          use such a folder all the same (never / or home)
  --port N         port of the site preview; 0: the last run's when free, else any (default: 0)
  -h, --help       this help`;

/** The files in the demo's folder that keep the reference server's and the site's ports from one run to the next. */
export const demoPortFile = 'reference-server-port';
export const demoSitePortFile = 'site-port';

/** The site's name: what it shows, the demo's server, not "127.0.0.1 translation status" (issue 35). */
export const demoTitle = 'tmsnap demo translation status';

/**
 * Listens with `listen` on the port remembered in `file`, or on a free one (port 0) when there
 * was none or it is taken, and remembers the port it got for the next run.
 */
async function onRememberedPort<T>(file: string, listen: (port: number) => Promise<T>, portOf: (server: T) => number): Promise<T> {
  const remembered = await readFile(file, 'utf8').then(
    (text) => Number.parseInt(text.trim(), 10),
    () => 0,
  );
  const port = Number.isInteger(remembered) && remembered > 0 && remembered < 65536 ? remembered : 0;
  const server = await listen(port).catch((error: unknown) => {
    if (port !== 0 && (error as NodeJS.ErrnoException).code === 'EADDRINUSE') return listen(0);
    throw error;
  });
  await writeFile(file, `${portOf(server)}\n`);
  return server;
}

/**
 * Starts the demo's reference server on the port an earlier demo in `dir` used, or on a free one
 * when there was none or it is taken, and keeps that port for the next run. The crawl takes a
 * snapshot for the same server only when the base URL is the same (crawler/incremental.ts), so
 * a stable port is what lets a second demo crawl incrementally (issue 28).
 */
export function startDemoServer(dir: string, options: Omit<ReferenceServerOptions, 'port' | 'host'>): Promise<ReferenceServer> {
  return onRememberedPort(
    join(dir, demoPortFile),
    (port) => startReferenceServer({ ...options, host: '127.0.0.1', port }),
    (server) => Number(new URL(server.url).port),
  );
}

/** Serves the demo's site on `port`, or with 0 on the port the last run's site had when it is free (issue 35): an open tab keeps working. */
export function serveDemoSite(dir: string, out: string, port: number): Promise<StaticServer> {
  if (port !== 0) return serveStatic(out, port);
  return onRememberedPort(
    join(dir, demoSitePortFile),
    (free) => serveStatic(out, free),
    (site) => Number(new URL(site.url).port),
  );
}

/** Said instead of the build's "project(s) of this keyed crawl left out", which means nothing to someone who gave no key. */
export function demoWithheldLine(projects: number): string {
  const [subject, pronoun] = projects === 1 ? ["one of the demo server's projects is", 'it'] : [`${projects} of the demo server's projects are`, 'them'];
  return `tmsnap demo: ${subject} private: the site leaves ${pronoun} out, as the server hides ${pronoun} from visitors who are not signed in (tmsnap build --publish private-projects would show ${pronoun})`;
}

/** The demo's build: named for what it shows, credits when there are nights of work to credit, a plain word on what it leaves out. */
export function buildDemoSite(content: string, out: string, nights: number, signal?: AbortSignal): Promise<BuildSummary> {
  return buildSite({
    content,
    out,
    base: '/',
    hideAuthors: false,
    title: demoTitle,
    credits: nights > 1,
    withheldLine: demoWithheldLine,
    ...(signal ? { signal } : {}),
  });
}

/** Empties the nights' folder for a new play, refusing one holding anything but what a demo writes there. */
async function freshNights(folder: string): Promise<void> {
  const entries = await readdir(folder).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  const foreign = entries.filter((name) => name !== 'content' && name !== 'site');
  if (foreign.length > 0) throw new CommandFailure(`${folder} holds ${foreign.join(', ')}, which no demo wrote: move it away or give another --dir`);
  for (const name of entries) await rm(join(folder, name), { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
}

function step(message: string): void {
  console.error(`\ntmsnap demo: ${message}`);
}

/** `--nights`: a whole number from 1 to `maxNights`. */
export function parseNights(text: string): number {
  const nights = Number(text);
  if (!Number.isInteger(nights) || nights < 1 || nights > maxNights) {
    throw new UsageError(`--nights "${text}": give 1 to ${maxNights} (the guide's story has ${maxNights} nights)`);
  }
  return nights;
}

export const command: Command = {
  summary: 'reference server → crawl → build → preview, in one command',
  help,
  async run(args) {
    const { values } = parseCommandLine(args, {
      data: { type: 'string', default: 'bundled' },
      nights: { type: 'string', default: '1' },
      dir: { type: 'string', default: demoDirDefault },
      force: { type: 'boolean', default: false },
      port: { type: 'string', default: '0' },
    });
    const port = parsePort(values.port);
    const nights = parseNights(values.nights);
    // The nights' edits are dated on their nights: the model's clock, set before each.
    let clock: Date | undefined;
    const model = await loadDatasetFlag(values.data, { now: () => clock ?? new Date() });
    if (nights > 1) {
      const problem = isActivityModel(model) ? scenarioProblem(model, guideScenario) : 'it cannot be edited';
      if (problem !== undefined) throw new UsageError(`--nights ${nights} plays the guide's story on the bundled data; --data ${values.data}: ${problem}`);
    }
    const dir = resolve(values.dir);
    const home = nights > 1 ? join(dir, 'nights') : dir;
    const content = join(home, 'content');
    const out = join(home, 'site');
    // A marked folder is a demo's, site/ included: the build may empty that.
    await guardOutput(dir, { kind: 'demo', flag: '--dir', force: values.force });
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, demoMark), 'The folder of `tmsnap demo`: its archive (content/) and site (site/). Safe to delete.\n');
    if (nights > 1) await freshNights(home);
    step(`writing into ${dir}: the archive in ${nights > 1 ? 'nights/content/' : 'content/'}, the site in ${nights > 1 ? 'nights/site/' : 'site/'}`);

    // A real-server profile (weblate-5.4), read as its admin: anonymous clients get 100 requests
    // a day, fewer than one crawl of the bundled data takes. The key is made here and lives only
    // as long as this process; a token client's limits raised as a test's are.
    const token = `wlu_demo_${randomBytes(16).toString('hex')}`;
    const server = await startDemoServer(dir, { model, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
    try {
      step(`1/3 reference server (${values.data}) at ${server.url}`);
      step(nights > 1 ? `2/3 crawling it on ${nights} nights` : '2/3 crawling it');
      let interrupted = false;
      /** One crawl, `tmsnap crawl`'s defaults against a server on this machine: the snapshot's id, or undefined when it did not complete. */
      const crawlOnce = async (full: boolean): Promise<string | undefined> => {
        const reporter = new ProgressReporter(process.stderr.isTTY ? 'tty' : 'lines', (text) => process.stderr.write(text));
        const interrupt = interruptible((text) => reporter.note(text), crawlInterruptMessages, exitCodes.interrupted);
        const crawled = await crawl({
          apiRoot: parseApiRoot(server.url),
          contentDir: content,
          projects: [],
          full,
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
        if (interrupt.signal.aborted) interrupted = true;
        else if (crawled.outcome === 'failed') console.error('tmsnap demo: the crawl failed (see above); run the same command again to resume it.');
        return interrupt.signal.aborted || crawled.outcome === 'failed' ? undefined : crawled.snapshotId;
      };
      let played: PlayedNights | undefined;
      if (nights > 1 && isActivityModel(model)) {
        played = await playNights({
          model,
          scenario: guideScenario,
          nights,
          content,
          now: new Date(),
          setClock: (date) => (clock = date),
          crawlNight: crawlOnce,
          say: step,
        });
        clock = undefined;
        if (played === undefined) return interrupted ? exitCodes.interrupted : exitCodes.failed;
      } else if ((await crawlOnce(false)) === undefined) {
        return interrupted ? exitCodes.interrupted : exitCodes.failed;
      }
      step(`3/3 building the site into ${out}${nights > 1 ? ', with credits' : ''}`);
      // Built aside and swapped in, as `tmsnap build` does: Ctrl-C here leaves the last demo's site whole.
      const building = interruptible(() => {}, { first: '', lastWords: '' }, exitCodes.interrupted);
      try {
        await buildDemoSite(content, out, nights, building.signal);
      } catch (error) {
        if (!(error instanceof BuildInterrupted)) throw error;
        console.error(`tmsnap demo: ${error.message}`);
        return exitCodes.interrupted;
      } finally {
        building.dispose();
      }
      const site = await serveDemoSite(dir, out, port);
      console.error(`\ntmsnap demo: done. The reference API stays up at ${server.url} while the site is served.`);
      console.error(`tmsnap demo: the archive is in ${content} and the site in ${out}; delete ${dir} when done.`);
      if (played !== undefined) {
        const [before, after] = played.ids.slice(-2);
        console.error(`tmsnap demo: what changed on the last night: ${site.url}changes-between/${before}--${after}/`);
        console.error(`tmsnap demo: the release ${guideScenario.releases[1]}: ${site.url}releases/${guideScenario.releases[1]}/; credits: ${site.url}credits/`);
        if (played.firstUnitPath !== undefined) console.error(`tmsnap demo: a string with a history: ${site.url}${played.firstUnitPath}`);
      }
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
