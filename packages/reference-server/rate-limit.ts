/** Requests allowed per sliding window, separately for anonymous clients and tokens. */
export interface RateLimit {
  anonymous: number;
  authenticated: number;
  /** The window of token clients, and of anonymous ones unless `anonymousWindowSeconds` is set. */
  windowSeconds: number;
  anonymousWindowSeconds?: number;
}

/**
 * Weblate's defaults: 100 a day anonymous, 5000 an hour with a token (README.md, "Profiles";
 * docs/weblate-api.md). A day's window makes `Retry-After` up to 86400 for anonymous clients.
 */
export const weblateRateLimit: RateLimit = { anonymous: 100, anonymousWindowSeconds: 86_400, authenticated: 5000, windowSeconds: 3600 };

/** Limits no test run reaches: tests that need speed raise the limits rather than turn throttling off. */
export const raisedRateLimit: RateLimit = { anonymous: 1_000_000, authenticated: 1_000_000, windowSeconds: 3600 };

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until one slot frees: what `X-RateLimit-Reset` and `Retry-After` carry. */
  resetSeconds: number;
}

/** A sliding-window counter per client key; `now` is injectable so tests need no waiting. */
export class SlidingWindowLimiter {
  readonly #hits = new Map<string, number[]>();

  readonly limit: RateLimit;
  readonly now: () => number;

  constructor(limit: RateLimit, now: () => number = Date.now) {
    this.limit = limit;
    this.now = now;
  }

  hit(key: string, authenticated: boolean): RateDecision {
    const limit = authenticated ? this.limit.authenticated : this.limit.anonymous;
    const windowSeconds = authenticated ? this.limit.windowSeconds : (this.limit.anonymousWindowSeconds ?? this.limit.windowSeconds);
    const windowMs = windowSeconds * 1000;
    const now = this.now();
    const hits = (this.#hits.get(key) ?? []).filter((time) => time > now - windowMs);
    const allowed = hits.length < limit;
    if (allowed) hits.push(now);
    this.#hits.set(key, hits);
    const oldest = hits[0];
    const resetSeconds = oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
    return { allowed, limit, remaining: Math.max(0, limit - hits.length), resetSeconds };
  }
}
