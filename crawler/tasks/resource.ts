import { resourcePattern } from '../access.ts';
import { rebasePageLink, withParameters } from '../links.ts';
import type { Task } from '../queue/task.ts';
import { type AnyPage, anyPage, pageSizes, type TaskContext } from './context.ts';

/**
 * A sub-resource (statistics, repository, lock, unknown ones): every page of it, stored as one
 * record in the shape a single page holding everything has. It is held whole until stored, so
 * one listing more than `context.maxResourceItems` (Weblate's `memory/` lists every translated
 * unit again: 6.3M entries, 1.3 GB of JSON on a 10M-unit instance; docs/crawl.md) is read to its
 * first page only (without a `count`, under cursor pagination: until its pages pass the limit)
 * and named under `skipped` in the manifest with its count.
 */
export async function fetchResource(task: Task, context: TaskContext): Promise<number> {
  let url: string | undefined = withParameters(task.url, { page_size: pageSizes.list });
  let first: unknown;
  const results: unknown[] = [];
  let pages = 0;
  while (url !== undefined) {
    const { body } = await context.client.getJson(url);
    pages++;
    const parsed = anyPage.safeParse(body);
    if (!parsed.success) {
      first = body;
      break;
    }
    const { count } = parsed.data;
    // Without a count (cursor pagination) the pages are read until they hold more than the limit.
    const listed = count ?? results.length + parsed.data.results.length;
    if (listed > context.maxResourceItems && parsed.data.next !== null && (pages === 1 || count === undefined)) {
      const reason =
        count === undefined
          ? `it lists more than the ${context.maxResourceItems} items a resource is held whole for`
          : `it lists ${count} items, more than the ${context.maxResourceItems} a resource is held whole for`;
      context.problems.skip(task.url, { kind: resourcePattern(task.path, task.parsed), reason });
      return pages;
    }
    first ??= parsed.data;
    results.push(...parsed.data.results);
    const next: string | undefined = parsed.data.next === null ? undefined : rebasePageLink(parsed.data.next, context.apiRoot);
    if (parsed.data.next !== null && next === undefined) context.offOriginPageLink(url, parsed.data.next);
    url = next;
  }
  const record = pages > 1 || anyPage.safeParse(first).success ? { ...(first as AnyPage), next: null, previous: null, results } : first;
  await context.store(task.url, record);
  await putTranslationStatistics(task, results, context);
  return pages;
}

/**
 * A component's `statistics/` lists each translation's `statistics/` record, the same
 * serializer's output (docs/weblate-api.md, Values): each item, named by its language `code`,
 * is stored at its translation's own URL, which is never asked for (plan.ts).
 */
async function putTranslationStatistics(task: Task, items: readonly unknown[], context: TaskContext): Promise<void> {
  const path = task.parsed;
  if (path?.kind !== 'component' || path.sub !== 'statistics' || path.rest !== undefined) return;
  if (path.project === undefined || path.component === undefined) return;
  const byLanguage = new Map<string, string>();
  for (const [translation, language] of context.translations.ofComponent(path.project, path.component))
    byLanguage.set(decodeURIComponent(language), translation);
  for (const item of items) {
    const code = (item as { code?: unknown } | null)?.code;
    const translation = typeof code === 'string' ? byLanguage.get(code) : undefined;
    if (translation !== undefined) await context.store(`${translation}statistics/`, item);
  }
}
