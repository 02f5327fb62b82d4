/**
 * What an anonymous visitor of the server sees, asked once by a keyed crawl: the projects the
 * server lists to a client without a key. A key may read private projects, and Weblate's
 * project records do not say which ones are private; the site publishes only these by default
 * (site-model/privacy.ts, docs/site.md "Only what the public sees").
 */
import { apiPath } from '../snapshot/index.ts';
import { AccessDeniedError } from './errors.ts';
import { HttpClient, type HttpClientOptions } from './http/client.ts';
import { serverBase } from './links.ts';

/** Pages followed at most: a server with more than 100,000 public projects is not expected. */
const maxPages = 100;

/**
 * The paths (`api/projects/<slug>/`) of the projects an anonymous client is listed, following
 * `next`; [] when the server refuses anonymous clients (401/403); undefined when the answer
 * could not be had (the site then publishes none of the keyed crawl's projects by default).
 * `requests` counts what was asked: every request is counted, as the server saw it (issue 11).
 */
export async function anonymousProjects(options: Omit<HttpClientOptions, 'token'>): Promise<{ paths: string[] | undefined; requests: number }> {
  const client = new HttpClient({ ...options, token: undefined, concurrency: 1 });
  const base = serverBase(options.apiRoot);
  const found: string[] = [];
  let requests = 0;
  const paths = await (async (): Promise<string[] | undefined> => {
    let url: string | null = new URL('projects/', options.apiRoot).href;
    for (let page = 0; url !== null && page < maxPages; page += 1) {
      requests += 1;
      const body = (await client.getJson(url)).body as { results?: unknown; next?: unknown } | unknown[];
      const results: unknown[] = Array.isArray(body) ? body : Array.isArray(body.results) ? body.results : [];
      for (const item of results) {
        const itemUrl = typeof item === 'object' && item !== null ? (item as { url?: unknown }).url : undefined;
        if (typeof itemUrl === 'string' && itemUrl.startsWith(base)) found.push(apiPath(itemUrl, base));
      }
      url = Array.isArray(body) || typeof body.next !== 'string' ? null : body.next;
      if (url !== null && page + 1 === maxPages) return undefined;
    }
    return found;
  })().catch((error: unknown) => (error instanceof AccessDeniedError ? [] : undefined));
  await client.close();
  return { paths, requests };
}
