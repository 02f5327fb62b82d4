import pLimit, { type LimitFunction } from 'p-limit';
import { EnvHttpProxyAgent, request } from 'undici';
import { parseJson } from '../../api/json.ts';
import {
  BotChallengeError,
  ConnectionRefusedError,
  ContentTypeError,
  CrawlError,
  httpStatusError,
  KeyRefusedError,
  NetworkError,
  OffOriginError,
  RateLimitError,
  RequestCapError,
  RetriesExhaustedError,
  ThrottledError,
} from '../errors.ts';
import { resolveLink } from '../links.ts';
import { botChallenge } from './bot-challenge.ts';
import { type RateBudget, backoffDelay, budgetDelay, readRateBudget, retryAfterDelay } from './pacing.ts';
import { parsePageJson } from './page-json.ts';

export interface HttpClientOptions {
  apiRoot: URL;
  /** Sent as `Authorization: Token …`; read from WEBLATE_TOKEN by the CLI, never from a flag. */
  token?: string | undefined;
  userAgent: string;
  /** Requests in flight at once. */
  concurrency: number;
  /** Requests started per second at most; undefined: no cap beyond the server's budget. */
  maxRps?: number | undefined;
  /** A request whose headers or body stall this long is abandoned and retried. */
  timeoutMs: number;
  /** Retries of a 5xx, a timeout or a network error before the request fails. */
  retries: number;
  /** The longest `Retry-After` the crawl sits through; a longer one stops it (resumable). */
  maxWaitMs: number;
  /** Epoch milliseconds (`--max-duration`): a wait that would end after it stops the run instead. */
  deadline?: number | undefined;
  /** Requests this client may send, retries included (`--max-requests`); one more throws `RequestCapError`. */
  maxRequests?: number | undefined;
  random?: () => number;
  /** The clock and the wait, injectable so the pacing policy is tested without waiting. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Told about every wait, so progress can say why the crawl is idle. */
  onWait?: (ms: number, reason: string) => void;
  /** Told about every request sent, retries included (the crawl counts them per task). */
  onRequest?: () => void;
  /** How a JSON answer is parsed: `parsePageJson`, unless a test compares with the lossless `parseJson`. */
  parse?: ((text: string) => unknown) | undefined;
}

export interface Fetched<T> {
  body: T;
  contentType: string;
  /** Requests this fetch cost, retries included. */
  requests: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** 429 and 503 with `Retry-After` wait without using up a retry, as long as the waits stay under this. */
const maxThrottledWaits = 50;

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The `Authorization` header for a key: always the `Token` scheme, which every Weblate accepts;
 * since 2026.10 any other scheme answers 401 (docs/weblate-api.md, Access). A key pasted with
 * its scheme (`Bearer wlu_…`, `Token wlu_…`) is sent as the key alone.
 */
export function authorization(key: string): string {
  return `Token ${key.trim().replace(/^(?:token|bearer)\s+/i, '')}`;
}

/** `host:port` a refused connection was aimed at, or undefined when the error is no refusal. */
function refusedAddress(error: unknown): string | undefined {
  const refusal = error as { code?: unknown; address?: unknown; port?: unknown; errors?: unknown[] } | null;
  if (refusal?.code !== 'ECONNREFUSED') return undefined;
  // Node tries every address of a name in turn and then reports them together.
  const first = (Array.isArray(refusal.errors) ? refusal.errors[0] : refusal) as { address?: unknown; port?: unknown };
  const address = typeof first.address === 'string' ? first.address : undefined;
  if (address === undefined) return "the server's address";
  return `${address.includes(':') ? `[${address}]` : address}${first.port === undefined ? '' : `:${String(first.port)}`}`;
}

function isJson(contentType: string): boolean {
  return /^application\/([\w.-]+\+)?json\b/i.test(contentType);
}

/** The server's reason from an error body (`{"detail"}` before Weblate 5.10, `{"errors":[{detail}]}` since). */
function errorDetail(text: string, contentType: string): string {
  if (!isJson(contentType)) return contentType.startsWith('text/html') ? 'an HTML error page' : '';
  try {
    const body = parseJson(text) as { detail?: unknown; errors?: { detail?: unknown }[] };
    const detail = body.detail ?? body.errors?.[0]?.detail;
    return typeof detail === 'string' ? detail.slice(0, 200) : '';
  } catch {
    return '';
  }
}

/**
 * GET requests to one Weblate API: polite (concurrency, max-rps, the server's rate budget,
 * `Retry-After`), persistent (retries with backoff) and strict (only URLs under the API root,
 * content type checked before parsing).
 */
export class HttpClient {
  /** Every request sent, retries included. */
  requests = 0;
  budget: RateBudget = {};
  readonly #options: HttpClientOptions;
  readonly #agent: EnvHttpProxyAgent;
  readonly #limit: LimitFunction;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #now: () => number;
  #nextStart = 0;
  #pausedUntil = 0;
  /** The server answered a request of this run: a refused connection is then a hiccup, retried. */
  #answered = false;

