/**
 * The unit spool's lines, written and read at native JSON speed. A line is what `stringifyJson`
 * writes for the unit; `stringifyJson` and `parseJson` call back for every value to find
 * bigints, and a unit's only bigints are its two hashes (page-json.ts), so those are set
 * aside and everything else goes through `JSON.stringify` and `JSON.parse` as it is. At 1M the
 * spool's round trip was a fifth of the crawler's CPU (docs/crawl.md, "Measured"). Pure.
 */
import { stringifyJson } from '../../api/json.ts';
import { parsePageJson } from '../http/page-json.ts';

/** As in `api/json.ts`: U+FDD0 is a noncharacter; a unit holding it anyhow is written by `stringifyJson`. */
const bigIntMark = '\ufdd0';
const markedInteger = /"\ufdd0(-?\d+)"/g;

/** The unit as one line of JSON, the same text `stringifyJson(unit)` gives. */
export function unitLine(unit: unknown): string {
  if (unit === null || typeof unit !== 'object' || Array.isArray(unit)) return stringifyJson(unit);
  const fields = unit as Record<string, unknown>;
  const content = fields.content_hash;
  const id = fields.id_hash;
  const marks = (typeof content === 'bigint' ? 1 : 0) + (typeof id === 'bigint' ? 1 : 0);
  // The spread keeps the fields' order; a field set again stays where it was.
  const marked = marks === 0 ? fields : { ...fields, ...hashMark('content_hash', content), ...hashMark('id_hash', id) };
  let text: string;
  try {
    text = JSON.stringify(marked);
  } catch {
    // A bigint elsewhere: JSON.stringify cannot write it.
    return stringifyJson(unit);
  }
  // A string holding the mark would be taken for a marked integer.
  if (countMarks(text) !== marks) return stringifyJson(unit);
  return marks === 0 ? text : text.replace(markedInteger, '$1');
}

function hashMark(field: 'content_hash' | 'id_hash', value: unknown): Record<string, string> {
  return typeof value === 'bigint' ? { [field]: `${bigIntMark}${value}` } : {};
}

function countMarks(text: string): number {
  let count = 0;
  for (let at = text.indexOf(bigIntMark); at !== -1; at = text.indexOf(bigIntMark, at + 1)) count++;
  return count;
}

/**
 * The units of a spool file's lines, each as `parseJson` parses its line; a line that does not
 * parse (the torn end of a batch a kill interrupted) is left out. The lines are parsed as one
 * array when they all parse; a torn line spoils that, and then each is parsed on its own.
 */
export function parseUnitLines(text: string): unknown[] {
  const lines = text.split('\n').filter((line) => line !== '');
  try {
    const all = parsePageJson(`[${lines.join(',')}]`);
    // A torn line merged into the next one would leave fewer items than lines.
    if (Array.isArray(all) && all.length === lines.length) return all;
  } catch {
    // A torn line: parsed one by one below.
  }
  const units: unknown[] = [];
  for (const line of lines) {
    try {
      units.push(parsePageJson(line));
    } catch {
      // The page it came from was fetched again.
    }
  }
  return units;
}
