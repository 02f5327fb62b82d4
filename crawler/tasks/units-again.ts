import { rebasePageLink, withParameters } from '../links.ts';
import type { Task } from '../queue/task.ts';
import { anyPage, pageSizes, type TaskContext } from './context.ts';

/**
 * A translation's record and its own `units/`, every page, in place of what was spooled from
 * `/api/units/` pages that shifted under the crawl (docs/crawl.md, Units fetched again).
 * Answers the requests needed.
 */
export async function fetchUnitsAgain(translation: string, again: Task, context: TaskContext): Promise<number> {
  const { body } = await context.client.getJson(translation);
  await context.store(translation, body);
  context.spool.clear(translation);
  let url: string | undefined = withParameters(`${translation}units/`, { page_size: pageSizes.list });
  let pages = 0;
  while (url !== undefined) {
    const { body: list } = await context.client.getJson(url);
    pages++;
    const parsed = anyPage.safeParse(list);
    if (!parsed.success) {
      context.problems.problem({ url, field: '', reason: 'not a paginated list of units' });
      break;
    }
    for (const problem of context.units.spoolPage(again, parsed.data.results)) context.problems.problem(problem);
    url = parsed.data.next === null ? undefined : rebasePageLink(parsed.data.next, context.apiRoot);
  }
  return 1 + pages;
}
