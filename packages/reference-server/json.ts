import { randomBytes } from 'node:crypto';

/**
 * JSON for API answers, with `bigint` (id_hash, content_hash) written as exact integers.
 * Same output as `stringifyJson` from `api/json.ts`, about seven times faster on
 * a page of units (bench/reference-server.ts): native `JSON.stringify` writes each bigint as
 * a string holding a per-process random marker, then the quoted markers become bare digits.
 * A server string cannot forge the marker: it is 128 random bits, never sent anywhere.
 */
const marker = `bigint-${randomBytes(16).toString('hex')}:`;
const quotedMarker = new RegExp(`"${marker}(-?\\d+(?:\\.0)?)"`, 'g');

/** A `…_percent` field: Weblate computes them as floats, so Python writes `100.0` and `0.0`. */
const isPercent = (key: string): boolean => key.endsWith('_percent');

/**
 * `floatPercents` writes whole-number percentages as `100.0`, as a real server does (README.md,
 * "Profiles"); without it they are written `100`, which parses to the same number.
 */
export function apiJson(value: unknown, indent?: number, floatPercents = false): string {
  const text = JSON.stringify(
    value,
    (key, item: unknown) => {
      if (typeof item === 'bigint') return `${marker}${item}`;
      if (floatPercents && typeof item === 'number' && Number.isInteger(item) && isPercent(key)) return `${marker}${item}.0`;
      return item;
    },
    indent,
  );
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text.replace(quotedMarker, '$1');
}
