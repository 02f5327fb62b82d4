import { crawl } from '../crawler/crawl.ts';
import { parseApiRoot } from '../crawler/links.ts';
import { ProgressReporter } from '../crawler/progress.ts';
import { type Command, UsageError, exitCodes, parseCommandLine } from './command.ts';
import { version } from './version.ts';

const help = `Usage: tmsnap crawl --url <API root> [options]

Crawls a Weblate server's API into a dated snapshot under <out>/snapshots/. Re-running the
same command after a crash or a stop resumes the unfinished snapshot. When <out> already
holds a complete snapshot of the same server and scope, the crawl is incremental: it reads
the change log since then and the lists, fetches what changed, and carries the rest over.

Options:
  --url URL            the API root, e.g. https://weblate.example.org/api/ (required)
  --project SLUG       crawl only this project and what hangs off it; repeatable
  --out DIR            the content folder (default: content)
  --changes-since ISO  leave out changes before this time (default: the whole log)
  --full               crawl everything, even when an incremental crawl is possible
  --concurrency N      requests in flight at once (default: 4)
  --max-rps N          requests started per second at most (default: no cap but the server's budget)
  --max-wait SECONDS   the longest Retry-After or rate-limit wait to sit through; a longer one
                       stops the crawl, resumable later (default: 300)
  --timeout SECONDS    abandon and retry a request stalled this long (default: 60)
  --retries N          retries of a 5xx, timeout or dropped connection (default: 5)
  --json               progress and summary as JSON lines on stdout

Environment:
  WEBLATE_TOKEN        API token, sent as "Authorization: Token …" (never give it as a flag:
                       flags show up in ps)

Exit codes: 0 complete, also when the credentials could not read some kinds of resource
(401/403, asked once per kind, listed under "access" in the manifest); 3 complete with
problems of the data (records kept raw, other 4xx answers; listed in the manifest); 1 failed
or stopped (re-run to resume); 2 bad usage.`;

function positiveNumber(flag: string, text: string | undefined, fallback: number | undefined, integer: boolean): number | undefined {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new UsageError(`--${flag} ${JSON.stringify(text)}: expected a ${integer ? 'whole ' : ''}number above 0`);
  }
  return value;
}

function isoTime(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new UsageError(`--changes-since ${JSON.stringify(text)}: expected an ISO 8601 time such as 2026-01-31T00:00:00Z`);
  return new Date(time).toISOString();
}

/** Scrubs the token from anything printed, should a server ever echo it back in an error. */
function redactor(token: string | undefined): (text: string) => string {
  return token ? (text) => text.replaceAll(token, '[WEBLATE_TOKEN]') : (text) => text;
}

export const command: Command = {
  summary: 'crawl a Weblate server into a dated snapshot (resumable)',
  help,
  async run(args) {
    const { values } = parseCommandLine(args, {
      url: { type: 'string' },
      project: { type: 'string', multiple: true },
      out: { type: 'string', default: 'content' },
      'changes-since': { type: 'string' },
      concurrency: { type: 'string' },
      'max-rps': { type: 'string' },
      'max-wait': { type: 'string' },
      timeout: { type: 'string' },
      retries: { type: 'string' },
      json: { type: 'boolean', default: false },
      full: { type: 'boolean', default: false },
    });
    if (values.url === undefined) throw new UsageError('--url is required: the API root, e.g. https://weblate.example.org/api/');
    let apiRoot: URL;
    try {
      apiRoot = parseApiRoot(values.url);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const retries = values.retries === '0' ? 0 : positiveNumber('retries', values.retries, 5, true);
    const token = process.env.WEBLATE_TOKEN?.trim() || undefined;
    const redact = redactor(token);
    const mode = values.json ? 'json' : process.stderr.isTTY ? 'tty' : 'lines';
    const stream = values.json ? process.stdout : process.stderr;
    const reporter = new ProgressReporter(mode, (text) => stream.write(redact(text)));
    const result = await crawl({
      apiRoot,
      contentDir: values.out,
      projects: values.project ?? [],
      changesSince: isoTime(values['changes-since']),
      full: values.full,
      token,
      concurrency: positiveNumber('concurrency', values.concurrency, 4, true) ?? 4,
      maxRps: positiveNumber('max-rps', values['max-rps'], undefined, false),
      maxWaitMs: (positiveNumber('max-wait', values['max-wait'], 300, false) ?? 300) * 1000,
      timeoutMs: (positiveNumber('timeout', values.timeout, 60, false) ?? 60) * 1000,
      retries: retries ?? 5,
      tmsnapVersion: version,
      userAgent: `tmsnap/${version} (Weblate snapshot crawler; node ${process.version})`,
      onProgress: (progress) => reporter.update(progress),
      onWait: (ms, reason) => {
        if (ms >= 5_000) reporter.note(`waiting ${Math.round(ms / 1000)} s: ${reason}`);
      },
    });
    reporter.finish(result);
    if (result.outcome === 'failed') return exitCodes.failed;
    return result.outcome === 'problems' ? exitCodes.completeWithProblems : exitCodes.ok;
  },
};
