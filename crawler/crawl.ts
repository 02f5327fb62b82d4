import { AsyncLocalStorage } from 'node:async_hooks';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  openSnapshotWriter,
  type SnapshotWriter,
  ArchiveLockedError,
  withArchiveLock,
  storeWrite,
  StoreWriteError,
  type AccessProblem,
  type Problem,
  type RequestCount,
  type RequestKind,
  type Parts,
  type SkippedResources,
  type Drift,
  type WriteFault,
  normalizeBaseUrl,
} from '../snapshot/index.ts';
import { AccessRules } from './access.ts';
import { type CrawlError, CrawlStoppedError, RateLimitError, stopCodes } from './errors.ts';
import { HttpClient } from './http/client.ts';
import { budgetSpent } from './http/pacing.ts';
import { firstAnswers } from './first-answers.ts';
import { IncrementalCrawl, previousSnapshot } from './incremental.ts';
import { rootPath, serverBase } from './links.ts';
import { anonymousHint, outcomeOf, requestCapStop } from './outcomes.ts';
import { isHistory, phases } from './plan.ts';
import { anonymousProjects } from './public-view.ts';
import { parsedTask, type Task } from './queue/task.ts';
import { type CrawlState, openCrawlState } from './queue/state.ts';
import { requestKind } from './queue/statistics.ts';
import { UnitSpool } from './queue/unit-spool.ts';
import { drain } from './scheduler.ts';
import { CrawlScope } from './scope.ts';
import { fetchUnitsAgain, runTask, TaskContext } from './tasks/index.ts';
import { UnitsStrategy } from './units.ts';

export interface CrawlOptions {
  apiRoot: URL;
  contentDir: string;
  /** Project slugs; empty: the whole instance. */
  projects: string[];
  /** ISO timestamp: changes before it are left out. */
  changesSince?: string | undefined;
  /** Crawl everything even when a previous snapshot of the same server and scope would allow an incremental crawl. */
  full?: boolean | undefined;
  /**
   * An incremental crawl merges touched translations from one list of the units changed since
   * (tasks/changed-units.ts; default true). False fetches each touched translation's `units/`,
   * as before: bench:crawl `--edited` measures both.
   */
  changedUnitsList?: boolean | undefined;
  token?: string | undefined;
  concurrency: number;
  maxRps?: number | undefined;
  timeoutMs: number;
  retries: number;
  maxWaitMs: number;
  /**
   * Epoch milliseconds after which no new request starts: the run stops like a budget stop,
   * the unfinished snapshot stays resumable (`tmsnap crawl --max-duration`).
   */
  deadline?: number | undefined;
  /**
   * Requests this run may send, retries included (`tmsnap crawl --max-requests`): the night's
   * share of the server's budget. The run stops like a deadline stop once they are made.
   */
  maxRequests?: number | undefined;
  /** The most items a paged resource may list to be fetched and stored (default `maxResourceItems`, tasks/resource.ts). */
  maxResourceItems?: number | undefined;
  tmsnapVersion: string;
  userAgent: string;
  onProgress?: (progress: CrawlProgress) => void;
  onWait?: (ms: number, reason: string) => void;
  /** Told once the snapshot is open: whether this run goes on with one a stopped run left. */
  onStart?: (start: CrawlStart) => void;
  /** Aborted (Ctrl-C): no new request starts, the snapshot stays resumable. */
  signal?: AbortSignal | undefined;
  /** How answers are parsed (http/page-json.ts by default); a test passes the lossless `parseJson` to compare. */
  parseJson?: ((text: string) => unknown) | undefined;
  /** Tests only: refuses the snapshot's object writes as a full or read-only disk would (snapshot/store.ts `WriteFault`). */
  writeFault?: WriteFault | undefined;
  /** The project meant by a mistyped `--project` among those the server lists (the CLI's "did you mean"). */
  suggest?: ((typed: string, known: readonly string[]) => string | undefined) | undefined;
}

