import type { IncomingHttpHeaders } from 'node:http';
import type { Instance } from './instance.ts';
import type { ComponentRow, ProjectRow, TranslationRow } from './model.ts';
import { type PageSizes, cursorEnvelope, cursorWindow, pageEnvelope, pageWindow, resolvePage, standardSizes } from './pagination.ts';
import type { ProfileBehaviours } from './profiles.ts';
import type { Statistics514 } from './statistics.ts';
import { type Links, type TranslationContext, componentRecord, decodeSegment } from './render.ts';

/** What a route handler sees of one API request. */
export interface ApiRequest {
  /** The absolute request URL, as the client addressed it (its Host header). */
  url: URL;
  /** Where `next`/`previous` links point: `url`, or another origin when that behaviour is on. */
  pageUrl: URL;
  headers: IncomingHttpHeaders;
  instance: Instance;
  links: Links;
  /** Private projects are hidden (404, left out of lists) from anonymous clients when tokens are on. */
  canSee(project: ProjectRow): boolean;
  legacyPagination: boolean;
  changesNewestFirst: boolean;
  /** The server's behaviours: its profile with its own options laid over. */
  behaviours: ProfileBehaviours;
  /** The request carried a token the server accepts. */
  authenticated: boolean;
}

/** A JSON body, or a raw one (the translation file) with its own headers. */
export type ApiResult = { status: number; json: unknown } | { status: number; raw: string; headers: Record<string, string> };

export interface Route {
  /** Path segments after `/api/`; `:name` matches any one segment. */
  pattern: string[];
  /** The `Allow` header Weblate announces for this resource (on some, by profile). */
  allow: string | ((behaviours: ProfileBehaviours) => string);
  /**
   * Anonymous clients are refused (401) before throttling, as a permission class of Django REST
   * framework refuses them: no `X-RateLimit-*` on that answer. By profile.
   */
  tokenFirst?: (behaviours: ProfileBehaviours) => boolean;
  /** `format` asks this route for a file conversion rather than a renderer (translation `file/`). */
  formatIsConversion?: boolean;
  handle(request: ApiRequest, params: Record<string, string>): ApiResult;
}

export const READ_ONLY = 'GET, HEAD, OPTIONS';
export const LIST_CREATE = 'GET, POST, HEAD, OPTIONS';
export const DETAIL_EDIT = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';

/**
 * An error answered as JSON; `code` is the machine code of the 5.10+ error format, `attr` the
 * field a validation error is about (5.4 keys its 400 body by it), `headers` extra ones.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly attr: string | null;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, detail: string, attr: string | null = null, headers: Record<string, string> = {}) {
    super(detail);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.attr = attr;
    this.headers = headers;
  }
}

/** Anonymous clients of a real server may not read repositories (403, after throttling). */
export function requirePermission(request: ApiRequest): void {
  if (request.behaviours.anonymousLimits && !request.authenticated) {
    throw new ApiError(403, 'permission_denied', 'You do not have permission to perform this action.');
  }
}

/** Endpoints a real server answers only with credentials: 401 and the scheme to use. */
export function requireToken(request: ApiRequest): void {
  if (request.behaviours.anonymousLimits && !request.authenticated) throw notAuthenticated();
}

export const notAuthenticated = (): ApiError =>
  new ApiError(401, 'not_authenticated', 'Authentication credentials were not provided.', null, { 'WWW-Authenticate': 'Token' });

export const notFound = (): ApiError => new ApiError(404, 'not_found', 'Not found.');
export const invalidPage = (): ApiError => new ApiError(404, 'not_found', 'Invalid page.');
export const invalidCursor = (): ApiError => new ApiError(404, 'not_found', 'Invalid cursor');

export function ok(json: unknown): ApiResult {
  return { status: 200, json };
}

/** A paginated list over `count` items fetched by window. */
export function paginate(request: ApiRequest, count: number, fetch: (offset: number, limit: number) => unknown[], sizes: PageSizes = standardSizes): ApiResult {
  if (request.behaviours.cursorPagination) {
    const window = cursorWindow(request.url.searchParams, sizes, request.legacyPagination);
    if (window === 'invalid') throw invalidCursor();
    const results = window.offset >= count ? [] : fetch(window.offset, Math.min(window.size, count - window.offset));
    return ok(cursorEnvelope(request.pageUrl, window, window.offset + window.size < count, results, request.behaviours.sortedPageLinks));
  }
  const asked = pageWindow(request.url.searchParams, sizes, request.legacyPagination);
  if (asked === 'invalid') throw invalidPage();
  const window = resolvePage(request.url.searchParams, asked, count);
  if (window === 'invalid') throw invalidPage();
  const results = count === 0 ? [] : fetch(window.offset, Math.min(window.size, count - window.offset));
  return ok(pageEnvelope(request.pageUrl, window, count, results, request.behaviours.sortedPageLinks));
}

export function paginateArray<T>(request: ApiRequest, items: readonly T[], render: (item: T) => unknown, sizes?: PageSizes): ApiResult {
  return paginate(request, items.length, (offset, limit) => items.slice(offset, offset + limit).map(render), sizes);
}

