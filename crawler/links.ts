/**
 * Which strings in a record are links the crawler may follow. Pure: no I/O.
 *
 * A link is followed only when it lies under the configured API root (same scheme, host,
 * port, and path prefix). Everything else (repository URLs, project home pages, licence
 * pages, web pages, hostile links planted in translated strings) stays data.
 */

/** Weblate links to itself with `?format=api`, which returns HTML on a real server (weblate-api-facts.md). */
const droppedParameters = ['format'];

/** The API root as given by the user, checked: absolute http(s), trailing slash, no query. */
export function parseApiRoot(text: string): URL {
  let root: URL;
  try {
    root = new URL(text);
  } catch {
    throw new TypeError(`--url ${JSON.stringify(text)} is not an absolute URL; expected e.g. https://weblate.example.org/api/`);
  }
  if (root.protocol !== 'http:' && root.protocol !== 'https:') {
    throw new TypeError(`--url ${text} must be an http or https URL`);
  }
  if (root.username || root.password) {
    throw new TypeError('--url must not carry credentials; put the API token in the WEBLATE_TOKEN environment variable');
  }
  root.hash = '';
  root.search = '';
  if (!root.pathname.endsWith('/')) root.pathname += '/';
  return root;
}

/** The server's base: the API root without its final `api/` (`http://host/weblate/api/` → `http://host/weblate/`). */
export function serverBase(apiRoot: URL): string {
  const base = new URL(apiRoot);
  if (base.pathname.endsWith('/api/')) base.pathname = base.pathname.slice(0, -'api/'.length);
  return base.href;
}

/** `url` as the crawler keys and requests it: `format` dropped, fragment dropped, query sorted. */
function canonical(url: URL): string {
  url.hash = '';
  for (const name of droppedParameters) url.searchParams.delete(name);
  url.searchParams.sort();
  return url.href;
}

function isUnderRoot(url: URL, apiRoot: URL): boolean {
  return url.origin === apiRoot.origin && url.pathname.startsWith(apiRoot.pathname);
}

/**
 * A path below the root that URL parsing leaves as it is: segments of unreserved characters, none
 * empty or starting with a dot (so no `.`/`..` segment), no percent sign, query or fragment.
 */
const plainPath = /^(?:[\w~-][\w.~-]*\/)*(?:[\w~-][\w.~-]*)?$/;

/**
 * The part of `link` below the API root when `link` is the root's own `href` followed by a plain
 * path: then `new URL(link).href` is `link` itself. Parsing a URL is most of what finding links
 * costs, and nearly every link in a record (a unit's `url`, `translation`, `source_unit`) is one.
 */
function plainBelow(link: string, apiRoot: URL): string | undefined {
  if (!link.startsWith(apiRoot.href)) return undefined;
  const rest = link.slice(apiRoot.href.length);
  return plainPath.test(rest) ? rest : undefined;
}

/** The canonical form of `text` if it is a link under the API root, otherwise `undefined`. */
export function resolveLink(text: string, apiRoot: URL): string | undefined {
  if (plainBelow(text, apiRoot) !== undefined) return text;
  if (!/^https?:\/\//i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  return isUnderRoot(url, apiRoot) ? canonical(url) : undefined;
}

/**
 * A pagination link (`next`/`previous`) moved onto the configured origin. Servers behind a TLS
 * proxy build them from the request they saw (`http://` on an `https://` site, an internal
 * host name); only the path and query are trusted, and only when the path is under the root.
 */
export function rebasePageLink(text: string, apiRoot: URL): string | undefined {
  let url: URL;
  try {
    url = new URL(text, apiRoot);
  } catch {
    return undefined;
  }
  const rebased = new URL(url.pathname + url.search, apiRoot.origin);
  return isUnderRoot(rebased, apiRoot) ? canonical(rebased) : undefined;
}

/** The path and query of a canonical link relative to the API root, e.g. `projects/foo/?page=2`. */
export function apiPath(link: string, apiRoot: URL): string {
  const url = new URL(link);
  return url.pathname.slice(apiRoot.pathname.length) + url.search;
}

/** The path of a link relative to the API root without its query, as `parseApiPath` takes it: `projects/foo/`. */
export function rootPath(link: string, apiRoot: URL): string {
  return plainBelow(link, apiRoot) ?? new URL(link).pathname.slice(apiRoot.pathname.length);
}

/**
 * Every followable link anywhere in `value` (any depth, any field name, unknown fields
 * included), canonical and de-duplicated, in first-seen order.
 */
export function findLinks(value: unknown, apiRoot: URL): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (typeof node === 'string') {
      const link = resolveLink(node, apiRoot);
      if (link !== undefined) found.add(link);
    } else if (Array.isArray(node)) {
      for (const item of node) visit(item);
    } else if (node !== null && typeof node === 'object') {
      for (const item of Object.values(node)) visit(item);
    }
  };
  visit(value);
  return [...found];
}

/** `link` with query parameters set (e.g. `page_size`), canonical. */
export function withParameters(link: string, parameters: Record<string, string>): string {
  const url = new URL(link);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return canonical(url);
}
