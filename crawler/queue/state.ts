/**
 * The crawl's state, each part with its own owner (crawlee's roles) and all of it rebuilt from
 * one journal after a kill: the tasks (`RequestQueue`), the requests counted
 * (`CrawlStatistics`), what went wrong or was left out (`ProblemLog`), the translations
 * later phases need (`StoredTranslations`), and how far back the change log is held (`ChangesReach`).
 */
import { ChangesReach } from './changes-reach.ts';
import { CrawlJournal } from './journal.ts';
import { ProblemLog } from './problem-log.ts';
import { RequestQueue } from './request-queue.ts';
import { CrawlStatistics } from './statistics.ts';
import { StoredTranslations } from './translations.ts';

export interface CrawlState {
  /** When the crawl began: kept from the first run of a resumed crawl. */
  started: string;
  queue: RequestQueue;
  statistics: CrawlStatistics;
  problems: ProblemLog;
  translations: StoredTranslations;
  /** How far back the change log is held so far. */
  changesReach: ChangesReach;
}

/** Opens (replaying) the journal at `path`, or starts one with `started` as the crawl's start time; tasks' paths are parsed against `apiRoot`. */
export function openCrawlState(path: string, started: string, apiRoot: URL): CrawlState {
  const journal = CrawlJournal.open(path, started);
  return {
    started: journal.started,
    queue: new RequestQueue(journal, apiRoot),
    statistics: new CrawlStatistics(journal),
    problems: new ProblemLog(journal),
    translations: new StoredTranslations(journal, apiRoot),
    changesReach: new ChangesReach(journal),
  };
}
