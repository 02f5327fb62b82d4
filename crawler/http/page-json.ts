/**
 * A server's JSON parsed at `JSON.parse` speed, with the same value `parseJson` gives. In
 * Weblate's answers only a unit's `content_hash` and `id_hash` hold integers beyond 2^53
 * (docs/weblate-api.md), so those two fields of each unit are set from the text's digits and
 * nothing else is walked or marked. `parseJson` marked every number and string of a page to
 * find them, which made it the crawler's largest cost at 1M (docs/crawl.md, "Measured"). Any
 * other big integer, or any doubt, sends the text to `parseJson`. Pure.
 */
import { parseJson } from '../../api/json.ts';

/** A run of 16 digits or more; `exactTokens` keeps the runs that are whole number tokens. */
const longDigits = /-?\d{16,}/g;

/** JSON's whitespace: space, tab, line feed, carriage return. */
const isSpace = (code: number): boolean => code === 32 || code === 9 || code === 10 || code === 13;

/** Whether a token ending at `end` is followed by what ends a value: `,`, `}`, `]` or the end of the text. */
function endsValue(text: string, end: number): boolean {
  let at = end;
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  const code = text.charCodeAt(at);
  return at === text.length || code === 44 || code === 125 || code === 93;
}

/** Whether a token starting at `start` follows what starts a value: `:`, `,`, `[` or the start of the text. */
function startsValue(text: string, start: number): boolean {
  let at = start - 1;
  while (at >= 0 && isSpace(text.charCodeAt(at))) at--;
  const code = text.charCodeAt(at);
  return at < 0 || code === 58 || code === 44 || code === 91;
}

/**
 * The integer tokens beyond 2^53, in document order. Every JSON number follows `:`, `,` or `[`
 * and ends before `,`, `}` or `]` (whitespace aside), so none is missed; digits inside a string
 * can pass for one (`"a,12345678901234567]"`), and then only make the counts below differ.
 * A plain scan and these checks take a third of the time of one regex with lookarounds.
 */
function exactTokens(text: string): string[] {
  const tokens: string[] = [];
  longDigits.lastIndex = 0;
  for (let match = longDigits.exec(text); match !== null; match = longDigits.exec(text)) {
    const token = match[0];
    if (!Number.isSafeInteger(Number(token)) && startsValue(text, match.index) && endsValue(text, match.index + token.length)) tokens.push(token);
  }
  return tokens;
}

/** `api/json.ts` marks big integers with U+FDD0; a text holding it is parsed there, as it is. */
const bigIntMark = /\ufdd0|\\u[fF][dD][dD]0/;

const beyondSafe = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A page of units (`{results: [...]}`), a list, a single unit, or any other JSON, as
 * `parseJson` parses it. The exact tokens are paired in document order with the hash fields
 * that need them; if any token is left over (another field's big integer, or digits in a
 * string) or a pair does not match, the whole text goes through `parseJson`.
 */
export function parsePageJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  // Fewer than 16 digits in a row: no integer here is beyond 2^53.
  if (!/\d{16}/.test(text)) return value;
  if (bigIntMark.test(text)) return parseJson(text);
  const exact = exactTokens(text);
  if (exact.length === 0) return value;
  const items = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.results) ? (value.results as unknown[]) : [value];
  let next = 0;
  for (const item of items) {
    if (!isObject(item)) continue;
    const content = item.content_hash;
    const id = item.id_hash;
    const contentBig = beyondSafe(content);
    const idBig = beyondSafe(id);
    if (contentBig && idBig) {
      const [first, second] = [exact[next++], exact[next++]];
      if (first === undefined || second === undefined) return parseJson(text);
      // Either field may come first in the server's order; the values tell which, unless both
      // round to the same number from different digits.
      const inOrder = Number(first) === content && Number(second) === id;
      const swapped = Number(first) === id && Number(second) === content;
      if (inOrder === swapped && (!inOrder || first !== second)) return parseJson(text);
      item.content_hash = BigInt(inOrder ? first : second);
      item.id_hash = BigInt(inOrder ? second : first);
    } else if (contentBig || idBig) {
      const token = exact[next++];
      if (token === undefined || Number(token) !== (contentBig ? content : id)) return parseJson(text);
      item[contentBig ? 'content_hash' : 'id_hash'] = BigInt(token);
    }
  }
  return next === exact.length ? value : parseJson(text);
}