/**
 * A paginated list over a stream too large to hold (filtered units, changes): one pass
 * counts and keeps the requested window, a second only for `page=last`.
 */
export function paginateStream<T>(request: ApiRequest, stream: () => Iterable<T>, render: (item: T) => unknown, sizes?: PageSizes): ApiResult {
  const query = request.url.searchParams;
  const cursor = request.behaviours.cursorPagination;
  const asked = cursor
    ? cursorWindow(query, sizes ?? standardSizes, request.legacyPagination)
    : pageWindow(query, sizes ?? standardSizes, request.legacyPagination);
  if (asked === 'invalid') throw cursor ? invalidCursor() : invalidPage();
  const collect = (offset: number, size: number) => {
    const kept: T[] = [];
    let count = 0;
    for (const item of stream()) {
      if (count >= offset && count < offset + size) kept.push(item);
      count++;
    }
    return { kept, count };
  };
  let { kept, count } = collect(asked.offset, asked.size);
  if (cursor) return ok(cursorEnvelope(request.pageUrl, asked, asked.offset + asked.size < count, kept.map(render), request.behaviours.sortedPageLinks));
  const window = resolvePage(query, asked, count);
  if (window === 'invalid') throw invalidPage();
  if (window.offset !== asked.offset) kept = collect(window.offset, window.size).kept;
  return ok(pageEnvelope(request.pageUrl, window, count, kept.map(render), request.behaviours.sortedPageLinks));
}

/**
 * A top-level collection's two routes, as Weblate has them: `name/`, the paginated list (`list`
 * gives what this client may see, in order), and `name/:key/`, one member (`find` throws a 404
 * when there is none); `render` turns a member into its record for both.
 */
export function collectionRoutes<Row>(
  name: string,
  key: string,
  {
    list,
    find,
    render,
  }: {
    list: (request: ApiRequest) => readonly Row[];
    find: (request: ApiRequest, key: string | undefined) => Row;
    render: (request: ApiRequest, row: Row) => unknown;
  },
): Route[] {
  return [
    { pattern: [name], allow: LIST_CREATE, handle: (request) => paginateArray(request, list(request), (row) => render(request, row)) },
    { pattern: [name, `:${key}`], allow: DETAIL_EDIT, handle: (request, params) => ok(render(request, find(request, params[key]))) },
  ];
}

/** The row a (percent-encoded) path segment names in a map keyed by name, or a 404. */
export function findNamed<Row>(rows: ReadonlyMap<string, Row>, segment: string | undefined): Row {
  const row = rows.get(decodeSegment(segment ?? ''));
  if (!row) throw notFound();
  return row;
}

export function findProject(request: ApiRequest, slug: string | undefined): ProjectRow {
  const project = request.instance.projectsBySlug.get(decodeSegment(slug ?? ''));
  if (!project || !request.canSee(project)) throw notFound();
  return project;
}

export function findComponent(request: ApiRequest, params: Record<string, string>): ComponentRow {
  const project = findProject(request, params.project);
  const component = request.instance.component(project.slug, decodeSegment(params.component ?? ''));
  if (!component) throw notFound();
  return component;
}

export function findTranslation(request: ApiRequest, params: Record<string, string>): TranslationRow {
  const component = findComponent(request, params);
  const project = request.instance.projectOf(component);
  const translation = request.instance.translation(project.slug, component.slug, decodeSegment(params.language ?? ''));
  if (!translation) throw notFound();
  return translation;
}

export function visibleComponents(request: ApiRequest): ComponentRow[] {
  return [...request.instance.components.values()].filter((component) => request.canSee(request.instance.projectOf(component)));
}

export function visibleTranslations(request: ApiRequest): TranslationRow[] {
  return [...request.instance.translations.values()].filter((translation) =>
    request.canSee(request.instance.projectOf(request.instance.componentOf(translation))),
  );
}

/** How the statistics of objects `review`ed (translation review on, not the source) are written: as 5.14 does, or the profile's older way. */
export function statisticsStyle(request: ApiRequest, review: boolean): Statistics514 | undefined {
  return request.behaviours.statistics514 ? { review } : undefined;
}

/** `embedProject: false` leaves the project out, as 5.4 does in a project's `components/` list. */
export function renderComponent(request: ApiRequest, component: ComponentRow, embedProject = true): Record<string, unknown> {
  const { instance } = request;
  return componentRecord(request.links, component, instance.projectOf(component), instance.language(component.sourceLanguage), embedProject);
}

export function translationContext(request: ApiRequest, translation: TranslationRow): TranslationContext {
  const { instance } = request;
  const component = instance.componentOf(translation);
  return {
    translation,
    component,
    project: instance.projectOf(component),
    language: instance.language(translation.languageCode),
    sourceLanguage: instance.language(component.sourceLanguage),
    counts: instance.counts(translation.id),
    last: instance.lastChange([translation.id]),
  };
}
