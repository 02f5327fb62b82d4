import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../api/json.ts';
import { apiJson } from '../../packages/reference-server/json.ts';

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.constantFrom('bigint-:1', '"bigint-00:5"', '\\"x\\"'),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    int64,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 4 }),
  ),
})).node;

describe('apiJson', () => {
  it('writes exactly what stringifyJson writes, bigints as bare integers', () => {
    fc.assert(
      fc.property(value, (item) => {
        expect(apiJson(item)).toBe(stringifyJson(item));
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips 64-bit hashes through the lossless parser', () => {
    const record = { id_hash: -(2n ** 63n), content_hash: 2n ** 63n - 1n, source: ['"bigint-:9"'] };
    expect(parseJson(apiJson(record))).toEqual(record);
  });
});
