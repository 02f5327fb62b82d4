import type { RequestCount, RequestKind } from '../../snapshot/index.ts';
import type { CrawlJournal } from './journal.ts';
import type { Task } from './task.ts';

/** Where a task's requests are counted in the report. */
export function requestKind(task: Task): RequestKind {
  switch (task.type) {
    case 'list':
    case 'changes':
      return 'lists';
    case 'units':
      return 'units';
    case 'file':
      return 'files';
    case 'resource':
      return task.parsed?.sub === 'statistics' ? 'statistics' : 'other';
    default:
      return 'other';
  }
}

/**
 * The crawl's statistics (crawlee's `Statistics`): requests made and the minimum the crawl
 * needed, in all and by kind of request, summed from the finished tasks' costs in the journal,
 * so a resumed crawl reports the requests of every run. The manifest's `requests` and the
 * progress line come from here.
 */
export class CrawlStatistics {
  made = 0;
  minimum = 0;
  /** Requests made and needed, by kind of request. */
  readonly byKind = new Map<RequestKind, RequestCount>();
  /** Records, units and changes received so far in this run (not journalled: the progress line's). */
  records = 0;

  constructor(journal: CrawlJournal) {
    journal.read((event) => {
      if (!('done' in event)) return;
      this.made += event.made;
      this.minimum += event.minimum;
      const kind = event.requests ?? 'other';
      const sum = this.byKind.get(kind) ?? { made: 0, minimum: 0 };
      this.byKind.set(kind, { made: sum.made + event.made, minimum: sum.minimum + event.minimum });
    });
  }
}