export interface CrawlStart {
  snapshotId: string;
  dir: string;
  /** The run goes on with a snapshot a stopped run left; `made` requests were made then. */
  resumed: boolean;
  made: number;
}

export interface CrawlProgress {
  made: number;
  minimum: number;
  /** Records, units and changes received so far in this run. */
  records: number;
  pending: number;
  phase: number;
  budget: HttpClient['budget'];
}

export interface CrawlResult {
  outcome: 'complete' | 'problems' | 'failed';
  snapshotId: string;
  /** The finished snapshot's folder, or the `.partial` one a re-run resumes. */
  dir: string;
  made: number;
  minimum: number;
  /** Requests made and needed, by kind of request: where the budget went. */
  requestsByKind: Partial<Record<RequestKind, RequestCount>>;
  /** Problems of the data (exit 3). */
  problems: Problem[];
  /** Kinds of resource the credentials may not read, once each (exit 0 when nothing else went wrong). */
  access: AccessProblem[];
  /**
   * Requests this run made until the current state was all in (its first history-phase task
   * started, or it ended without one): what a site complete and current costs (bench:crawl).
   */
  currentMade?: number;
  /** What of the history the snapshot holds, when a run stopped for the night left some for later (the manifest's `parts`). */
  parts?: Parts;
  /** Resources left out on purpose: statistics of languages no translation in scope uses, resources too long to hold. */
  skipped?: SkippedResources[];
  /** Fields of the server's records that differ from the measured shape (the manifest's `drift`; not problems). */
  drift?: Drift;
  counts: Record<string, number>;
  /** Why a failed crawl stopped and what to do. */
  message?: string;
  /**
   * The archive stopped the crawl (its lock held by another writer, or a write the disk
   * refused): no snapshot id or figures to report, `message` says it all.
   */
  stoppedByArchive?: true;
  /**
   * The server's first answers stopped the crawl before anything was created (crawler/first-answers.ts):
   * a wrong URL, a refused key, a project it does not list. `message` says it all.
   */
  refusedAtStart?: true;
}

/** Stops that end a night's run rather than the crawl: after the current state is in, the snapshot is finished without all its history. */
const nightlyStops = {
  [stopCodes.requests]: 'this run made the requests --max-requests allows',
  [stopCodes.deadline]: 'the time allowed (--max-duration) ran out',
  [stopCodes.budget]: "the server's rate budget is spent",
  [stopCodes.failures]: 'some requests for the history failed (retried next run)',
} as const;

const journalName = 'crawl-journal.ndjson';
const spoolName = 'crawl-units';

/**
 * Pages of a units list (10,000 units, about 9 MB) fetched at once; the other requests keep the
 * crawl's concurrency. Each is held parsed until its translations are written, which made four
 * of them the crawl's peak memory at 1M (docs/crawl.md, "Measured"); two keep the server busy
 * while the crawler parses and writes the other.
 */
const unitPagesInFlight = 2;

const isUnitPage = (task: Task): boolean => task.type === 'units' && task.page === true;

/**
 * One crawl into one snapshot: queue the API root, run tasks phase by phase, store what they
 * bring, queue what they link to, then write each translation's units and finish. Resumes
 * the newest unfinished snapshot of the same server and scope.
 *
 * It holds the archive's lock throughout (snapshot/lock.ts): while a prune, migrate, unpack
 * or another crawl writes the same folder, it stops at once naming that writer. A full disk or
 * a folder it may not write stops it the same way, resumable (docs/snapshot-format.md).
 */
