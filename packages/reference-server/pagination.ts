/** Page sizes of a list: standard lists and the units-sized ones (units, component statistics). */
export interface PageSizes {
  default: number;
  max: number;
}

export const standardSizes: PageSizes = { default: 50, max: 1000 };
export const unitSizes: PageSizes = { default: 100, max: 10000 };
/** Servers up to 4.15: 20 per page, and no `page_size` parameter at all. */
export const LEGACY_PAGE_SIZE = 20;

export interface PageWindow {
  page: number;
  size: number;
  offset: number;
}

/**
 * The window a request asks for. A bad or too large `page_size` is clamped silently, as
 * Django REST framework does; `page` is validated later against the count.
 */
export function pageWindow(query: URLSearchParams, sizes: PageSizes, legacy: boolean): PageWindow | 'invalid' {
  const rawPage = query.get('page');
  const page = rawPage === null || rawPage === 'last' ? 1 : /^\d+$/.test(rawPage) ? Number(rawPage) : Number.NaN;
  if (!Number.isSafeInteger(page) || page < 1) return 'invalid';
  let size = sizes.default;
  if (legacy) size = LEGACY_PAGE_SIZE;
  else {
    const rawSize = query.get('page_size');
    if (rawSize !== null && /^\d+$/.test(rawSize) && Number(rawSize) > 0) size = Math.min(Number(rawSize), sizes.max);
  }
  return { page, size, offset: (page - 1) * size };
}

/** `page=last` names the last page; any other page must hold results (page 1 of nothing is fine). */
export function resolvePage(query: URLSearchParams, window: PageWindow, count: number): PageWindow | 'invalid' {
  const pages = Math.max(1, Math.ceil(count / window.size));
  const page = query.get('page') === 'last' ? pages : window.page;
  if (page > pages) return 'invalid';
  return { ...window, page, offset: (page - 1) * window.size };
}

/**
 * `next`/`previous`: the request URL with `page` replaced; page 1 drops the parameter.
 * `sorted`: the parameters sorted by key, as Django REST framework's `replace_query_param`
 * writes them (a real server; README.md, "Profiles").
 */
export function pageLink(requestUrl: URL, page: number, sorted = false): string {
  const link = new URL(requestUrl);
  if (page === 1) link.searchParams.delete('page');
  else link.searchParams.set('page', String(page));
  if (sorted) link.searchParams.sort();
  return link.href;
}

export function pageEnvelope(requestUrl: URL, window: PageWindow, count: number, results: unknown[], sorted = false): Record<string, unknown> {
  const hasNext = window.offset + window.size < count;
  return {
    count,
    next: hasNext ? pageLink(requestUrl, window.page + 1, sorted) : null,
    previous: window.page > 1 ? pageLink(requestUrl, window.page - 1, sorted) : null,
    results,
  };
}

/**
 * Cursor pagination (announced for the whole API, WeblateOrg/weblate#21696), as Django REST
 * framework's CursorPagination writes it: an opaque `cursor` (base64 of `o=<offset>`; DRF puts
 * a position there too) in `next`/`previous`, no `page`, and no `count`, which is what it saves.
 */
export function cursorWindow(query: URLSearchParams, sizes: PageSizes, legacy = false): PageWindow | 'invalid' {
  // `legacy` (20 a page) over cursors is no real server's: it makes a small dataset's lists run to many pages.
  const asked = pageWindow(new URLSearchParams([...query].filter(([name]) => name !== 'page')), sizes, legacy);
  if (asked === 'invalid') return asked;
  const cursor = query.get('cursor');
  if (cursor === null) return asked;
  const offset = /^o=(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('latin1'))?.[1];
  if (offset === undefined || !Number.isSafeInteger(Number(offset))) return 'invalid';
  return { ...asked, page: 0, offset: Number(offset) };
}

export function cursorLink(requestUrl: URL, offset: number, sorted = false): string {
  const link = new URL(requestUrl);
  if (offset === 0) link.searchParams.delete('cursor');
  else link.searchParams.set('cursor', Buffer.from(`o=${offset}`).toString('base64'));
  if (sorted) link.searchParams.sort();
  return link.href;
}

/** `more`: items follow this window (the caller knows it without counting them all, as a database cursor does). */
export function cursorEnvelope(requestUrl: URL, window: PageWindow, more: boolean, results: unknown[], sorted = false): Record<string, unknown> {
  return {
    next: more ? cursorLink(requestUrl, window.offset + window.size, sorted) : null,
    previous: window.offset > 0 ? cursorLink(requestUrl, Math.max(0, window.offset - window.size), sorted) : null,
    results,
  };
}
