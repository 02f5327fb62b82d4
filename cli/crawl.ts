import { crawl } from '../crawler/crawl.ts';
import { failWritesAfter, type WriteFault } from '../snapshot/index.ts';
import { parseApiRoot } from '../crawler/links.ts';
import { ProgressReporter } from '../crawler/progress.ts';
import { type Command, UsageError, closest, contentOption, exitCodes, parseCommandLine, strayArgument } from './command.ts';
import { tokenDefault, urlDefault } from './defaults.ts';
import { guardOutput } from './output-guard.ts';
import { interruptible } from './signals.ts';
import { version } from './version.ts';

const help = `Usage: tmsnap crawl --url <API root> [options]

Crawls a Weblate server's API into a dated snapshot under <content>/snapshots/. Re-running the
same command after a crash or a stop resumes the unfinished snapshot. When <content> already
holds a complete snapshot of the same server and scope, the crawl is incremental: it reads
the change log since then and the lists, fetches what changed, and carries the rest over.

Options:
  --url URL            the API root, e.g. https://weblate.example.org/api/ (default: see
                       Environment; one of them is required)
  --project SLUG       crawl only this project and what hangs off it; repeatable
  --content DIR        the archive folder, created on the first crawl (default: content, or
                       TMSNAP_CONTENT); refused when it holds other files and no archive
  --force              crawl into such a folder all the same (never / or home)
  --max-duration TIME  stop starting requests after TIME (5h, 300m, 90s, 1h30m or seconds) and leave
                       the snapshot resumable (exit 1); give a scheduled job's limit minus a
                       margin for the requests in flight and the steps after
  --max-requests N     send at most N requests in this run (retries included) and leave the
                       snapshot resumable (exit 1); a night's share of the server's budget
  --allow-insecure-http  send the token over plain http:// to a host that is not this machine
                       (refused otherwise: anyone on the way could read it; wlc refuses too)
  --changes-since ISO  leave out changes before this time (default: the whole log)
  --full               crawl everything, even when an incremental crawl is possible
  --concurrency N      requests in flight at once (default: 4)
  --max-rps N          requests started per second at most (default: no cap but the server's budget)
  --max-wait SECONDS   the longest Retry-After or rate-limit wait to sit through; a longer one
                       stops the crawl, resumable later (default: 300)
  --timeout SECONDS    abandon and retry a request stalled this long (default: 60)
  --retries N          retries of a 5xx, timeout or dropped connection (default: 5)
  --json               progress and summary as JSON lines on stdout

Environment (a flag wins; the first one set is used):
  WEBLATE_URL, WLC_URL  the API root when --url is absent; then wlc's configuration file
                       (~/.config/weblate, section [weblate], key url)
  WEBLATE_TOKEN, WLC_KEY  API token, sent as "Authorization: Token …"; then the entry for the
                       URL in section [keys] of wlc's file. Never a flag: flags show up in ps
  TMSNAP_CONTENT       the archive folder when --content is absent
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY  the proxy to reach the server through

Ctrl-C stops starting requests, lets those in flight finish and leaves the snapshot resumable
(a second Ctrl-C stops at once, resumable too); the next run says it is resuming.

Exit codes: 0 complete, also when the credentials could not read some kinds of resource
(401/403, asked once per kind, listed under "access" in the manifest); 3 complete with
problems of the data (records kept raw, other 4xx answers; listed in the manifest); 1 failed
or stopped (re-run to resume); 2 bad usage; 130 stopped by Ctrl-C (re-run to resume).`;

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

const durationForms = 'e.g. 5h, 300m, 90s, 1h30m or a number of seconds';
const durationUnits: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000 };

/**
 * `5h`, `300m`, `90s`, `1h30m`, `2 hours`, `90 min` or bare seconds, in milliseconds. Unit words
 * are taken by their first letter (hours, minutes, seconds); anything else is refused, naming
 * the accepted forms.
 */
export function parseDuration(text: string): number {
  const parts = /^(?:\s*\d+(?:\.\d+)?\s*(?:h|hrs?|hours?|m|mins?|minutes?|s|secs?|seconds?)\s*)+$/i.test(text)
    ? [...text.matchAll(/(\d+(?:\.\d+)?)\s*([hms])[a-z]*/gi)]
    : /^\s*\d+(?:\.\d+)?\s*$/.test(text)
      ? [[text, text.trim(), 's'] as const]
      : [];
  const value = parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * durationUnits[unit!.toLowerCase()]!, 0);
  if (!(value > 0)) throw new UsageError(`--max-duration ${JSON.stringify(text)}: expected a time, ${durationForms}`);
  return value;
}

/** This machine: where a token over plain http reaches no one else (wlc allows the same). */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Scrubs the token from anything printed, should a server ever echo it back in an error. */
function redactor(token: string | undefined): (text: string) => string {
  return token ? (text) => text.replaceAll(token, '[WEBLATE_TOKEN]') : (text) => text;
}

/**
 * The refusal `TMSNAP_TEST_WRITE_FAULT=ENOSPC:N` asks for: N object writes go through, then each
 * fails with that code. Tests run the CLI as a child process and reach its store only this way
 * (test/snapshot/disk-full.test.ts); unset in normal use.
 */
