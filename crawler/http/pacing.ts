/**
 * When to send the next request. Pure functions of headers, clock and randomness, so the
 * policy is tested without waiting.
 */

/** Exponential backoff with jitter for retry `attempt` (1-based): 0.5 s, 1 s, 2 s … capped at 30 s, each ±50%. */
export function backoffDelay(attempt: number, random: () => number): number {
  const ceiling = Math.min(30_000, 500 * 2 ** (attempt - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterDelay(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What the server's `X-RateLimit-*` headers said last. `reset` is seconds until one slot frees (not an epoch). */
export interface RateBudget {
  limit?: number;
  remaining?: number;
  reset?: number;
}

function headerNumber(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

export function readRateBudget(headers: Record<string, string | undefined>): RateBudget {
  const budget: RateBudget = {};
  const limit = headerNumber(headers['x-ratelimit-limit']);
  const remaining = headerNumber(headers['x-ratelimit-remaining']);
  const reset = headerNumber(headers['x-ratelimit-reset']);
  if (limit !== undefined) budget.limit = limit;
  if (remaining !== undefined) budget.remaining = remaining;
  if (reset !== undefined) budget.reset = reset;
  return budget;
}

/**
 * How long to hold the next request so the crawl never runs into a 429: once fewer than
 * `reserve` slots remain (the requests already in flight may use them), wait for the server's
 * `reset` so a slot frees first.
 */
export function budgetDelay(budget: RateBudget, reserve: number): number {
  return budgetSpent(budget, reserve) ? (budget.reset ?? 1) * 1000 : 0;
}

/** Whether no more than `reserve` slots remain: the requests already in flight may use them. */
export function budgetSpent(budget: RateBudget, reserve: number): boolean {
  return budget.remaining !== undefined && budget.remaining <= reserve;
}