export async function crawl(options: CrawlOptions): Promise<CrawlResult> {
  const scope = new CrawlScope(options.projects, options.changesSince);
  const client = new HttpClient({
    apiRoot: options.apiRoot,
    token: options.token,
    userAgent: options.userAgent,
    concurrency: options.concurrency,
    maxRps: options.maxRps,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    maxWaitMs: options.maxWaitMs,
    deadline: options.deadline,
    maxRequests: crawlCap(options),
    ...(options.onWait ? { onWait: options.onWait } : {}),
    parse: options.parseJson,
    onRequest: () => {
      const counter = taskRequests.getStore();
      if (counter !== undefined) counter.made++;
    },
  });
  const stopped = (message: string, refusedAtStart: boolean): CrawlResult => ({
    outcome: 'failed',
    snapshotId: '',
    dir: options.contentDir,
    made: client.requests,
    minimum: 0,
    requestsByKind: {},
    problems: [],
    access: [],
    counts: {},
    message,
    ...(refusedAtStart ? { refusedAtStart: true as const } : { stoppedByArchive: true as const }),
  });
  try {
    // Nothing is created (no folder, no lock, no snapshot) until the server answered (first-answers.ts).
    const refusal = await firstAnswers(
      { apiRoot: options.apiRoot, contentDir: options.contentDir, slugs: scope.slugs, scope: scope.manifest, token: options.token, suggest: options.suggest },
      client,
    );
    if (refusal !== undefined) return stopped(refusal, true);
    // Ctrl-C while the server was asked: nothing to resume, so nothing is created.
    if (options.signal?.aborted) return stopped('stopped (Ctrl-C) before anything was written; run the same command to start', true);
    return await storeWrite(options.contentDir, () =>
      withArchiveLock(options.contentDir, { command: 'crawl', create: true }, () => crawlHoldingLock(options, scope, client)),
    );
  } catch (error) {
    if (!(error instanceof ArchiveLockedError) && !(error instanceof StoreWriteError)) throw error;
    return stopped(error.message, false);
  } finally {
    await client.close();
  }
}

async function crawlHoldingLock(options: CrawlOptions, scope: CrawlScope, client: HttpClient): Promise<CrawlResult> {
  // Opened once: the incremental crawl reads it, and the writer stores its deltas against it
  // when it is also the snapshot the writer's own rule picks (docs/crawl.md, "Incremental crawls").
  const previous = options.full ? undefined : await previousSnapshot(options.contentDir, normalizeBaseUrl(serverBase(options.apiRoot)), scope.manifest);
  const writer = await openSnapshotWriter(options.contentDir, {
    baseUrl: serverBase(options.apiRoot),
    previous,
    scope: scope.manifest,
    tmsnapVersion: options.tmsnapVersion,
    resume: true,
    // Objects outside the scope that other records embed stay embedded (docs/crawl.md, "Scope").
    ownRecord: (url) => scope.holds(rootPath(url, options.apiRoot)),
    writeFault: options.writeFault,
  });
  const incremental = previous && new IncrementalCrawl(previous, scope, options.changesSince, options.changedUnitsList ?? true);
  const started = new Date().toISOString();
  const state = openCrawlState(join(writer.dir, journalName), started, options.apiRoot);
  // A journal replayed keeps the start time of the run that began it.
  options.onStart?.({ snapshotId: writer.id, dir: writer.dir, resumed: state.started !== started, made: state.statistics.made });
  const spool = new UnitSpool(join(writer.dir, spoolName));
  const run = new CrawlRun(options, scope, writer, state, spool, client, incremental);
  return run.execute();
}

export { anonymousHint };

/** `--max-requests` less the one a keyed crawl keeps for asking what the public sees (public-view.ts) at its end. */
function crawlCap(options: CrawlOptions): number | undefined {
  return options.maxRequests === undefined ? undefined : Math.max(0, options.maxRequests - (options.token ? 1 : 0));
}

/** Requests sent for the task running in this async context: each task's own, however many run at once. */
const taskRequests = new AsyncLocalStorage<{ made: number }>();

class CrawlRun {
  readonly #access: AccessRules;
  readonly queue: CrawlState['queue'];
  readonly statistics: CrawlState['statistics'];
  readonly problems: CrawlState['problems'];
  readonly translations: CrawlState['translations'];
  /** What the task handlers share (tasks/context.ts). */
  readonly #tasks: TaskContext;
  /** Why the run stops, once something said so: nothing new starts. The first stop is the one reported. */
  #stop: CrawlStoppedError | undefined;
  #reportedMade = 0;
  /** Tasks that failed in this run (retries used up): left pending for the next run. */
  readonly #failures = new Map<string, CrawlError>();