export function writeFaultFromEnvironment(environment: NodeJS.ProcessEnv = process.env): WriteFault | undefined {
  const setting = environment.TMSNAP_TEST_WRITE_FAULT;
  const match = setting === undefined ? null : /^([A-Z]+):(\d+)$/.exec(setting);
  return match === null ? undefined : failWritesAfter(Number(match[2]), match[1]!, 'injected by TMSNAP_TEST_WRITE_FAULT');
}

/** What Ctrl-C during a crawl says: the first lets the requests in flight finish, a second stops at once. */
export const crawlInterruptMessages = {
  first: 'stopping after the requests in flight (Ctrl-C again to stop at once); run the same command to resume',
  lastWords: 'stopped; run the same command to resume',
};

export const command: Command = {
  summary: 'crawl a Weblate server into a dated snapshot (resumable)',
  help,
  async run(args) {
    const { values, positionals } = parseCommandLine(
      args,
      {
        url: { type: 'string' },
        project: { type: 'string', multiple: true },
        content: contentOption(),
        force: { type: 'boolean', default: false },
        'max-duration': { type: 'string' },
        'max-requests': { type: 'string' },
        'allow-insecure-http': { type: 'boolean', default: false },
        'changes-since': { type: 'string' },
        concurrency: { type: 'string' },
        'max-rps': { type: 'string' },
        'max-wait': { type: 'string' },
        timeout: { type: 'string' },
        retries: { type: 'string' },
        json: { type: 'boolean', default: false },
        full: { type: 'boolean', default: false },
      },
      true,
    );
    const [stray] = positionals;
    if (stray !== undefined) {
      const afterDuration = args[args.indexOf(stray) - 2] === '--max-duration';
      throw new UsageError(
        afterDuration ? `--max-duration ${args[args.indexOf(stray) - 1]} ${stray}: give the time as one word, ${durationForms}` : strayArgument(args, stray),
      );
    }
    const contentDir = values.content;
    const url = values.url ?? urlDefault()?.value;
    if (url === undefined) throw new UsageError('--url is required (or WEBLATE_URL): the API root, e.g. https://weblate.example.org/api/');
    let apiRoot: URL;
    try {
      apiRoot = parseApiRoot(url);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const retries = values.retries === '0' ? 0 : positiveNumber('retries', values.retries, 5, true);
    const deadline = values['max-duration'] === undefined ? undefined : Date.now() + parseDuration(values['max-duration']);
    const token = (tokenDefault(url) ?? tokenDefault(apiRoot.href))?.value;
    if (token !== undefined && apiRoot.protocol === 'http:' && !isLoopback(apiRoot.hostname) && !values['allow-insecure-http']) {
      throw new UsageError(
        `refusing to send the API token over plain http to ${apiRoot.host}: anyone on the way could read it. ` +
          'Use the https:// URL, or give --allow-insecure-http if this network is yours',
      );
    }
    const limits = {
      concurrency: positiveNumber('concurrency', values.concurrency, 4, true) ?? 4,
      maxRps: positiveNumber('max-rps', values['max-rps'], undefined, false),
      maxWaitMs: (positiveNumber('max-wait', values['max-wait'], 300, false) ?? 300) * 1000,
      timeoutMs: (positiveNumber('timeout', values.timeout, 60, false) ?? 60) * 1000,
      retries: retries ?? 5,
      maxRequests: positiveNumber('max-requests', values['max-requests'], undefined, true),
    };
    const changesSince = isoTime(values['changes-since']);
    await guardOutput(contentDir, { kind: 'archive', flag: '--content', force: values.force });
    const redact = redactor(token);
    const mode = values.json ? 'json' : process.stderr.isTTY ? 'tty' : 'lines';
    const stream = values.json ? process.stdout : process.stderr;
    const reporter = new ProgressReporter(mode, (text) => stream.write(redact(text)));
    const interrupt = interruptible((text) => reporter.note(text), crawlInterruptMessages, exitCodes.interrupted);
    let result: Awaited<ReturnType<typeof crawl>>;
    try {
      result = await crawl({
        apiRoot,
        contentDir,
        deadline,
        projects: values.project ?? [],
        changesSince,
        full: values.full,
        token,
        ...limits,
        tmsnapVersion: version,
        userAgent: `tmsnap/${version} (Weblate snapshot crawler; node ${process.version})`,
        signal: interrupt.signal,
        writeFault: writeFaultFromEnvironment(),
        suggest: closest,
        onStart: ({ snapshotId, dir, resumed, made }) => {
          if (resumed) reporter.note(`resuming snapshot ${snapshotId} (${dir}), stopped earlier after ${made} requests`);
        },
        onProgress: (progress) => reporter.update(progress),
        onWait: (ms, reason) => {
          if (ms >= 5_000) reporter.note(`waiting ${Math.round(ms / 1000)} s: ${reason}`);
        },
      });
    } finally {
      interrupt.dispose();
    }
    reporter.finish(result);
    if (interrupt.signal.aborted) return exitCodes.interrupted;
    if (result.outcome === 'failed') return exitCodes.failed;
    return result.outcome === 'problems' ? exitCodes.completeWithProblems : exitCodes.ok;
  },
};
