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

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
