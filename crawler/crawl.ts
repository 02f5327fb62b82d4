import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { openSnapshotWriter, type SnapshotWriter } from '../snapshot/writer.ts';
import { CrawlError, HttpStatusError, RateLimitError } from './errors.ts';
import { HttpClient } from './http/client.ts';
import { IncrementalCrawl, previousSnapshot } from './incremental.ts';
import { apiPath, findLinks, rebasePageLink, resolveLink, serverBase, withParameters } from './links.ts';
import { type CrawlScope, phases, planLink } from './plan.ts';
import { type Problem, RequestQueue, type Task } from './queue/request-queue.ts';
import { UnitSpool } from './queue/unit-spool.ts';
import { itemPathWithoutUrl, listParent } from './list-items.ts';
import { page } from '../api/common.ts';
import { apiRoot } from '../api/root.ts';

export interface CrawlOptions {
  apiRoot: URL;
  contentDir: string;
  /** Project slugs; empty: the whole instance. */
  projects: string[];
  /** ISO timestamp: changes before it are left out. */
  changesSince?: string | undefined;
  /** Crawl everything even when a previous snapshot of the same server and scope would allow an incremental crawl. */
  full?: boolean | undefined;
  token?: string | undefined;
  concurrency: number;
  maxRps?: number | undefined;
  timeoutMs: number;
  retries: number;
  maxWaitMs: number;
  tmsnapVersion: string;
  userAgent: string;
  onProgress?: (progress: CrawlProgress) => void;
  onWait?: (ms: number, reason: string) => void;
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
  problems: Problem[];
  counts: Record<string, number>;
  /** Why a failed crawl stopped and what to do. */
  message?: string;
}

/** Largest page sizes Weblate honours: 1000 for lists, 10000 for units (weblate-api-facts.md). */
const pageSizes = { list: '1000', units: '10000' } as const;

const anyPage = page(z.unknown());
type AnyPage = z.infer<typeof anyPage>;

const journalName = 'crawl-journal.ndjson';
const spoolName = 'crawl-units';

/**
 * One crawl into one snapshot: queue the API root, run tasks phase by phase, store what they
 * bring, queue what they link to, then write each translation's units and finish. Resumes
 * the newest unfinished snapshot of the same server and scope.
 */
export async function crawl(options: CrawlOptions): Promise<CrawlResult> {
  const scopeProjects = options.projects.length > 0 ? [...new Set(options.projects)].sort() : undefined;
  const scope = { ...(scopeProjects ? { projects: scopeProjects } : {}), ...(options.changesSince ? { changes_since: options.changesSince } : {}) };
  const writer = await openSnapshotWriter(options.contentDir, {
    baseUrl: serverBase(options.apiRoot),
    scope,
    tmsnapVersion: options.tmsnapVersion,
    resume: true,
  });
  const previous = options.full ? undefined : await previousSnapshot(options.contentDir, writer.baseUrl, scope);
  const incremental = previous && new IncrementalCrawl(previous, scopeProjects && new Set(scopeProjects.map((slug) => encodeURIComponent(slug))), options.changesSince);
  const queue = RequestQueue.open(join(writer.dir, journalName), new Date().toISOString());
  const spool = new UnitSpool(join(writer.dir, spoolName));
  const client = new HttpClient({
    apiRoot: options.apiRoot,
    token: options.token,
    userAgent: options.userAgent,
    concurrency: options.concurrency,
    maxRps: options.maxRps,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    maxWaitMs: options.maxWaitMs,
    ...(options.onWait ? { onWait: options.onWait } : {}),
  });
  try {
    const run = new CrawlRun(options, writer, queue, spool, client, scopeProjects, incremental);
    return await run.execute();
  } finally {
    await client.close();
  }
}

class CrawlRun {
  readonly #scope: CrawlScope;
  /** Path segments of the projects in scope (slugs as the server writes them in URLs). */
  readonly #scopeSegments: Set<string> | undefined;
  #records = 0;
  #reportedMade = 0;
  #stop: string | undefined;
  /** Tasks that failed in this run (retries used up): left pending for the next run. */
  readonly #failures = new Map<string, CrawlError>();