  constructor(options: HttpClientOptions) {
    this.#options = options;
    // HTTPS_PROXY, HTTP_PROXY and NO_PROXY are honoured as curl and wlc do; without them this
    // is a plain Agent (docs/publishing.md, "Settings from the environment").
    this.#agent = new EnvHttpProxyAgent({ connections: options.concurrency, keepAliveTimeout: 10_000 });
    this.#limit = pLimit(options.concurrency);
    this.#sleep = options.sleep ?? defaultSleep;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
  }

  /** Answers fetched before the crawl began (crawler/first-answers.ts), each handed once to the first to ask. */
  readonly #kept = new Map<string, Fetched<unknown>>();

  /** Keeps `fetched` for the next `getJson(url)`, which then sends no request. */
  keep(url: string, fetched: Fetched<unknown>): void {
    this.#kept.set(url, fetched);
  }

  /** A JSON resource, parsed losslessly (64-bit integers stay exact; page-json.ts). */
  getJson(url: string): Promise<Fetched<unknown>> {
    const kept = this.#kept.get(url);
    if (kept !== undefined) {
      this.#kept.delete(url);
      // Counted already; told again so that the task taking it counts its requests as its own.
      for (let request = 0; request < kept.requests; request++) this.#options.onRequest?.();
      return Promise.resolve(kept);
    }
    return this.#get(url, 'application/json', (text, contentType, status) => {
      if (!isJson(contentType)) throw new ContentTypeError(url, contentType, status);
      try {
        return (this.#options.parse ?? parsePageJson)(text.toString('utf8'));
      } catch (error) {
        // A body cut short by a dropped connection parses badly; sending again fixes it.
        throw new NetworkError(url, new Error(`the body is not valid JSON (${(error as Error).message})`));
      }
    });
  }