  readonly options: CrawlOptions;
  readonly scope: CrawlScope;
  readonly writer: SnapshotWriter;
  readonly state: CrawlState;
  readonly spool: UnitSpool;
  readonly client: HttpClient;
  readonly incremental: IncrementalCrawl | undefined;

  constructor(
    options: CrawlOptions,
    scope: CrawlScope,
    writer: SnapshotWriter,
    state: CrawlState,
    spool: UnitSpool,
    client: HttpClient,
    incremental?: IncrementalCrawl,
  ) {
    this.options = options;
    this.scope = scope;
    this.writer = writer;
    this.state = state;
    this.spool = spool;
    this.client = client;
    this.incremental = incremental;
    this.queue = state.queue;
    this.statistics = state.statistics;
    this.problems = state.problems;
    this.translations = state.translations;
    this.#access = new AccessRules(state.problems);
    // An incremental crawl reads the touched translations' units back from the spool (incremental.ts).
    const units = new UnitsStrategy(options.apiRoot, state.queue, state.translations, spool, incremental === undefined);
    this.#tasks = new TaskContext(options.apiRoot, options.changesSince, scope, writer, state, spool, client, units, options.maxResourceItems);
  }

  async execute(): Promise<CrawlResult> {
    this.queue.add({ url: this.options.apiRoot.href, type: 'root', phase: phases.root });
    await drain({
      queue: this.queue,
      concurrency: this.options.concurrency,
      stopped: () => {
        if (this.#stop === undefined) this.#halt(this.#mustStop());
        return this.#stop !== undefined;
      },
      skip: (task) => this.#failures.has(task.url) || this.#access.waits(task) || (isUnitPage(task) && this.#unitPages >= unitPagesInFlight),
      run: (task) => this.#execute(task),
    });
    const made = () => this.statistics.made + this.client.requests - this.#reportedMade;
    const [firstFailure] = this.#failures.values();
    if (firstFailure !== undefined) {
      this.#halt(
        new CrawlStoppedError(stopCodes.failures, `${this.#failures.size} request(s) failed, e.g. ${firstFailure.message}. Re-run the same command to resume.`),
      );
    }
    const missing = (this.scope.slugs ?? []).filter((slug) => !this.writer.has(new URL(`projects/${encodeURIComponent(slug)}/`, this.options.apiRoot).href));
    if (missing.length > 0) {
      const names = missing.map((slug) => JSON.stringify(slug)).join(', ');
      const noProject = new CrawlStoppedError(
        stopCodes.noProject,
        `no project ${names} on ${this.options.apiRoot.href} (a private project needs a token in WEBLATE_TOKEN)`,
      );
      this.#stop = this.#stop === undefined || this.#deferral() !== undefined ? noProject : this.#stop;
    }
    // Tonight first: stopped for the night once the current state is in, the snapshot is finished with it.
    const deferral = this.#deferral();
    if (deferral !== undefined) this.#stop = undefined;
    if (this.#stop === undefined) {
      try {
        await this.#recount();
      } catch (error) {
        const outcome = outcomeOf({ url: 'recount', type: 'units', phase: phases.stragglers }, error, 0, this.options.token);
        this.#halt(
          outcome.type === 'stop'
            ? outcome.stop
            : new CrawlStoppedError(stopCodes.failures, `${(error as Error).message}. Re-run the same command to resume.`, { cause: error }),
        );
      }
    }
    const access = [...this.problems.denied.values()];
    const requestsByKind = Object.fromEntries(this.statistics.byKind);
    if (this.#stop !== undefined) {
      return {
        outcome: 'failed',
        snapshotId: this.writer.id,
        dir: this.writer.dir,
        made: made(),
        minimum: this.statistics.minimum,
        requestsByKind,
        problems: this.problems.problems,
        access,
        counts: {},
        ...(this.#currentMade === undefined ? {} : { currentMade: this.#currentMade }),
        message: this.#stop.message,
      };
    }
    for (const translation of [...this.translations.projects.keys()].sort()) {
      if (!this.writer.has(`${translation}units/`)) await this.writer.putUnits(translation, this.spool.read(translation));
    }
    // A keyed crawl may read what the public cannot: what an anonymous client is listed is asked
    // once, so the site can publish only that by default (crawler/public-view.ts).
    const keyed = Boolean(this.options.token);
    const publicView = keyed ? await anonymousProjects(this.#anonymousClientOptions()) : { paths: undefined, requests: 0 };
    if (publicView.requests > 0) {
      const lists = requestsByKind.lists ?? { made: 0, minimum: 0 };
      requestsByKind.lists = { made: lists.made + publicView.requests, minimum: lists.minimum + publicView.requests };
    }
    const requests = { made: made() + publicView.requests, minimum: this.statistics.minimum + publicView.requests, by_kind: requestsByKind };
    // The crawl's own state goes before the snapshot is finished, so no finished snapshot
    // carries it; a kill in between only means the next run crawls again from the start.
    this.spool.remove();
    rmSync(join(this.writer.dir, journalName), { force: true });
    const skipped = this.problems.skippedResources();
    const publicProjects = publicView.paths;
    const parts = deferral?.parts;
    const finished = await this.writer.finish({ requests, problems: this.problems.problems, access, skipped, complete: true, keyed, publicProjects, parts });
    return {
      // Limits of access are not problems of the data: a crawl with only those is complete (exit 0).
      outcome: finished.manifest.problems.length > 0 ? 'problems' : 'complete',
      snapshotId: finished.id,
      dir: finished.dir,
      made: requests.made,
      minimum: requests.minimum,
      requestsByKind,
      problems: finished.manifest.problems,
      access,
      ...(skipped.length > 0 ? { skipped } : {}),
      ...(finished.manifest.drift === undefined ? {} : { drift: finished.manifest.drift }),
      counts: finished.manifest.counts,
      currentMade: this.#currentMade ?? this.client.requests,
      ...(deferral === undefined ? {} : { parts: deferral.parts, message: deferral.message }),
    };
  }

  /**
   * What this run leaves for later runs, when it stopped for the night (`nightlyStops`) with every
   * task before the history phase done (plan.ts `isHistory`); undefined otherwise.
   */
  #deferral(): { parts: Parts; message: string } | undefined {
    const stop = this.#stop;
    // A request that met the spent budget (or a long Retry-After) stops with the answer's code.
    const spent = stop?.cause instanceof RateLimitError;
    if (stop === undefined || !(stop.code in nightlyStops || spent)) return undefined;
    const pending = [...this.queue.pending()];
    if (pending.some((task) => !isHistory(task.phase))) return undefined;
    const changesFrom = this.state.changesReach.heldFrom(pending);
    const remaining = this.#needed();
    const byKind = new Map<string, number>();
    for (const task of pending) byKind.set(requestKind(task), (byKind.get(requestKind(task)) ?? 0) + 1);
    const kinds = [...byKind].map(([kind, count]) => `${kind} ${count}`).join(', ');
    return {
      parts: { history: false, ...(changesFrom === undefined ? {} : { changes_from: changesFrom }), remaining },
      message:
        `${spent ? nightlyStops[stopCodes.budget] : nightlyStops[stop.code as keyof typeof nightlyStops]}: the snapshot holds the current state, so the site built from it is complete and current` +
        `${changesFrom === undefined ? '' : `; its change log reaches back to ${changesFrom}`}. ` +
        `The history (older changes, translation files, translations' repositories) remains for later runs: at least ${remaining} requests (${kinds}). ` +
        'Run the same command again to go on.',
    };
  }