  constructor(
    readonly options: CrawlOptions,
    readonly writer: SnapshotWriter,
    readonly queue: RequestQueue,
    readonly spool: UnitSpool,
    readonly client: HttpClient,
    readonly scopeProjects: string[] | undefined,
    readonly incremental?: IncrementalCrawl,
  ) {
    this.#scopeSegments = scopeProjects ? new Set(scopeProjects.map((slug) => encodeURIComponent(slug))) : undefined;
    this.#scope = { projects: this.#scopeSegments };
  }

  async execute(): Promise<CrawlResult> {
    this.queue.add({ url: this.options.apiRoot.href, kind: 'root', phase: phases.root });
    await this.#drain();
    const made = () => this.queue.made + this.client.requests - this.#reportedMade;
    const [firstFailure] = this.#failures.values();
    if (this.#stop === undefined && firstFailure !== undefined) {
      this.#stop = `${this.#failures.size} request(s) failed, e.g. ${firstFailure.message}. Re-run the same command to resume.`;
    }
    if (this.#stop === undefined) {
      const missing = (this.scopeProjects ?? []).filter((slug) => !this.writer.has(new URL(`projects/${encodeURIComponent(slug)}/`, this.options.apiRoot).href));
      if (missing.length > 0) {
        this.#stop = `no project ${missing.map((slug) => JSON.stringify(slug)).join(', ')} on ${this.options.apiRoot.href} (a private project needs a token in WEBLATE_TOKEN)`;
      }
    }
    if (this.#stop !== undefined) {
      return {
        outcome: 'failed',
        snapshotId: this.writer.id,
        dir: this.writer.dir,
        made: made(),
        minimum: this.queue.minimum,
        problems: this.queue.problems,
        counts: {},
        message: this.#stop,
      };
    }
    for (const translation of [...this.queue.translations.keys()].sort()) {
      if (!this.writer.has(`${translation}units/`)) await this.writer.putUnits(translation, this.spool.read(translation));
    }
    const requests = { made: made(), minimum: this.queue.minimum };
    const crawlProblems = this.queue.problems;
    // The crawl's own state goes before the snapshot is finished, so no finished snapshot
    // carries it; a kill in between only means the next run crawls again from the start.
    this.spool.remove();
    rmSync(join(this.writer.dir, journalName), { force: true });
    const finished = await this.writer.finish({ requests, problems: crawlProblems, complete: true });
    return {
      outcome: finished.manifest.problems.length > 0 ? 'problems' : 'complete',
      snapshotId: finished.id,
      dir: finished.dir,
      ...requests,
      problems: finished.manifest.problems,
      counts: finished.manifest.counts,
    };
  }

  /** Runs pending tasks, `concurrency` at a time, never starting a phase while an earlier one is in flight. */
  async #drain(): Promise<void> {
    const running = new Map<string, { phase: number; promise: Promise<void> }>();
    for (;;) {
      if (this.#stop === undefined) this.#checkBudget();
      const lowestRunning = Math.min(...[...running.values()].map((entry) => entry.phase));
      const next =
        this.#stop === undefined && running.size < this.options.concurrency
          ? this.queue.next(lowestRunning, (task) => running.has(task.url) || this.#failures.has(task.url))
          : undefined;
      if (next !== undefined) {
        const promise = this.#execute(next).finally(() => running.delete(next.url));
        running.set(next.url, { phase: next.phase, promise });
        continue;
      }
      if (running.size === 0) return;
      await Promise.race([...running.values()].map((entry) => entry.promise));
    }
  }

  /** Stops with an estimate rather than hammering a server whose budget cannot cover the rest. */
  #checkBudget(): void {
    const { remaining, reset, limit } = this.client.budget;
    const needed = this.queue.pendingCount;
    if (remaining === undefined || needed <= remaining) return;
    const waitMs = (reset ?? 0) * 1000;
    if (waitMs <= this.options.maxWaitMs) return;
    this.#stop =
      `the server's rate budget has ${remaining} of ${limit ?? '?'} requests left and the next slot frees in ${reset} s, ` +
      `but at least ${needed} more requests are needed; stopping instead of hammering. Re-run the same command once the budget refills to resume` +
      `${limit ? ` (about ${Math.ceil((needed - remaining) / limit)} more rate window(s))` : ''}.`;
  }

