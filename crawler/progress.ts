import { driftLine, requestKinds } from '../snapshot/index.ts';
import type { CrawlProgress, CrawlResult } from './crawl.ts';
import { phases } from './plan.ts';

/** Where progress goes: a live line on a terminal, plain lines in a log, NDJSON for machines. */
export type ProgressMode = 'tty' | 'lines' | 'json';

/** What each phase of the plan (plan.ts `phases`) fetches, as the progress line names it. */
const phaseNames: Record<number, string> = {
  [phases.root]: 'the API root',
  [phases.structure]: 'projects, components, translations',
  [phases.bulk]: 'strings, changes, statistics',
  [phases.stragglers]: 'users and leftovers',
  [phases.history]: 'older changes, repositories',
  [phases.downloads]: 'translation files',
};

/** `step 2/5 (projects, components, translations)`: a phase number alone told a user nothing (issue 28). */
export function phaseLabel(phase: number): string {
  const count = Object.keys(phases).length;
  return `step ${phase + 1}/${count} (${phaseNames[phase] ?? `phase ${phase}`})`;
}

/** One line describing the crawl so far (pure). */
export function progressLine(progress: CrawlProgress, elapsedMs: number): string {
  const seconds = Math.max(elapsedMs / 1000, 0.001);
  const rate = progress.made / seconds;
  const eta = rate > 0 && progress.pending > 0 ? ` ETA ~${formatDuration((progress.pending / rate) * 1000)}` : '';
  const { remaining, limit } = progress.budget;
  const budget = remaining === undefined ? '' : ` budget ${remaining}/${limit ?? '?'}`;
  return `${phaseLabel(progress.phase)} | ${progress.made} requests (${rate.toFixed(1)}/s) | ${progress.records} records | queue ${progress.pending}${eta}${budget}`;
}

export function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  if (total < 60) return `${total}s`;
  if (total < 3600) return `${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s`;
  return `${Math.floor(total / 3600)}h${String(Math.floor((total % 3600) / 60)).padStart(2, '0')}m`;
}

/** The end-of-crawl summary (pure). */
export function summaryLines(result: CrawlResult, elapsedMs: number): string[] {
  // Stopped by the archive's lock or a refused write: the one line saying why (issue 11), no empty snapshot id and zeros.
  // Or by the server's first answers, before anything was created (issue 35).
  if (result.stoppedByArchive || result.refusedAtStart) return [result.message ?? 'crawl stopped'];
  const seconds = Math.max(elapsedMs / 1000, 0.001);
  const records = Object.values(result.counts).reduce((sum, n) => sum + n, 0);
  const lines = [
    `${result.outcome === 'failed' ? 'crawl stopped' : 'snapshot'} ${result.snapshotId}: ${result.dir}`,
    `requests made ${result.made}, minimum requests ${result.minimum}`,
  ];
  const byKind = requestKinds.filter((kind) => result.requestsByKind[kind] !== undefined).map((kind) => `${kind} ${result.requestsByKind[kind]?.made}`);
  if (byKind.length > 0) lines.push(`requests by kind: ${byKind.join(', ')}`);
  if (result.outcome !== 'failed') {
    lines.push(
      `${records} records in ${formatDuration(elapsedMs)} (${(records / seconds).toFixed(0)} records/s): ${Object.entries(result.counts)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(', ')}`,
    );
  }
  if (result.problems.length > 0) {
    lines.push(`${result.problems.length} problem(s):`);
    for (const problem of result.problems.slice(0, 20)) lines.push(`  ${problem.url}${problem.field ? ` [${problem.field}]` : ''}: ${problem.reason}`);
    if (result.problems.length > 20) lines.push(`  … and ${result.problems.length - 20} more in the manifest`);
  }
  // One line however much drifted: the fields a new Weblate release changed (docs/weblate-api.md, Drift).
  const drift = driftLine(result.drift);
  if (drift !== undefined) lines.push(drift);
  if (result.access.length > 0) {
    lines.push(`not readable with these credentials (asked once each, then skipped; not a problem of the data):`);
    for (const denied of result.access) lines.push(`  ${denied.kind}: ${denied.status} at ${denied.url}`);
  }
  if (result.message) lines.push(result.message);
  return lines;
}

/**
 * Reports progress to a stream. On a terminal the line is redrawn at most 5 times a second;
 * in a log, a line every 5 seconds; in JSON, an object per report, throttled the same way.
 */
export class ProgressReporter {
  readonly #started = Date.now();
  #last = 0;
  #drawn = false;

  readonly mode: ProgressMode;
  readonly write: (text: string) => void;

  constructor(mode: ProgressMode, write: (text: string) => void) {
    this.mode = mode;
    this.write = write;
  }

  update(progress: CrawlProgress): void {
    const now = Date.now();
    const interval = this.mode === 'tty' ? 200 : 5_000;
    if (now - this.#last < interval) return;
    this.#last = now;
    if (this.mode === 'json') {
      this.write(`${JSON.stringify({ event: 'progress', ...progress, elapsed_ms: now - this.#started })}\n`);
    } else if (this.mode === 'tty') {
      this.write(`\r\x1b[2K${progressLine(progress, now - this.#started)}`);
      this.#drawn = true;
    } else {
      this.write(`${progressLine(progress, now - this.#started)}\n`);
    }
  }

  note(message: string): void {
    if (this.mode === 'json') {
      this.write(`${JSON.stringify({ event: 'note', message })}\n`);
      return;
    }
    this.#clear();
    this.write(`${message}\n`);
  }

  finish(result: CrawlResult): void {
    const elapsed = Date.now() - this.#started;
    if (this.mode === 'json') {
      this.write(`${JSON.stringify({ event: 'finished', ...result, elapsed_ms: elapsed })}\n`);
      return;
    }
    this.#clear();
    this.write(`${summaryLines(result, elapsed).join('\n')}\n`);
  }

  #clear(): void {
    if (this.#drawn) this.write('\r\x1b[2K');
    this.#drawn = false;
  }
}
