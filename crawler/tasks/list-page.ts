import { parseApiPath } from '../../api/paths.ts';
import { HttpStatusError } from '../errors.ts';
import { itemPathWithoutUrl, listParent } from '../list-items.ts';
import { rebasePageLink, resolveLink, rootPath, withParameters } from '../links.ts';
import { isHistory, phases, siteChanges } from '../plan.ts';
import type { Task } from '../queue/task.ts';
import { type AnyPage, anyPage, pageSizes, type TaskContext } from './context.ts';

/** One page of a paginated list (records, units or changes); the first page queues the others. Answers the requests needed. */
export async function fetchListPage(task: Task, context: TaskContext): Promise<number> {
  const fetchUrl = firstPageUrl(task);
  let body: unknown;
  try {
    ({ body } = await context.client.getJson(fetchUrl));
  } catch (error) {
    // A server that rejects the units query is one that does not support it.
    if (task.project !== undefined && error instanceof HttpStatusError && error.status === 400) {
      context.units.perTranslation(task.project);
      return 0;
    }
    throw error;
  }
  const parsed = anyPage.safeParse(body);
  const items = parsed.success ? parsed.data.results : Array.isArray(body) ? body : undefined;
  if (items === undefined) {
    const issue = parsed.error?.issues[0];
    context.problems.problem({ url: task.url, field: issue?.path.join('.') ?? '', reason: `not a paginated list: ${issue?.message ?? 'unexpected shape'}` });
    return 1;
  }
  if (task.type === 'units') {
    if (!context.units.accepts(task, items)) return 0;
    const { problems, whole } = context.units.takePage(task, items, (translation) => context.writer.has(`${translation}units/`));
    for (const problem of problems) context.problems.problem(problem);
    context.statistics.records += items.length;
    context.follow(items);
    for (const [translation, units] of whole) await context.writer.putUnits(translation, units);
  } else if (task.type === 'changes') {
    await context.writer.putChanges(items);
    const list = parsed.success ? parsed.data : undefined;
    context.changesReach.page(task.url, items, followsChain(task, list, items.length) ? delivered(task, items.length) : undefined);
    context.statistics.records += items.length;
    context.follow(items);
  } else {
    await putListRecords(task, items, context);
  }
  return queuePages(task, parsed.success ? parsed.data : undefined, items.length, context);
}

/**
 * The URL a list task fetches: a list's own URL with the largest page size, or a `next` link as
 * the server wrote it. Fanned-out pages and `next` links already carry the page size (Django
 * REST framework keeps the request's parameters), and a cursor link is followed verbatim.
 */
function firstPageUrl(task: Task): string {
  if (task.page || new URL(task.url).searchParams.has('page_size')) return task.url;
  return withParameters(task.url, { page_size: task.type === 'units' ? pageSizes.units : pageSizes.list });
}

/**
 * How many pages a list has, when its `next` link numbers them and `count` says how many items
 * there are; undefined otherwise (a cursor in `next`, no `count`, or an empty first page): then
 * the list is read by following `next`, never by building `page=N` (docs/weblate-api.md, Pagination).
 */
export function numberedPages(next: string, count: number | undefined, received: number): number | undefined {
  if (!new URL(next).searchParams.has('page') || count === undefined || received === 0) return undefined;
  return Math.ceil(count / received);
}

/** Whether the page's `next` is followed one link at a time: a first page or a link of a chain, whose list does not number its pages. */
function followsChain(task: Task, list: AnyPage | undefined, received: number): boolean {
  if (task.delivered !== undefined) return true;
  if (task.page || list === undefined || list.next === null) return false;
  return numberedPages(list.next, list.count, received) === undefined;
}

/** The changes a chain has delivered up to and with this page of it. */
function delivered(task: Task, received: number): number {
  return (task.delivered ?? 0) + received;
}

/** After a first page: the others, numbered pages at once (their count from `count`), else the `next` chain one link at a time. */
function queuePages(task: Task, list: AnyPage | undefined, received: number, context: TaskContext): number {
  if (task.page || list === undefined || list.next === null) return task.page ? 0 : 1;
  const next = rebasePageLink(list.next, context.apiRoot);
  if (next === undefined) {
    context.offOriginPageLink(task.url, list.next);
    return 1;
  }
  const base = { type: task.type, phase: task.phase, project: task.project };
  const pages = numberedPages(next, list.count, received);
  if (pages === undefined) {
    // Not numbered pages: follow the chain one link at a time. In the log, a link past the
    // changes the site shows waits for the history phase, as numbered pages do (below).
    if (task.type !== 'changes') context.queue.add({ ...base, url: next });
    else {
      const through = delivered(task, received);
      const phase = !isHistory(task.phase) && through >= siteChanges ? phases.history : task.phase;
      context.queue.add({ ...base, phase, url: next, delivered: through });
    }
    return 1;
  }
  // The pages of the log past what the site shows wait for the history phase (plan.ts `siteChanges`).
  const current = task.type === 'changes' && !isHistory(task.phase) ? Math.ceil(siteChanges / received) : pages;
  for (let number = 2; number <= pages; number++) {
    const phase = number > current ? phases.history : task.phase;
    context.queue.add({ ...base, phase, url: withParameters(next, { page: String(number) }), page: true });
  }
  return pages;
}

/**
 * The items of a list of records, each stored at its own URL. What the list's URL says fills
 * in what its items leave out (list-items.ts); an item still short of its schema is fetched
 * once on its own before it is kept raw.
 */
async function putListRecords(task: Task, items: unknown[], context: TaskContext): Promise<void> {
  const { apiRoot, queue, problems, writer } = context;
  const list = task.parsed;
  const projects = !context.scope.whole && list?.kind === 'collection' && list.collection === 'projects';
  const parent = listParent(list);
  const parentUrl = parent && new URL(parent.path, apiRoot).href;
  for (const [index, item] of items.entries()) {
    const link = (item as { url?: unknown } | null)?.url;
    const derived = link === undefined ? itemPathWithoutUrl(list, item) : undefined;
    const own = typeof link === 'string' ? resolveLink(link, apiRoot) : derived && new URL(derived, apiRoot).href;
    if (own === undefined) {
      problems.problem({ url: task.url, field: `results.${index}.url`, reason: 'a list item without a url under the API root; not stored' });
      continue;
    }
    if (projects && !projectInScope(item, own, context)) continue;
    const record = parent && parentUrl && isObject(item) && item[parent.field] === undefined ? { ...item, [parent.field]: parentUrl } : item;
    if (writer.check(own, record) !== undefined && own !== task.url && !writer.has(own)) {
      queue.add({ url: own, type: 'record', phase: task.phase });
      continue;
    }
    await context.store(own, record);
  }
}

function projectInScope(item: unknown, url: string, context: TaskContext): boolean {
  const slug = (item as { slug?: unknown }).slug;
  if (typeof slug !== 'string' || !context.scope.hasSlug(slug)) return false;
  // The server's own spelling of the slug in paths is what later links use.
  const segment = parseApiPath(rootPath(url, context.apiRoot))?.project;
  if (segment !== undefined) context.scope.addSegment(segment);
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
