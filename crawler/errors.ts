/**
 * Every way a request can fail, one class each, with a stable `code` (as undici does) and the
 * policy the crawler applies (as crawlee's error classes do). Messages name the URL and say
 * what to do; they never hold the token, which only ever travels in a request header.
 */
export abstract class CrawlError extends Error {
  constructor(
    message: string,
    readonly url: string,
    /** Stable across versions, as undici's codes are: match on it, not on the message. */
    readonly code: string,
    /** Whether the same request may succeed if sent again later. */
    readonly retryable: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A non-2xx status. 5xx, 408 and 429 are retried; other 4xx are answers, listed as problems of the snapshot. */
export class HttpStatusError extends CrawlError {
  override name = 'HttpStatusError';
  constructor(
    url: string,
    readonly status: number,
    detail: string,
    code = 'TMSNAP_HTTP_STATUS',
  ) {
    super(`GET ${url} answered ${status}${detail ? `: ${detail}` : ''}`, url, code, status >= 500 || status === 408 || status === 429);
  }
}

/**
 * 401 or 403: these credentials may not read this resource, and the same kind of resource of
 * every sibling object answers the same (an anonymous client gets 403 on every `repository/`,
 * docs/crawl.md "Access limits"). The crawl stops asking for that kind and records it once
 * as a limit of access, not a problem of the data.
 */
export class AccessDeniedError extends HttpStatusError {
  override name = 'AccessDeniedError';
  constructor(url: string, status: number, detail: string) {
    super(url, status, detail, 'TMSNAP_ACCESS_DENIED');
  }
}

/** The error class for a non-2xx status that is not throttling. */
export function httpStatusError(url: string, status: number, detail: string): HttpStatusError {
  return status === 401 || status === 403 ? new AccessDeniedError(url, status, detail) : new HttpStatusError(url, status, detail);
}

/** 429 or 503: waited out as the server says (`Retry-After`) without using up a retry. */
export class ThrottledError extends HttpStatusError {
  override name = 'ThrottledError';
  constructor(
    url: string,
    status: number,
    /** Milliseconds, from `Retry-After`; undefined when the server did not say. */
    readonly retryAfter: number | undefined,
    detail: string,
  ) {
    super(url, status, detail);
  }
}

/** The body is not what the endpoint promises: an HTML error page from a proxy, or broken JSON. */
export class ContentTypeError extends CrawlError {
  override name = 'ContentTypeError';
  constructor(url: string, contentType: string, status: number) {
    const message = `GET ${url} answered ${status} with ${contentType || 'no Content-Type'} instead of JSON: is --url the API root of a Weblate server (it ends in /api/)?`;
    super(message, url, 'TMSNAP_CONTENT_TYPE', false);
  }
}

/** A connection reset, refused connection, DNS failure or a stalled response: retried. */
export class NetworkError extends CrawlError {
  override name = 'NetworkError';
  constructor(url: string, cause: unknown) {
    super(`GET ${url} failed: ${cause instanceof Error ? cause.message : String(cause)}`, url, 'TMSNAP_NETWORK', true, { cause });
  }
}

/** The server asked to wait longer than the crawl is willing to (`--max-wait`): the crawl stops, resumable. */
export class RateLimitError extends CrawlError {
  override name = 'RateLimitError';
  /** How long the server asked to wait. */
  readonly waitSeconds: number;
  constructor(url: string, waitSeconds: number, detail: string) {
    super(`GET ${url}: ${detail}`, url, 'TMSNAP_RATE_LIMIT', false);
    this.waitSeconds = waitSeconds;
  }
}

/** Retries used up: the last error is the cause, the message says how many attempts were made. */
export class RetriesExhaustedError extends CrawlError {
  override name = 'RetriesExhaustedError';
  constructor(url: string, attempts: number, cause: CrawlError) {
    super(`${cause.message} (gave up after ${attempts} attempts)`, url, 'TMSNAP_RETRIES_EXHAUSTED', false, { cause });
  }
}

/** A link to another origin or outside the API: never requested. */
export class OffOriginError extends CrawlError {
  override name = 'OffOriginError';
  constructor(url: string, base: string) {
    super(`refusing to request ${url}: it is not under the configured API root ${base}`, url, 'TMSNAP_OFF_ORIGIN', false);
  }
}
