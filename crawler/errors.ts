/**
 * Every way a request can fail, one class each, with a stable `code` (as undici does) and the
 * policy the crawler applies (as crawlee's error classes do). Messages name the URL and say
 * what to do; they never hold the token, which only ever travels in a request header.
 */
export abstract class CrawlError extends Error {
  readonly url: string;
  /** Stable across versions, as undici's codes are: match on it, not on the message. */
  readonly code: string;
  /** Whether the same request may succeed if sent again later. */
  readonly retryable: boolean;

  constructor(message: string, url: string, code: string, retryable: boolean, options?: ErrorOptions) {
    super(message, options);
    this.url = url;
    this.code = code;
    this.retryable = retryable;
  }
}

/** A non-2xx status. 5xx, 408 and 429 are retried; other 4xx are answers, listed as problems of the snapshot. */
export class HttpStatusError extends CrawlError {
  override name = 'HttpStatusError';
  readonly status: number;

  constructor(url: string, status: number, detail: string, code = 'TMSNAP_HTTP_STATUS') {
    super(`GET ${url} answered ${status}${detail ? `: ${detail}` : ''}`, url, code, status >= 500 || status === 408 || status === 429);
    this.status = status;
  }
}

/**
 * 401 or 403: these credentials may not read this resource, and every sibling object's
 * resource of the same pattern answers the same (an anonymous client gets 403 on every `repository/`,
 * docs/crawl.md "Access limits"). The crawl stops asking for that pattern and records it once
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
  /** Milliseconds, from `Retry-After`; undefined when the server did not say. */
  readonly retryAfter: number | undefined;

  constructor(url: string, status: number, retryAfter: number | undefined, detail: string) {
    super(url, status, detail);
    this.retryAfter = retryAfter;
  }
}

/** The body is not what the endpoint promises: an HTML error page from a proxy, or broken JSON. */
export class ContentTypeError extends CrawlError {
  override name = 'ContentTypeError';
  constructor(url: string, contentType: string, status: number) {
    // What it may mean depends on where it happened: outcomes.ts adds the advice for the API root.
    super(`GET ${url} answered ${status} with ${contentType || 'no Content-Type'} instead of JSON`, url, 'TMSNAP_CONTENT_TYPE', false);
  }
}

/**
 * A bot-protection page where the API's answer should be (Weblate 2026.11's check for anonymous
 * clients, Anubis, Cloudflare: http/bot-challenge.ts). Nothing of it is data, and asking again
 * meets it again: the crawl stops at once (outcomes.ts), saying what lets it through.
 */
export class BotChallengeError extends CrawlError {
  override name = 'BotChallengeError';
  readonly status: number;
  /** Who made the page: `Anubis`, `Cloudflare`, `a proof-of-work check`. */
  readonly maker: string;

  constructor(url: string, status: number, maker: string, withKey: boolean) {
    const what = `GET ${url} answered ${status} with a bot-protection page (${maker}) instead of JSON: the server put a bot check in front of its API`;
    const remedy = withKey
      ? " even for this API key; ask the server's admin to allow this client (its User-Agent starts with tmsnap/)"
      : "; crawl with an API key in WEBLATE_TOKEN, or ask the server's admin to allow this client";
    super(`${what}${remedy}. Nothing of that page was stored.`, url, 'TMSNAP_BOT_CHALLENGE', false);
    this.status = status;
    this.maker = maker;
  }
}

/**
 * 401 to a request that carried the API key: the server refused the key itself (Weblate answers
 * a key that may not read something with 403 or 404, docs/weblate-api.md "Access"), so every
 * other request would be refused too and the crawl stops at once.
 */
export class KeyRefusedError extends CrawlError {
  override name = 'KeyRefusedError';
  constructor(url: string, detail: string) {
    super(
      `GET ${url} answered 401${detail ? ` (${detail.replace(/[.]$/, '')})` : ''}: the server refused the API key; check WEBLATE_TOKEN (tmsnap crawl --help says where the key came from), or unset it to crawl anonymously.`,
      url,
      'TMSNAP_KEY_REFUSED',
      false,
    );
  }
}

/** A connection reset, refused connection, DNS failure or a stalled response: retried. */
export class NetworkError extends CrawlError {
  override name = 'NetworkError';
  constructor(url: string, cause: unknown) {
    super(`GET ${url} failed: ${cause instanceof Error ? cause.message : String(cause)}`, url, 'TMSNAP_NETWORK', true, { cause });
  }
}

/**
 * The connection was refused before the server ever answered in this run: nothing listens
 * there, so retrying only delays saying so (issue 28: 14 s of retries). Once the server has
 * answered, a refusal is a restart or a hiccup and stays a retried NetworkError.
 */
export class ConnectionRefusedError extends CrawlError {
  override name = 'ConnectionRefusedError';
  constructor(url: string, address: string, cause: unknown) {
    super(
      `GET ${url} failed: nothing is listening at ${address} (connection refused); is the server running, and is --url right?`,
      url,
      'TMSNAP_CONNECTION_REFUSED',
      false,
      {
        cause,
      },
    );
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

/** The run made the requests `--max-requests` allows: the crawl stops, resumable (the next run has a budget of its own). */
export class RequestCapError extends CrawlError {
  override name = 'RequestCapError';
  readonly maxRequests: number;

  constructor(url: string, maxRequests: number) {
    super(`GET ${url} not sent: this run made the ${maxRequests} requests --max-requests allows`, url, 'TMSNAP_REQUEST_CAP', false);
    this.maxRequests = maxRequests;
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

/**
 * Why a crawl stops before its snapshot is finished, one stable code each. Every stop leaves
 * the snapshot `.partial`, resumable with the same command (docs/crawl.md, "Resume").
 */
export const stopCodes = {
  /** Ctrl-C: the run's signal was aborted. */
  interrupted: 'TMSNAP_STOP_INTERRUPTED',
  /** `--max-duration` ran out. */
  deadline: 'TMSNAP_STOP_DEADLINE',
  /** `--max-requests` were made: the run's own budget. */
  requests: 'TMSNAP_STOP_REQUESTS',
  /** The server's rate budget cannot cover what is left, and it refills later than `--max-wait`. */
  budget: 'TMSNAP_STOP_BUDGET',
  /**
   * An answer every other request would meet too: a bot check, the key refused, nothing
   * listening, the API root unreadable or not one, a wait longer than `--max-wait`. The
   * request's error is the `cause` when there is one.
   */
  answer: 'TMSNAP_STOP_ANSWER',
  /** Requests failed with their retries used up: left pending for the next run. */
  failures: 'TMSNAP_STOP_FAILURES',
  /** A project asked for (`--project`) is not on the server, or not readable with these credentials. */
  noProject: 'TMSNAP_STOP_NO_PROJECT',
} as const;
export type StopCode = (typeof stopCodes)[keyof typeof stopCodes];

/**
 * The crawl stops (crawlee's `CriticalError`): nothing new starts, the requests in flight
 * finish, and the message is the one line the crawl ends with. Thrown by a task, it stops the
 * run like any other stop; the first stop of a run is the one reported.
 */
export class CrawlStoppedError extends Error {
  override name = 'CrawlStoppedError';
  /** Stable across versions: match on it, not on the message. */
  readonly code: StopCode;

  constructor(code: StopCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
