import type { AccessProblem, Problem, SkippedResources } from '../../snapshot/index.ts';
import type { CrawlJournal } from './journal.ts';

/** Why a resource was left out on purpose (its resource pattern, `access.ts`, and the reason); without one it is the statistics of a language no translation uses. */
export interface SkipReason {
  kind?: string | undefined;
  reason?: string | undefined;
}

/**
 * What went wrong or was left out, for the manifest and the end-of-crawl summary (crawlee's
 * `ErrorTracker`): problems of the data (exit 3), resource patterns the credentials may not
 * read (`access`, exit 0), and resources not fetched on purpose (`skipped`). Kept in the
 * crawl's journal, so a resumed crawl reports what every run met.
 */
export class ProblemLog {
  readonly #journal: CrawlJournal;
  readonly problems: Problem[] = [];
  /** Resource patterns the credentials may not read, by pattern (`access.ts`; the manifest's `kind`). */
  readonly denied = new Map<string, AccessProblem>();
  /**
   * URLs not fetched on purpose, in the order skipped, each with its resource pattern and why: statistics of
   * languages no translation uses (no reason given), resources too long to hold (`tasks/resource.ts`).
   */
  readonly skipped = new Map<string, SkipReason>();

  constructor(journal: CrawlJournal) {
    this.#journal = journal;
    journal.read((event) => {
      if ('problem' in event) this.problems.push(event.problem);
      else if ('denied' in event) {
        if (!this.denied.has(event.denied.kind)) this.denied.set(event.denied.kind, event.denied);
      } else if ('skipped' in event) this.skipped.set(event.skipped, { kind: event.kind, reason: event.reason });
    });
  }

  problem(found: Problem): void {
    this.#journal.record({ problem: found });
  }

  /** Records that `url` is not fetched on purpose; a statistics of an unused language unless `why` says otherwise. */
  skip(url: string, why?: SkipReason): void {
    if (!this.skipped.has(url)) this.#journal.record({ skipped: url, ...why });
  }

  /** Records that a resource pattern is not readable with these credentials (once per pattern). */
  deny(found: AccessProblem): void {
    if (!this.denied.has(found.kind)) this.#journal.record({ denied: found });
  }

  /** The manifest's `skipped`: the resources left out, by pattern (its `kind`), each pattern's URLs sorted. */
  skippedResources(): SkippedResources[] {
    const byPattern = new Map<string, SkippedResources>();
    for (const [url, { kind = 'languages/*/statistics/', reason = "no translation in the crawl's scope is in this language" }] of this.skipped) {
      const entry = byPattern.get(kind) ?? { kind, reason, urls: [] };
      entry.urls.push(url);
      byPattern.set(kind, entry);
    }
    return [...byPattern.values()].sort((a, b) => a.kind.localeCompare(b.kind)).map((entry) => ({ ...entry, urls: entry.urls.sort() }));
  }
}