  #anonymousClientOptions() {
    const { apiRoot, userAgent, timeoutMs, retries, maxWaitMs, deadline, maxRps, parseJson } = this.options;
    const maxRequests = this.options.maxRequests === undefined ? undefined : this.options.maxRequests - this.client.requests;
    return { apiRoot, userAgent, concurrency: 1, timeoutMs, retries, maxWaitMs, deadline, maxRps, maxRequests, parse: parseJson };
  }

  /**
   * Whether `task` is the statistics of a language no translation in scope uses: a real server
   * lists every language it knows (652 against the 7 in use on issue 11's), and their statistics
   * are all zero. Asked only after the structure phase (plan.ts), when every translation is known.
   */
  #unusedLanguage(task: Task): boolean {
    if (task.type !== 'resource') return false;
    const path = task.parsed;
    if (path?.kind !== 'language' || path.sub !== 'statistics' || path.language === undefined) return false;
    return !this.translations.usesLanguage(path.language);
  }

  /**
   * A translation whose units came from `/api/units/` pages can miss some or hold some twice when
   * strings were added or removed between pages (later pages shift). One whose unit count differs
   * from its record's `total` is fetched again, its record and its own `units/`; still different,
   * it is a problem of the data (exit 3), which the next crawl fetches again.
   */
  async #recount(): Promise<void> {
    for (const translation of [...this.translations.projects.keys()].sort()) {
      const unitsUrl = `${translation}units/`;
      if (this.writer.has(unitsUrl)) continue;
      const total = this.translations.totals.get(translation);
      if (total === undefined) continue;
      const spooled = this.spool.read(translation);
      if (spooled.length === total) {
        // Written now, so the spool is read once, not again after the recount.
        await this.writer.putUnits(translation, spooled);
        continue;
      }
      const again = parsedTask({ url: `${unitsUrl}#again`, type: 'units', phase: phases.stragglers }, this.options.apiRoot);
      await taskRequests.run({ made: 0 }, async () => {
        try {
          this.#done(again, await fetchUnitsAgain(translation, again, this.#tasks));
        } catch (error) {
          // An answer such as 404 (removed meanwhile) is a problem of this translation; anything else stops the crawl.
          const outcome = outcomeOf(again, error, 0, this.options.token);
          if (outcome.type !== 'answered') throw error;
          this.#done(again, 1);
          this.problems.problem(outcome.problem ?? { url: unitsUrl, field: '', reason: (error as Error).message });
        }
      });
      const units = this.spool.read(translation);
      const now = this.translations.totals.get(translation);
      if (units.length !== now) {
        this.problems.problem({
          url: unitsUrl,
          field: 'total',
          reason: `${units.length} units listed, the translation's total says ${now}: strings changed while the crawl ran (fetched twice); the next crawl fetches it again`,
        });
      }
      await this.writer.putUnits(translation, units);
    }
  }

  /**
   * A lower bound of the requests still to make: the pending tasks less those that will never be
   * sent (a denied pattern's siblings, statistics of languages no translation stored so far uses).
   */
  #needed(): number {
    let needed = 0;
    for (const task of this.queue.pending()) if (this.#access.denied(task) === undefined && !this.#unusedLanguage(task)) needed++;
    return needed;
  }

  /** Records why the run stops, unless something already did: the first stop is the one reported. */
  #halt(stop: CrawlStoppedError | undefined): void {
    this.#stop ??= stop;
  }

  /** Whether the run must stop before starting another task: Ctrl-C, the deadline, `--max-requests`, or a spent rate window. */
  #mustStop(): CrawlStoppedError | undefined {
    const pending = this.queue.pendingCount;
    if (this.options.signal?.aborted) {
      return new CrawlStoppedError(stopCodes.interrupted, `stopped (Ctrl-C) with ${pending} request(s) to go; run the same command to resume.`);
    }
    if (this.options.deadline !== undefined && Date.now() >= this.options.deadline) {
      return new CrawlStoppedError(
        stopCodes.deadline,
        `the time allowed (--max-duration) ran out with ${pending} request(s) to go. Re-run the same command to resume.`,
      );
    }
    const maxRequests = crawlCap(this.options);
    if (maxRequests !== undefined && this.client.requests >= maxRequests) return requestCapStop(pending);
    return this.#budgetStop();
  }

  /**
   * Stops with an estimate once the server's window is spent and refills later than `--max-wait`:
   * every request the window allows is used (a resumed crawl goes on from there), none it refuses.
   */
  #budgetStop(): CrawlStoppedError | undefined {
    const { remaining, reset, limit } = this.client.budget;
    if (remaining === undefined || !budgetSpent(this.client.budget, this.options.concurrency)) return undefined;
    const waitMs = (reset ?? 0) * 1000;
    const pastDeadline = this.options.deadline !== undefined && Date.now() + waitMs > this.options.deadline;
    if (waitMs <= this.options.maxWaitMs && !pastDeadline) return undefined;
    const needed = this.#needed();
    return new CrawlStoppedError(
      stopCodes.budget,
      `the server's rate budget is spent (${remaining} of ${limit ?? '?'} requests left) and the next slot frees in ${reset} s, ` +
        `with at least ${needed} more requests to make. Re-run the same command once the budget refills to resume` +
        `${limit ? ` (about ${Math.ceil(needed / limit)} more rate window(s))` : ''}.${anonymousHint(reset ?? 0, this.options.token)}`,
    );
  }

  /** `CrawlResult.currentMade`, once the first history task starts. */
  #currentMade: number | undefined;

  #execute(task: Task): Promise<void> {
    // The scheduler starts no phase while an earlier one runs: everything current is done by now.
    if (isHistory(task.phase)) this.#currentMade ??= this.client.requests;
    if (!isUnitPage(task)) return taskRequests.run({ made: 0 }, () => this.#executeCounted(task));
    this.#unitPages++;
    return taskRequests.run({ made: 0 }, () => this.#executeCounted(task)).finally(() => this.#unitPages--);
  }

  /** Pages of a units list being fetched or written now (`unitPagesInFlight`). */
  #unitPages = 0;

  async #executeCounted(task: Task): Promise<void> {
    if (this.#unusedLanguage(task)) {
      this.problems.skip(task.url);
      this.#done(task, 0);
      return;
    }
    if (task.type !== 'root' && this.#access.denied(task) !== undefined) {
      // A sibling already answered 401/403: this one would too (access.ts).
      this.#done(task, 0);
      return;
    }
    if (task.type !== 'root') this.#access.start(task);
    try {
      const minimum = await this.#run(task);
      this.#access.finish(task, true);
      this.#done(task, minimum);
    } catch (error) {
      const outcome = outcomeOf(task, error, this.queue.pendingCount, this.options.token);
      switch (outcome.type) {
        case 'stop':
          this.#access.finish(task, false);
          this.#halt(outcome.stop);
          break;
        case 'denied':
          this.#access.deny(task, outcome.error);
          this.#done(task, 1);
          break;
        case 'answered':
          this.#access.finish(task, false);
          if (outcome.problem !== undefined) this.problems.problem(outcome.problem);
          this.#done(task, 1);
          break;
        case 'failed':
          this.#access.finish(task, false);
          this.#failures.set(task.url, outcome.error);
          break;
      }
    }
    this.#progress(task.phase);
  }

  #done(task: Task, minimum: number): void {
    const made = taskRequests.getStore()?.made ?? 0;
    this.#reportedMade += made;
    this.queue.done(task.url, { made, minimum, requests: requestKind(task) });
  }

  #progress(phase: number): void {
    this.options.onProgress?.({
      made: this.statistics.made + this.client.requests - this.#reportedMade,
      minimum: this.statistics.minimum,
      records: this.statistics.records,
      pending: this.queue.pendingCount,
      phase,
      budget: this.client.budget,
    });
  }

  /** Does one task (tasks/), unless the incremental crawl took care of it; answers the minimum number of requests it implies. */
  async #run(task: Task): Promise<number> {
    if (this.incremental && (await this.incremental.take(task, this.#tasks))) return 0;
    return runTask(task, this.#tasks);
  }
}
