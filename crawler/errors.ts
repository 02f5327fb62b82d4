/**
 * Every way a request can fail, one class each, with a stable `code` (as undici does) and the
 * policy the crawler applies (as crawlee's error classes do). Messages name the URL and say
 * what to do; they never hold the token, which only ever travels in a request header.
 */
export abstract class CrawlError extends Error {
  abstract readonly code: string;
  /** Whether the same request may succeed if sent again later. */
  abstract readonly retryable: boolean;
  constructor(
    message: string,
    readonly url: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A non-2xx status. 5xx, 408 and 429 are retried; other 4xx are answers, listed as problems of the snapshot. */
export class HttpStatusError extends CrawlError {
  override name = 'HttpStatusError';
  readonly code: string = 'TMSNAP_HTTP_STATUS';
  readonly retryable: boolean;
  constructor(
    url: string,
    readonly status: number,
    detail: string,
  ) {
    super(`GET ${url} answered ${status}${detail ? `: ${detail}` : ''}`, url);
    this.retryable = status >= 500 || status === 408 || status === 429;
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
  override readonly code = 'TMSNAP_ACCESS_DENIED';
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
  readonly code = 'TMSNAP_CONTENT_TYPE';
  readonly retryable = false;
  constructor(url: string, contentType: string, status: number) {
    super(
      `GET ${url} answered ${status} with ${contentType || 'no Content-Type'} instead of JSON: is --url the API root of a Weblate server (it ends in /api/)?`,
      url,
    );
  }
}

/** A connection reset, refused connection, DNS failure or a stalled response: retried. */
export class NetworkError extends CrawlError {
  override name = 'NetworkError';
  readonly code = 'TMSNAP_NETWORK';
  readonly retryable = true;
  constructor(url: string, cause: unknown) {
    super(`GET ${url} failed: ${cause instanceof Error ? cause.message : String(cause)}`, url, { cause });
  }
}

/** The server asked to wait longer than the crawl is willing to (`--max-wait`): the crawl stops, resumable. */
export class RateLimitError extends CrawlError {
  override name = 'RateLimitError';
  readonly code = 'TMSNAP_RATE_LIMIT';
  readonly retryable = false;
  constructor(
    url: string,
    readonly waitSeconds: number,
    detail: string,
  ) {
    super(`GET ${url}: ${detail}`, url);
  }
}

/** Retries used up: the last error is the cause. */
export class RetriesExhaustedError extends CrawlError {
  override name = 'RetriesExhaustedError';
  readonly code = 'TMSNAP_RETRIES_EXHAUSTED';
  readonly retryable = false;
  constructor(
    url: string,
    readonly attempts: number,
    cause: CrawlError,
  ) {
    super(`${cause.message} (gave up after ${attempts} attempts)`, url, { cause });
  }
}

/** A link to another origin or outside the API: never requested. */
export class OffOriginError extends CrawlError {
  override name = 'OffOriginError';
  readonly code = 'TMSNAP_OFF_ORIGIN';
  readonly retryable = false;
  constructor(url: string, base: string) {
    super(`refusing to request ${url}: it is not under the configured API root ${base}`, url);
  }
}
