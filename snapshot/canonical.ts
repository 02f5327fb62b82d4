import { createHash } from 'node:crypto';
import { parseJson } from '../api/json.ts';

/**
 * The one byte form of every stored JSON value: keys sorted at every depth (so equal data gives
 * equal bytes whatever order the server or the crawl produced them in), 2-space indentation,
 * a trailing newline, 64-bit integers as exact JSON integers. It is what
 * `stringifyJson(value, 2)` writes for key-sorted data, built here directly because the
 * store writes every unit of every snapshot through it and lossless-json is several times slower.
 */
export function canonicalJson(value: unknown): string {
  return `${write(value, '') ?? 'null'}\n`;
}

function write(value: unknown, indent: string): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      const inner = `${indent}  `;
      if (Array.isArray(value)) {
        if (value.length === 0) return '[]';
        return `[\n${value.map((item) => inner + (write(item, inner) ?? 'null')).join(',\n')}\n${indent}]`;
      }
      const parts: string[] = [];
      for (const key of Object.keys(value).sort()) {
        const item = write((value as Record<string, unknown>)[key], inner);
        // Like JSON.stringify, a key holding undefined (or a function) has no JSON form and is left out.
        if (item !== undefined) parts.push(`${inner}${JSON.stringify(key)}: ${item}`);
      }
      return parts.length === 0 ? '{}' : `{\n${parts.join(',\n')}\n${indent}}`;
    }
    default:
      return undefined;
  }
}

/**
 * An integer token that ends its line, as every number does in canonical JSON: inside a string
 * a raw newline cannot follow, so a match is never part of a string.
 */
const lineEndingInteger = /-?\d{16,}(?=,?\n)/g;

/** An integer-like object key: JavaScript enumerates those first, out of document order. */
const integerKey = /"(?:0|[1-9]\d*)": /;

/**
 * Parses stored JSON keeping integers beyond 2^53 exact as `bigint`, like `parseJson` from
 * `api/`, but at `JSON.parse` speed for canonical text: the exact digits are read
 * from the text in document order, which is the order a walk of the parsed value meets the
 * numbers in. Text where that pairing cannot be trusted goes through the lossless parser.
 */
export function parseStoredJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  // Fewer than 16 digits in a row: no integer here is beyond 2^53.
  if (!/\d{16}/.test(text)) return value;
  if (integerKey.test(text)) return parseJson(text);
  const exact = (text.match(lineEndingInteger) ?? []).filter((token) => !Number.isSafeInteger(Number(token)));
  let next = 0;
  const restore = (item: unknown): unknown => {
    if (typeof item === 'number') {
      if (Number.isSafeInteger(item) || !Number.isInteger(item)) return item;
      const token = exact[next++];
      if (token === undefined || Number(token) !== item) throw new Unpaired();
      return BigInt(token);
    }
    if (item === null || typeof item !== 'object') return item;
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) item[i] = restore(item[i]);
    } else {
      const object = item as Record<string, unknown>;
      for (const key in object) object[key] = restore(object[key]);
    }
    return item;
  };
  try {
    const restored = restore(value);
    return next === exact.length ? restored : parseJson(text);
  } catch (error) {
    if (error instanceof Unpaired) return parseJson(text);
    throw error;
  }
}

class Unpaired extends Error {}

const isDigitAt = (bytes: Uint8Array, at: number) => {
  const code = bytes[at]!;
  return code >= 48 && code <= 57;
};

/**
 * Each run of `run` ASCII digits or more in `bytes` (start and end, the end excluded), or from
 * the first only. Any `run` bytes in a row include one at every `run`-th place, so only those
 * are looked at until one is a digit: `/\d{16}/` over the text of the change log (453 MB at 1M
 * changes, no such run) cost a build 1.5 s, and the regex below over the units' as much
 * (docs/decisions/2026-11-29-build-1m.md). UTF-8 bytes of other characters are never digits.
 */
function digitRuns(bytes: Uint8Array, run: number, firstOnly: boolean): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let at = run - 1; at < bytes.length; at += run) {
    if (!isDigitAt(bytes, at)) continue;
    let start = at;
    while (start > 0 && isDigitAt(bytes, start - 1)) start -= 1;
    let end = at + 1;
    while (end < bytes.length && isDigitAt(bytes, end)) end += 1;
    if (end - start >= run) {
      runs.push([start, end]);
      if (firstOnly) return runs;
    }
    // Past this run: any run after it still has a byte at one of the places looked at.
    at = end - 1;
  }
  return runs;
}

/** Whether `bytes` hold `run` ASCII digits in a row (`/\d{run}/` over their text). */
export function hasDigitRun(bytes: Uint8Array, run: number): boolean {
  return digitRuns(bytes, run, true).length > 0;
}

/**
 * The tokens `lineEndingInteger` finds in the text of `bytes`, in order: runs of 16 digits or
 * more that end their line (a `,` between allowed), a `-` before one included.
 */
export function lineEndingIntegers(bytes: Uint8Array): string[] {
  const tokens: string[] = [];
  for (const [start, end] of digitRuns(bytes, 16, false)) {
    if (!(bytes[end] === 10 || (bytes[end] === 44 && bytes[end + 1] === 10))) continue;
    const from = start > 0 && bytes[start - 1] === 45 ? start - 1 : start;
    tokens.push(Buffer.from(bytes.buffer, bytes.byteOffset + from, end - from).toString('latin1'));
  }
  return tokens;
}

/** Stored JSON from its UTF-8 bytes, as `parseStoredJson` parses the text: `JSON.parse` alone where no integer can need more than 2^53. */
export function parseStoredBytes(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  return hasDigitRun(bytes, 16) ? parseStoredJson(text) : JSON.parse(text);
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
