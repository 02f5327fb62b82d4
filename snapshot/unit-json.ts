/**
 * Stored units parsed at `JSON.parse` speed. `parseStoredJson` keeps every integer beyond 2^53
 * exact by walking the whole parsed value; in a list of units only `content_hash` and `id_hash`
 * hold such integers, so those two fields are set from the text's digits and nothing else is
 * walked. Reading units is most of what the site build and the search index read from a
 * snapshot, and the walk cost as much as `JSON.parse` itself (docs/snapshot-format.md,
 * "Reading"). Pure.
 */
import { hasDigitRun, lineEndingIntegers, parseStoredJson } from './canonical.ts';

/** The 64-bit fields of a unit, in the order canonical JSON writes them (keys sorted). */
const hashFields = ['content_hash', 'id_hash'] as const;

const beyondSafe = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);

/**
 * A JSON array of units (a unit chunk, or format 1's whole unit list; its UTF-8 bytes) as
 * `parseStoredJson` gives it. The exact digits are paired in document order with the hash
 * fields that need them; when any other number needs them too (the counts differ) or a pair
 * does not match, the text goes through `parseStoredJson` instead.
 */
export function parseUnitsJson(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  const value: unknown = JSON.parse(text);
  // The integers are looked for in the bytes, not the text: digits, commas and newlines are
  // ASCII, and no byte of a multi-byte UTF-8 character is one of them, so the bytes hold the
  // same tokens; looking at every 16th byte for a digit is faster than a regex over a one-byte
  // view of them (docs/decisions/2026-11-23-format-4-read-speed.md, "Eighth session";
  // docs/decisions/2026-11-29-build-1m.md).
  // Fewer than 16 digits in a row: no integer here is beyond 2^53.
  if (!hasDigitRun(bytes, 16)) return value;
  if (!Array.isArray(value)) return parseStoredJson(text);
  const exact = lineEndingIntegers(bytes).filter((token) => !Number.isSafeInteger(Number(token)));
  let next = 0;
  for (const unit of value as unknown[]) {
    if (unit === null || typeof unit !== 'object') continue;
    const fields = unit as Record<string, unknown>;
    for (const field of hashFields) {
      const parsed = fields[field];
      if (!beyondSafe(parsed)) continue;
      const token = exact[next++];
      if (token === undefined || Number(token) !== parsed) return parseStoredJson(text);
      fields[field] = BigInt(token);
    }
  }
  return next === exact.length ? value : parseStoredJson(text);
}
