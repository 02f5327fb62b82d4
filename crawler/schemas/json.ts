import { isInteger, isSafeNumber, parse, stringify } from 'lossless-json';

/**
 * JSON that keeps 64-bit integers exact. Weblate sends `id_hash` and `content_hash` as
 * JSON numbers up to ±2^63, past what a JS number holds (2^53), so every JSON the server
 * sends or the snapshot stores goes through here: integers beyond the safe range become
 * `bigint`, everything else is what `JSON.parse` gives.
 */
export function parseJson(text: string): unknown {
  return parse(text, null, parseNumber);
}

// lossless-json's own parseNumberAndBigInt turns every integer into a bigint, which no
// `z.number()` accepts: only the ones a JS number would round go to bigint.
function parseNumber(text: string): number | bigint {
  return isInteger(text) && !isSafeNumber(text) ? BigInt(text) : Number(text);
}

/** Serializes like `JSON.stringify`, writing `bigint` values as plain JSON integers. */
export function stringifyJson(value: unknown, indent?: number): string {
  const text = stringify(value, null, indent);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}