  async #execute(task: Task): Promise<void> {
    try {
      const minimum = await this.#run(task);
      this.#done(task, minimum);
    } catch (error) {
      if (task.kind === 'root' && error instanceof CrawlError) {
        this.#stop = rootAdvice(error);
      } else if (error instanceof RateLimitError) {
        this.#stop ??= `${error.message}. About ${this.queue.pendingCount} requests remain; re-run the same command after that to resume.`;
      } else if (error instanceof HttpStatusError && error.status >= 400 && error.status < 500) {
        // An answer, not a failure: the server will say the same next time.
        if (!(task.page && error.status === 404)) this.queue.problem({ url: task.url, field: '', reason: error.message });
        this.#done(task, 1);
      } else if (error instanceof CrawlError) {
        if (error.code === 'TMSNAP_CONTENT_TYPE') {
          this.queue.problem({ url: task.url, field: '', reason: error.message });
          this.#done(task, 1);
        } else {
          this.#failures.set(task.url, error);
        }
      } else {
        throw error;
      }
    }
    this.#progress(task.phase);
  }

  #done(task: Task, minimum: number): void {
    const made = this.client.requests - this.#reportedMade;
    this.#reportedMade = this.client.requests;
    this.queue.done(task.url, { made, minimum });
  }

  #progress(phase: number): void {
    this.options.onProgress?.({
      made: this.queue.made + this.client.requests - this.#reportedMade,
      minimum: this.queue.minimum,
      records: this.#records,
      pending: this.queue.pendingCount,
      phase,
      budget: this.client.budget,
    });
  }

  /** Does one task; answers the minimum number of requests it implies. */
  async #run(task: Task): Promise<number> {
    if (this.incremental && (await this.incremental.take(task, { apiRoot: this.options.apiRoot, client: this.client, queue: this.queue, writer: this.writer, spool: this.spool }))) return 0;
    switch (task.kind) {
      case 'root':
      case 'record':
        return this.#record(task);
      case 'file':
        return this.#file(task);
      case 'resource':
        return this.#resource(task);
      case 'records':
      case 'units':
      case 'changes':
        return this.#listPage(task);
    }
  }

  async #record(task: Task): Promise<number> {
    if (task.kind === 'record' && this.writer.has(task.url)) return 0;
    const { body } = await this.client.getJson(task.url);
    if (task.kind === 'root' && !apiRoot.safeParse(body).success) {
      this.#stop = `${task.url} answered JSON that is not a Weblate API root (no projects, components, units… links): is --url the API root, e.g. https://weblate.example.org/api/?`;
      return 1;
    }
    await this.#store(task.url, body);
    return 1;
  }

  async #file(task: Task): Promise<number> {
    const { body, contentType } = await this.client.getBytes(task.url);
    await this.writer.putFile(task.url.replace(/file\/$/, ''), body, contentType);
    return 1;
  }

  /** A sub-resource: every page of it, stored as one record in the shape a single page holding everything has. */
  async #resource(task: Task): Promise<number> {
    let url: string | undefined = withParameters(task.url, { page_size: pageSizes.list });
    let first: unknown;
    const results: unknown[] = [];
    let pages = 0;
    while (url !== undefined) {
      const { body } = await this.client.getJson(url);
      pages++;
      const parsed = anyPage.safeParse(body);
      if (!parsed.success) {
        first = body;
        break;
      }
      first ??= parsed.data;
      results.push(...parsed.data.results);
      const next: string | undefined = parsed.data.next === null ? undefined : rebasePageLink(parsed.data.next, this.options.apiRoot);
      if (parsed.data.next !== null && next === undefined) this.#offOriginPageLink(url, parsed.data.next);
      url = next;
    }
    const record = pages > 1 || anyPage.safeParse(first).success ? { ...(first as AnyPage), next: null, previous: null, results } : first;
    await this.#store(task.url, record);
    return pages;
  }

  #offOriginPageLink(url: string, next: string): void {
    this.queue.problem({ url, field: 'next', reason: `the next page link ${next} leaves the API root; the rest of the list was not fetched` });
  }

  /** One page of a paginated list; the first page queues the others. */
  async #listPage(task: Task): Promise<number> {
    // Fanned-out pages carry the page size the first page was fetched with.
    const fetchUrl = task.page ? task.url : withParameters(task.url, { page_size: task.kind === 'units' ? pageSizes.units : pageSizes.list });
    let body: unknown;
    try {
      ({ body } = await this.client.getJson(fetchUrl));
    } catch (error) {
      // A server that rejects the units query is one that does not support it.
      if (task.project !== undefined && error instanceof HttpStatusError && error.status === 400) return this.#unitsPerTranslation(task.project);
      throw error;
    }
    const parsed = anyPage.safeParse(body);
    const items = parsed.success ? parsed.data.results : Array.isArray(body) ? body : undefined;
    if (items === undefined) {
      const issue = parsed.error?.issues[0];
      this.queue.problem({ url: task.url, field: issue?.path.join('.') ?? '', reason: `not a paginated list: ${issue?.message ?? 'unexpected shape'}` });
      return 1;
    }
    if (task.kind === 'units' && task.project !== undefined && !task.page && !this.#unitsMatchProject(items, task.project)) {
      return this.#unitsPerTranslation(task.project);
    }
    if (task.kind === 'units') this.#spoolUnits(task, items);
    else if (task.kind === 'changes') await this.#putChanges(items);
    else await this.#putListRecords(task, items);
    return this.#queuePages(task, parsed.success ? parsed.data : undefined, items.length);
  }

  #queuePages(task: Task, list: AnyPage | undefined, received: number): number {
    if (task.page || list === undefined || list.next === null) return task.page ? 0 : 1;
    const next = rebasePageLink(list.next, this.options.apiRoot);
    if (next === undefined) {
      this.#offOriginPageLink(task.url, list.next);
      return 1;
    }
    const base = { kind: task.kind, phase: task.phase, project: task.project };
    if (!new URL(next).searchParams.has('page') || received === 0) {
      // Not numbered pages: follow the chain one link at a time.
      this.queue.add({ ...base, url: next });
      return 1;
    }
    const pages = Math.ceil(list.count / received);
    for (let number = 2; number <= pages; number++) this.queue.add({ ...base, url: withParameters(next, { page: String(number) }), page: true });
    return pages;
  }

  async #putListRecords(task: Task, items: unknown[]): Promise<void> {
    const listPath = apiPath(task.url, this.options.apiRoot).split('?')[0] ?? '';
    const projectsInScope = this.#scopeSegments !== undefined && listPath === 'projects/';
    const parent = listParent(listPath);
    const parentUrl = parent && new URL(parent.path, this.options.apiRoot).href;
    for (const [index, item] of items.entries()) {
      const link = (item as { url?: unknown } | null)?.url;
      const derived = link === undefined ? itemPathWithoutUrl(listPath, item) : undefined;
      const own = typeof link === 'string' ? resolveLink(link, this.options.apiRoot) : derived && new URL(derived, this.options.apiRoot).href;
      if (own === undefined) {
        this.queue.problem({ url: task.url, field: `results.${index}.url`, reason: 'a list item without a url under the API root; not stored' });
        continue;
      }
      if (projectsInScope && !this.#projectInScope(item, own)) continue;
      // The list's URL names the parent its items leave out (docs/crawl.md).
      const record = parent && parentUrl && isObject(item) && item[parent.field] === undefined ? { ...item, [parent.field]: parentUrl } : item;
      // An item short of what its schema needs is fetched once on its own before it is kept raw.
      if (this.writer.check(own, record) !== undefined && own !== task.url) {
        this.queue.add({ url: own, kind: 'record', phase: task.phase });
        continue;
      }
      await this.#store(own, record);
    }
  }

  #projectInScope(item: unknown, url: string): boolean {
    const slug = (item as { slug?: unknown }).slug;
    if (typeof slug !== 'string' || !this.scopeProjects?.includes(slug)) return false;
    // The server's own spelling of the slug in paths is what later links use.
    const segment = apiPath(url, this.options.apiRoot).split('/')[1];
    if (segment !== undefined) this.#scopeSegments?.add(segment);
    return true;
  }

  async #putChanges(items: unknown[]): Promise<void> {
    await this.writer.putChanges(items);
    this.#records += items.length;
    this.#follow(items);
  }

  #spoolUnits(task: Task, items: unknown[]): void {
    const byTranslation = new Map<string, unknown[]>();
    for (const [index, unit] of items.entries()) {
      const link = (unit as { translation?: unknown })?.translation;
      const translation = typeof link === 'string' ? resolveLink(link, this.options.apiRoot) : undefined;
      if (translation === undefined) {
        this.queue.problem({ url: task.url, field: `results.${index}.translation`, reason: 'a unit without a translation URL under the API root; not stored' });
        continue;
      }
      let list = byTranslation.get(translation);
      if (list === undefined) byTranslation.set(translation, (list = []));
      list.push(unit);
    }
    this.spool.append(byTranslation);
    this.#records += items.length;
    this.#follow(items);
  }

  /** Whether `/api/units/?q=project:…` gave only that project's units (servers that ignore `q` give everyone's). */
  #unitsMatchProject(items: unknown[], project: string): boolean {
    return items.every((unit) => {
      const link = (unit as { translation?: unknown })?.translation;
      const translation = typeof link === 'string' ? resolveLink(link, this.options.apiRoot) : undefined;
      return translation !== undefined && this.queue.translations.get(translation) === project;
    });
  }

  #unitsPerTranslation(project: string): number {
    this.queue.markUnitsPerTranslation(project);
    for (const [translation, owner] of this.queue.translations) {
      if (owner === project) this.queue.add({ url: `${translation}units/`, kind: 'units', phase: phases.bulk });
    }
    return 0;
  }

  async #store(url: string, record: unknown): Promise<void> {
    await this.writer.putRecord(url, record);
    this.#records++;
    const path = apiPath(url, this.options.apiRoot);
    const segments = path.split('/');
    if (segments[0] === 'translations' && segments.length === 5 && segments[4] === '' && segments[1] !== undefined) {
      this.queue.addTranslation(url, segments[1]);
    }
    if (this.#scopeSegments !== undefined && segments[0] === 'projects' && segments.length === 3 && segments[1] !== undefined && this.#scopeSegments.has(segments[1])) {
      const slug = (record as { slug?: unknown }).slug;
      if (typeof slug === 'string') {
        this.queue.add({ url: withParameters(new URL('units/', this.options.apiRoot).href, { q: `project:${slug}` }), kind: 'units', phase: phases.bulk, project: segments[1] });
      }
    }
    this.#follow(record);
  }

  /** Queues every link in `value` that the plan says needs a request. */
  #follow(value: unknown): void {
    for (const link of findLinks(value, this.options.apiRoot)) {
      const path = apiPath(link, this.options.apiRoot).split('?')[0] ?? '';
      const planned = planLink(path, this.#scope);
      if (planned === undefined) continue;
      const url = planned.kind === 'changes' ? this.#changesWindow(link) : link;
      this.queue.add({ url, kind: planned.kind, phase: planned.phase });
    }
  }

  /** The changes log in a fixed window, so newer changes arriving mid-crawl shift no page. */
  #changesWindow(link: string): string {
    const window: Record<string, string> = { timestamp_before: this.queue.started };
    if (this.options.changesSince) window.timestamp_after = this.options.changesSince;
    return withParameters(link, window);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What to do when the API root itself cannot be read: nothing else can be crawled. */
function rootAdvice(error: CrawlError): string {
  if (error instanceof HttpStatusError && (error.status === 401 || error.status === 403)) {
    return `${error.message}: the server wants a token; put it in the WEBLATE_TOKEN environment variable`;
  }
  return `${error.message}. Check that --url is the API root of a Weblate server (it ends in /api/).`;
}
