import fc from 'fast-check';
import { isInteger, isSafeNumber, parse, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../api/json.ts';

// The slow, obviously right reference: lossless-json's own parser.
const reference = (text: string) => parse(text, null, (n) => (isInteger(n) && !isSafeNumber(n) ? BigInt(n) : Number(n)));

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const value = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'binary' }),
    fc.constantFrom('12345678901234567890', 'id:9223372036854775807,', '"-9223372036854775808"', '\ufdd0', '\ufdd012345678901234567890', 'x\\uFDD0'),
    int64,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('json'), { maxKeys: 4 }),
  ),
})).json;

describe('parseJson', () => {
  it('parses exactly like the lossless parser, 64-bit integers beyond 2^53 as bigint', () => {
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 2), (input, indent) => {
        const text = stringifyJson(input, indent);
        expect(parseJson(text)).toEqual(reference(text));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps small integers as numbers and leaves digits inside strings alone', () => {
    expect(parseJson('{"id": 3, "id_hash": -9223372036854775808, "s": "x 9223372036854775807 \\" 18446744073709551615"}')).toEqual({
      id: 3,
      id_hash: -9223372036854775808n,
      s: 'x 9223372036854775807 " 18446744073709551615',
    });
  });
});

describe('stringifyJson', () => {
  it('writes exactly what lossless-json writes, bigint as plain integers', () => {
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 2), (input, indent) => {
        expect(stringifyJson(input, indent)).toBe(stringify(input, null, indent));
      }),
      { numRuns: 500 },
    );
    expect(stringifyJson({ id_hash: -9223372036854775808n, s: '\ufdd012' })).toBe('{"id_hash":-9223372036854775808,"s":"\ufdd012"}');
  });
});
