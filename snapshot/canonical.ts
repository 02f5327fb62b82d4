import { createHash } from 'node:crypto';
import { stringifyJson } from '../crawler/schemas/index.ts';

/**
 * Equal data must give equal bytes whatever order the server (or the crawl) produced the keys
 * in, so object keys are sorted at every depth before writing. Arrays keep their order: it is data.
 */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    // A key holding `undefined` has no JSON form; dropping it here keeps the bytes independent of it.
    if (item !== undefined) sorted[key] = sortKeys(item);
  }
  return sorted;
}

/** Pretty, key-sorted JSON with a trailing newline: the one byte form of every stored JSON object. */
export function canonicalJson(value: unknown): string {
  return `${stringifyJson(sortKeys(value), 2)}\n`;
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
