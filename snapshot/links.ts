/**
 * How link fields are stored. A link on the server becomes a path relative to its base
 * (`api/projects/foo/`), without the `format=api` the server may add; everything else stays
 * as it came. The encoding is reversible for every string, including hostile ones:
 * - a relative path is never mistaken for a URL (it cannot start with a scheme),
 * - a link that would not come back byte for byte (odd query order, `format=api` where the
 *   server does not usually write it, …) is kept absolute,
 * - a value without a scheme (servers always write absolute URLs) gets the `tmsnap-raw:` prefix
 *   so that it cannot pass for a relative path.
 */

/** Where links point and how the server spells them. */
export interface LinkBase {
  /** The server's base URL, ending in `/` (the API lives at `${baseUrl}api/`). */
  baseUrl: string;
  /** Whether the server appends `format=api` to the API links it writes (wire rule 2 of the description). */
  formatApi: boolean;
}

const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
const rawPrefix = 'tmsnap-raw:';
const formatApiParam = 'format=api';

/** Splits `path?query#fragment`; query and fragment keep their leading `?`/`#` out. */
function splitUrl(text: string): { path: string; query: string | undefined; fragment: string | undefined } {
  const hashAt = text.indexOf('#');
  const beforeHash = hashAt === -1 ? text : text.slice(0, hashAt);
  const fragment = hashAt === -1 ? undefined : text.slice(hashAt + 1);
  const queryAt = beforeHash.indexOf('?');
  if (queryAt === -1) return { path: beforeHash, query: undefined, fragment };
  return { path: beforeHash.slice(0, queryAt), query: beforeHash.slice(queryAt + 1), fragment };
}

function joinUrl(path: string, params: string[], fragment: string | undefined): string {
  return path + (params.length > 0 ? `?${params.join('&')}` : '') + (fragment === undefined ? '' : `#${fragment}`);
}

/** `text` without any `format=api` query parameter. */
export function withoutFormatApi(text: string): string {
  const { path, query, fragment } = splitUrl(text);
  if (query === undefined) return text;
  return joinUrl(
    path,
    query.split('&').filter((param) => param !== formatApiParam && param !== ''),
    fragment,
  );
}

function withFormatApi(relative: string): string {
  const { path, query, fragment } = splitUrl(relative);
  const params = query === undefined ? [] : query.split('&').filter((param) => param !== '');
  return joinUrl(path, [...params, formatApiParam], fragment);
}

/** Whether a relative path names an API resource (the server adds `format=api` only to those). */
function isApiPath(relative: string): boolean {
  return relative.startsWith('api/');
}

export function decodeLink(stored: string, base: LinkBase): string {
  if (stored.startsWith(rawPrefix)) return stored.slice(rawPrefix.length);
  if (scheme.test(stored)) return stored;
  return base.baseUrl + (base.formatApi && isApiPath(stored) ? withFormatApi(stored) : stored);
}

export function encodeLink(value: string, base: LinkBase): string {
  if (value.startsWith(base.baseUrl)) {
    const relative = withoutFormatApi(value.slice(base.baseUrl.length));
    if (!scheme.test(relative) && decodeLink(relative, base) === value) return relative;
  }
  if (scheme.test(value) && !value.startsWith(rawPrefix)) return value;
  return rawPrefix + value;
}

/**
 * Whether the API links of a record carry `format=api`: the first on-server API link found
 * decides; `undefined` when the record has none.
 */
export function detectFormatApi(links: Iterable<string>, baseUrl: string): boolean | undefined {
  for (const link of links) {
    if (!link.startsWith(baseUrl) || !isApiPath(link.slice(baseUrl.length))) continue;
    const { query } = splitUrl(link);
    return query !== undefined && query.split('&').includes(formatApiParam);
  }
  return undefined;
}

/** The server's base URL for an API root URL or base URL, always ending in `/`. */
export function normalizeBaseUrl(url: string): string {
  const parsed = new URL(url);
  parsed.search = '';
  parsed.hash = '';
  let text = parsed.href;
  if (!text.endsWith('/')) text += '/';
  return text.endsWith('/api/') ? text.slice(0, -'api/'.length) : text;
}

/**
 * The index key of an absolute API URL: relative to the base, `format=api` removed. Throws for
 * URLs off the server: a path in the snapshot never names anything elsewhere.
 */
export function apiPath(url: string, baseUrl: string): string {
  if (!url.startsWith(baseUrl)) throw new Error(`${url} is not on the snapshot's server ${baseUrl}`);
  return withoutFormatApi(url.slice(baseUrl.length));
}
