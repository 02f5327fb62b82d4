import { z } from 'zod';

/** An absolute URL as the server writes it (link fields are followed only on its origin). */
export const url = z.string();

/** ISO 8601 UTC timestamp, e.g. `2024-05-01T12:00:00.123456Z`. */
export const timestamp = z.string();

/**
 * A signed 64-bit integer that must never pass through a JS number: the lossless parser
 * (`./json.ts`) gives `bigint` beyond 2^53 and `number` below; both come out as `bigint`.
 */
export const int64 = z
  .union([z.bigint(), z.number().int()])
  .transform((value) => BigInt(value))
  .refine((value) => value >= -(2n ** 63n) && value < 2n ** 63n, 'outside the signed 64-bit range');

/**
 * The `{count, next, previous, results}` wrapper of every paginated list. `count` is absent
 * under cursor pagination (announced for the whole API, WeblateOrg/weblate#21696: counting is
 * what it saves), so a list is read by following `next` (docs/weblate-api.md, Pagination).
 */
export function page<T extends z.ZodType>(record: T) {
  return z.looseObject({
    count: z.number().int().nonnegative().optional(),
    next: url.nullable(),
    previous: url.nullable(),
    results: z.array(record),
  });
}
