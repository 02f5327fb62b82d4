/**
 * What a crawl asks before it creates anything (issue 35, "Nothing lost"): a wrong URL, a refused
 * key or a mistyped `--project` once left a `.partial` snapshot that nothing removed. A crawl that
 * would start a new snapshot first reads the API root and, for `--project`, the projects list's
 * first page; only once they answered does it take the lock and create the snapshot. The answers
 * are kept in the client for the tasks that ask for them, so they cost no request more
 * (docs/crawl.md, "Before anything is written").
 */
import { apiRoot } from '../api/root.ts';
import { canonicalJson, normalizeBaseUrl, partialSnapshots, resumable, type Scope } from '../snapshot/index.ts';
import { CrawlStoppedError, HttpStatusError, stopCodes } from './errors.ts';
import type { HttpClient } from './http/client.ts';
import { serverBase, withParameters } from './links.ts';
import { outcomeOf } from './outcomes.ts';
import { phases } from './plan.ts';
import { pageSizes } from './tasks/context.ts';

export interface FirstAnswersOptions {
  apiRoot: URL;
  contentDir: string;
  /** Project slugs asked for (`--project`), as the scope records them. */
  slugs: readonly string[] | undefined;
  scope: Scope;
  token?: string | undefined;
  /** The name meant by a mistyped one, among the known ones (the CLI's "did you mean" rule). */
  suggest?: ((typed: string, known: readonly string[]) => string | undefined) | undefined;
}

/** Whether a crawl of this server and scope would resume an unfinished snapshot rather than start one. */
async function resumes(options: FirstAnswersOptions): Promise<boolean> {
  const baseUrl = normalizeBaseUrl(serverBase(options.apiRoot));
  const partials = await partialSnapshots(options.contentDir);
  const live = resumable(partials);
  const scope = canonicalJson(options.scope);
  return partials.some(({ id, state }) => live.has(id) && state?.base_url === baseUrl && canonicalJson(state.scope) === scope);
}

/** The one line of a first answer that stops the crawl, or undefined when it may go on. */
function stopLine(url: string, type: 'root' | 'list', error: unknown, token: string | undefined): string | undefined {
  const outcome = outcomeOf({ url, type, phase: type === 'root' ? phases.root : phases.structure }, error, 0, token);
  return outcome.type === 'stop' ? outcome.stop.message : undefined;
}

/** `no project "x" on …`, with the project meant when a known slug is close. */
export function noProjectLine(missing: readonly string[], known: readonly string[], root: string, suggest: FirstAnswersOptions['suggest']): string {
  const names = missing.map((slug) => JSON.stringify(slug)).join(', ');
  const meant = missing.length === 1 && suggest !== undefined ? suggest(missing[0]!, known) : undefined;
  if (meant !== undefined) return `no project ${names} on ${root}: did you mean --project ${meant}?`;
  return `no project ${names} on ${root} (a private project needs a token in WEBLATE_TOKEN)`;
}

/**
 * Why the crawl must not start, as one line, or undefined when it may: the API root unreadable or
 * not one, or a `--project` the server does not list. Skipped when the crawl resumes a snapshot
 * (whose root answered before).
 */
export async function firstAnswers(options: FirstAnswersOptions, client: HttpClient): Promise<string | undefined> {
  if (await resumes(options)) return undefined;
  const root = options.apiRoot.href;
  let body: unknown;
  try {
    const fetched = await client.getJson(root);
    body = fetched.body;
    client.keep(root, fetched);
  } catch (error) {
    return stopLine(root, 'root', error, options.token) ?? (error as Error).message;
  }
  if (!apiRoot.safeParse(body).success) {
    return new CrawlStoppedError(
      stopCodes.answer,
      `${root} answered JSON that is not a Weblate API root (no projects, components, units… links): is --url the API root, e.g. https://weblate.example.org/api/?`,
    ).message;
  }
  if (options.slugs === undefined) return undefined;
  // The first page of the list the crawl reads first anyway; a slug past it is asked for alone.
  const list = withParameters(new URL('projects/', options.apiRoot).href, { page_size: pageSizes.list });
  let known: string[];
  let more: boolean;
  try {
    const fetched = await client.getJson(list);
    client.keep(list, fetched);
    const page = fetched.body as { results?: { slug?: unknown }[]; next?: unknown } | { slug?: unknown }[];
    const items = Array.isArray(page) ? page : (page.results ?? []);
    known = items.map((item) => item.slug).filter((slug): slug is string => typeof slug === 'string');
    more = !Array.isArray(page) && typeof page.next === 'string';
  } catch (error) {
    // Anything but a stop (a refused key, a bot check) is for the crawl to meet and report.
    return stopLine(list, 'list', error, options.token);
  }
  const missing: string[] = [];
  for (const slug of options.slugs) {
    if (known.includes(slug)) continue;
    if (!more) {
      missing.push(slug);
      continue;
    }
    try {
      await client.getJson(new URL(`projects/${encodeURIComponent(slug)}/`, options.apiRoot).href);
    } catch (error) {
      if (error instanceof HttpStatusError && error.status === 404) missing.push(slug);
      else return stopLine(list, 'list', error, options.token);
    }
  }
  return missing.length === 0 ? undefined : noProjectLine(missing, known, root, options.suggest);
}