  /** A raw file (translation `file/`), bytes as stored on the server. */
  getBytes(url: string): Promise<Fetched<Buffer>> {
    return this.#get(url, '*/*', (bytes) => bytes);
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  #get<T>(url: string, accept: string, decode: (bytes: Buffer, contentType: string, status: number) => T): Promise<Fetched<T>> {
    if (resolveLink(url, this.#options.apiRoot) === undefined) {
      return Promise.reject(new OffOriginError(url, this.#options.apiRoot.href));
    }
    return this.#limit(async () => {
      let attempt = 0;
      let throttled = 0;
      let requests = 0;
      for (;;) {
        await this.#pace(url);
        // No await between the check and the count: requests in flight cannot overshoot the cap.
        if (this.#options.maxRequests !== undefined && this.requests >= this.#options.maxRequests) throw new RequestCapError(url, this.#options.maxRequests);
        requests++;
        this.requests++;
        this.#options.onRequest?.();
        try {
          const { bytes, contentType, status } = await this.#send(url, accept);
          return { body: decode(bytes, contentType, status), contentType, requests };
        } catch (error) {
          if (!(error instanceof CrawlError)) throw error;
          const refused = error instanceof NetworkError && !this.#answered ? refusedAddress(error.cause) : undefined;
          if (refused !== undefined) throw new ConnectionRefusedError(url, refused, error.cause);
          const wait = this.#throttleWait(error);
          if (wait !== undefined && throttled < maxThrottledWaits) {
            throttled++;
            const tooLong = this.#tooLong(wait);
            if (tooLong !== undefined)
              throw new RateLimitError(url, Math.ceil(wait / 1000), `the server asks to wait ${Math.ceil(wait / 1000)} s (Retry-After), ${tooLong}`);
            this.#pauseAll(wait, 'Retry-After');
            continue;
          }
          if (!error.retryable) throw error;
          attempt++;
          if (attempt > this.#options.retries) throw new RetriesExhaustedError(url, attempt, error);
          const delay = backoffDelay(attempt, this.#random);
          this.#options.onWait?.(delay, `retry ${attempt} after: ${error.message}`);
          await this.#sleep(delay);
        }
      }
    });
  }

  /** The wait a 429/503 asks for; the server's `Retry-After` beats its X-RateLimit headers, which have been wrong. */
  #throttleWait(error: CrawlError): number | undefined {
    if (!(error instanceof ThrottledError)) return undefined;
    if (error.retryAfter !== undefined) return error.retryAfter;
    // A 503 without Retry-After is an outage, not throttling: backed off like any 5xx.
    return error.status === 429 && this.budget.reset !== undefined ? this.budget.reset * 1000 : undefined;
  }

  /** Why a wait of `ms` is not sat through: longer than --max-wait, or ending past --max-duration. */
  #tooLong(ms: number): string | undefined {
    if (ms > this.#options.maxWaitMs) return `longer than --max-wait ${Math.round(this.#options.maxWaitMs / 1000)} s`;
    if (this.#options.deadline !== undefined && this.#now() + ms > this.#options.deadline) return 'ending after the time allowed (--max-duration)';
    return undefined;
  }

  /** Every request waits out a pause the server asked for, not just the one that was told. */
  #pauseAll(ms: number, reason: string): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + ms);
    this.#options.onWait?.(ms, reason);
  }

  async #pace(url: string): Promise<void> {
    const budgetWait = budgetDelay(this.budget, this.#options.concurrency);
    // A window that refills tomorrow is a stop (resumed by the next run), not a day's sleep.
    const tooLong = budgetWait > 0 ? this.#tooLong(budgetWait) : undefined;
    if (tooLong !== undefined) {
      const seconds = Math.ceil(budgetWait / 1000);
      throw new RateLimitError(url, seconds, `the server's rate budget is spent and the next slot frees in ${seconds} s, ${tooLong}`);
    }
    if (budgetWait > 0) this.#pauseAll(budgetWait, 'rate budget nearly used');
    const now = this.#now();
    let start = Math.max(now, this.#pausedUntil);
    if (this.#options.maxRps !== undefined) {
      start = Math.max(start, this.#nextStart);
      this.#nextStart = start + 1000 / this.#options.maxRps;
    }
    if (start > now) await this.#sleep(start - now);
  }

  async #send(url: string, accept: string): Promise<{ bytes: Buffer; contentType: string; status: number }> {
    const headers: Record<string, string> = {
      accept,
      'accept-language': 'en',
      'user-agent': this.#options.userAgent,
    };
    if (this.#options.token) headers.authorization = authorization(this.#options.token);
    let response: Awaited<ReturnType<typeof request>>;
    let bytes: Buffer;
    try {
      response = await request(url, {
        method: 'GET',
        headers,
        dispatcher: this.#agent,
        headersTimeout: this.#options.timeoutMs,
        bodyTimeout: this.#options.timeoutMs,
      });
      bytes = Buffer.from(await response.body.arrayBuffer());
    } catch (error) {
      throw new NetworkError(url, error);
    }
    this.#answered = true;
    const responseHeaders: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(response.headers)) responseHeaders[name] = firstHeader(value);
    const budget = readRateBudget(responseHeaders);
    if (budget.remaining !== undefined) this.budget = budget;
    const contentType = responseHeaders['content-type'] ?? '';
    const status = response.statusCode;
    // A server may echo the Authorization header in an error; the message must not carry it on.
    const detail = () => {
      const text = errorDetail(bytes.toString('utf8'), contentType);
      return this.#options.token ? text.replaceAll(this.#options.token, '[WEBLATE_TOKEN]') : text;
    };
    // Before throttling: a challenge page may come with 429 or 503, and waiting does not lift it.
    const maker = botChallenge({ status, contentType, headers: responseHeaders, body: bytes.toString('utf8') }, accept === 'application/json');
    if (maker !== undefined) throw new BotChallengeError(url, status, maker, Boolean(this.#options.token));
    if (status === 401 && this.#options.token) throw new KeyRefusedError(url, detail());
    if (status === 429 || status === 503) {
      throw new ThrottledError(url, status, retryAfterDelay(responseHeaders['retry-after'], this.#now()), detail());
    }
    if (status < 200 || status >= 300) throw httpStatusError(url, status, detail());
    return { bytes, contentType, status };
  }
}
