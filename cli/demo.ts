import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { crawl } from '../crawler/crawl.ts';
import { parseApiRoot } from '../crawler/links.ts';
import { ProgressReporter } from '../crawler/progress.ts';
import { DATASET_HELP } from '../reference-server/datasets.ts';
import { raisedRateLimit } from '../reference-server/rate-limit.ts';
import { startReferenceServer } from '../reference-server/server.ts';
import { buildSite } from '../site/build.ts';
import { serveStatic } from '../site/serve.ts';
import { type Command, contentOption, exitCodes, parseCommandLine, parsePort } from './command.ts';
import { loadDatasetFlag } from './reference-server.ts';
import { untilInterrupted } from './signals.ts';
import { version } from './version.ts';

const help = `Usage: tmsnap demo [options]

The whole job on this machine, with no account anywhere: starts the reference server on a
free port, crawls it into a snapshot, builds the site from that snapshot and serves it.
Ctrl-C stops everything.

Options:
  --data DATASET   ${DATASET_HELP} (default: bundled)
  --content DIR    the archive folder for the snapshot (default: content, or TMSNAP_CONTENT)
  --out DIR        site output folder (default: dist)
  --port N         port of the site preview; 0 picks a free one (default: 0)
  -h, --help       this help`;

function step(message: string): void {
  console.error(`\ntmsnap demo: ${message}`);
}

export const command: Command = {
  summary: 'reference server → crawl → build → preview, in one command',
  help,
  async run(args) {
    const { values } = parseCommandLine(args, {
      data: { type: 'string', default: 'bundled' },
      content: contentOption(),
      out: { type: 'string', default: 'dist' },
      port: { type: 'string', default: '0' },
    });
    const port = parsePort(values.port);
    const model = await loadDatasetFlag(values.data);

    // A real-server profile (weblate-5.4), read as its admin: anonymous clients get 100 requests
    // a day, fewer than one crawl of the bundled data takes. The key is made here and lives only
    // as long as this process; a token client's limits raised as a test's are.
    const token = `wlu_demo_${randomBytes(16).toString('hex')}`;
    const server = await startReferenceServer({ model, host: '127.0.0.1', port: 0, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
    try {
      step(`1/3 reference server (${values.data}) at ${server.url}`);
      step('2/3 crawling it');
      // `tmsnap crawl`'s defaults, against a server on this machine.
      const reporter = new ProgressReporter(process.stderr.isTTY ? 'tty' : 'lines', (text) => process.stderr.write(text));
      const crawled = await crawl({
        apiRoot: parseApiRoot(server.url),
        contentDir: values.content,
        projects: [],
        token,
        concurrency: 4,
        timeoutMs: 60_000,
        retries: 5,
        maxWaitMs: 300_000,
        tmsnapVersion: version,
        userAgent: `tmsnap/${version} (Weblate snapshot crawler, demo; node ${process.version})`,
        onProgress: (progress) => reporter.update(progress),
      });
      reporter.finish(crawled);
      if (crawled.outcome === 'failed') {
        console.error('tmsnap demo: the crawl failed (see above); re-run `npm run demo` to resume it.');
        return exitCodes.failed;
      }
      step('3/3 building the site');
      const content = resolve(values.content);
      const out = resolve(values.out);
      await buildSite({ content, out, base: '/', hideAuthors: false });
      const site = await serveStatic(out, port);
      console.error(`\ntmsnap demo: done. The reference API stays up at ${server.url} while the site is served.`);
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
