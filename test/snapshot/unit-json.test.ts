import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, parseStoredJson, parseUnitsJson } from '../../snapshot/index.ts';
import { lineEndingIntegers } from '../../snapshot/canonical.ts';

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
/** A hash as stored: beyond 2^53 as bigint, else (as the writer gets it from JSON) sometimes a plain number. */
const hash = fc.oneof(
  int64,
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 63n - 1n, -(2n ** 63n)),
);
/** Fields other servers or versions add: texts that look like numbers, nested objects, big integers now and then. */
const extra = fc.dictionary(
  fc.constantFrom('a_big', 'flags', 'zz_count', '0', 'labels', 'explanation'),
  fc.oneof(
    fc.string(),
    // Non-ASCII text: the integers are found in the UTF-8 bytes.
    fc.string({ unit: 'grapheme' }),
    fc.integer(),
    int64,
    fc.constant('12345678901234567890'),
    fc.record({ nested: int64, '1': fc.string() }),
    fc.array(int64, { maxLength: 2 }),
  ),
  { maxKeys: 2 },
);
const unit = fc.tuple(hash, hash, extra, fc.nat()).map(([content_hash, id_hash, more, id]) => ({
  ...more,
  id,
  source: ['Save <b>as</b>', '9007199254740993', 'Größe ✓ 12345678901234567890'],
  content_hash,
  id_hash,
}));

describe('parseUnitsJson (units at JSON.parse speed, issue 11)', () => {
  it('gives what parseStoredJson gives, for any list of units', () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 6 }), (units) => {
        const text = canonicalJson(units);
        expect(parseUnitsJson(Buffer.from(text))).toEqual(parseStoredJson(text));
      }),
      { numRuns: 500 },
    );
  });

  it('finds in the bytes the integer tokens the regex finds in the text', () => {
    // Digit runs around 16 long at every offset, signs, commas, newlines and multi-byte characters.
    const piece = fc.oneof(
      fc.constantFrom('é', '€', '😀', ' ', ',', '\n', ',\n', '-', '--', '"', 'x'),
      fc.integer({ min: 1, max: 40 }).map((length) => '9'.repeat(length)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        expect(lineEndingIntegers(Buffer.from(text, 'utf8'))).toEqual(text.match(/-?\d{16,}(?=,?\n)/g) ?? []);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps both hashes of every unit exact, the smallest and largest int64 included', () => {
    const units = [
      { id: 1, content_hash: -(2n ** 63n), id_hash: 2n ** 63n - 1n },
      { id: 2, content_hash: 7, id_hash: 2n ** 53n + 1n },
    ];
    expect(parseUnitsJson(Buffer.from(canonicalJson(units)))).toEqual(units);
  });

  it('keeps a big integer in another field exact too (it falls back to the full walk)', () => {
    const units = [{ id: 1, content_hash: 2n ** 60n, id_hash: 2n ** 61n + 3n, zz_big: 2n ** 60n + 1n }];
    expect(parseUnitsJson(Buffer.from(canonicalJson(units)))).toEqual(units);
  });

  it('reads something other than a list of units as parseStoredJson does', () => {
    const value = { count: 2, chunks: [{ count: 2, hash: 'ab' }], big: 2n ** 62n + 1n };
    expect(parseUnitsJson(Buffer.from(canonicalJson(value)))).toEqual(value);
  });
});
