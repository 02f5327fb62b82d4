/**
 * What a task handler (one module per type of task in this folder) gets from the run: the
 * server, the queue, the snapshot being written, the units strategy, and the one way a record
 * is stored, which queues what it links to. `crawl.ts` makes one per run.
 */
import { z } from 'zod';
import { page } from '../../api/common.ts';
import { parseApiPath } from '../../api/paths.ts';
import type { SnapshotWriter } from '../../snapshot/index.ts';
import type { HttpClient } from '../http/client.ts';
import { findLinks, rootPath, withParameters } from '../links.ts';
import { planLink, withoutAbsentFile } from '../plan.ts';
import type { ChangesReach } from '../queue/changes-reach.ts';
import type { ProblemLog } from '../queue/problem-log.ts';
import type { RequestQueue } from '../queue/request-queue.ts';
import type { CrawlState } from '../queue/state.ts';
import type { CrawlStatistics } from '../queue/statistics.ts';
import type { StoredTranslations } from '../queue/translations.ts';
import type { UnitSpool } from '../queue/unit-spool.ts';
import type { CrawlScope } from '../scope.ts';
import type { UnitsStrategy } from '../units.ts';

/** Largest page sizes Weblate honours: 1000 for lists, 10000 for units (docs/weblate-api.md). */
export const pageSizes = { list: '1000', units: '10000' } as const;

export const anyPage = page(z.unknown());
export type AnyPage = z.infer<typeof anyPage>;

export class TaskContext {
  readonly queue: RequestQueue;
  readonly statistics: CrawlStatistics;
  readonly problems: ProblemLog;
  readonly translations: StoredTranslations;
  readonly changesReach: ChangesReach;
  /** When the crawl began (the changes window ends there). */
  readonly started: string;

  readonly apiRoot: URL;
  /** ISO timestamp: changes before it are left out (`--changes-since`). */
  readonly changesSince: string | undefined;
  readonly scope: CrawlScope;
  readonly writer: SnapshotWriter;
  readonly spool: UnitSpool;
  readonly client: HttpClient;
  readonly units: UnitsStrategy;
  /** The most items a paged resource may list to be fetched (tasks/resource.ts). */
  readonly maxResourceItems: number;

  constructor(
    apiRoot: URL,
    changesSince: string | undefined,
    scope: CrawlScope,
    writer: SnapshotWriter,
    state: CrawlState,
    spool: UnitSpool,
    client: HttpClient,
    units: UnitsStrategy,
    maxResourceItems = 100_000,
  ) {
    this.apiRoot = apiRoot;
    this.changesSince = changesSince;
    this.scope = scope;
    this.writer = writer;
    this.spool = spool;
    this.client = client;
    this.units = units;
    this.maxResourceItems = maxResourceItems;
    ({
      queue: this.queue,
      statistics: this.statistics,
      problems: this.problems,
      translations: this.translations,
      started: this.started,
      changesReach: this.changesReach,
    } = state);
  }

  /** Stores a record at its URL, notes what later phases need of it, and follows its links. */
  async store(url: string, record: unknown): Promise<void> {
    await this.writer.putRecord(url, record);
    this.statistics.records++;
    const path = parseApiPath(rootPath(url, this.apiRoot));
    if (path?.kind === 'translation' && path.sub === undefined && path.project !== undefined) {
      this.translations.add(url, path.project);
      const total = (record as { total?: unknown } | null)?.total;
      if (typeof total === 'number') this.translations.setTotal(url, total);
    }
    if (!this.scope.whole && path?.kind === 'project' && path.sub === undefined && path.project !== undefined && this.scope.hasProject(path.project)) {
      const slug = (record as { slug?: unknown }).slug;
      if (typeof slug === 'string') this.units.queueProject(path.project, slug);
    }
    this.follow(path?.kind === 'translation' && path.sub === undefined ? withoutAbsentFile(record) : record);
  }

  /** Queues every link in `value` that the plan says needs a request. */
  follow(value: unknown): void {
    for (const link of findLinks(value, this.apiRoot)) {
      const planned = planLink(rootPath(link, this.apiRoot), this.scope);
      if (planned === undefined) continue;
      const url = planned.type === 'changes' ? this.#changesWindow(link) : link;
      this.queue.add({ url, type: planned.type, phase: planned.phase });
    }
  }

  offOriginPageLink(url: string, next: string): void {
    this.problems.problem({ url, field: 'next', reason: `the next page link ${next} leaves the API root; the rest of the list was not fetched` });
  }

  /** The changes log in a fixed window, so newer changes arriving mid-crawl shift no page. */
  #changesWindow(link: string): string {
    const window: Record<string, string> = { timestamp_before: this.started };
    if (this.changesSince) window.timestamp_after = this.changesSince;
    return withParameters(link, window);
  }
}
