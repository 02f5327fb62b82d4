import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../api/index.ts';
import { canonicalJson, parseStoredJson } from '../../snapshot/index.ts';
import { hasDigitRun, parseStoredBytes } from '../../snapshot/canonical.ts';

/** JSON values with 64-bit integers (as bigint beyond 2^53, like the lossless parser gives) and hostile keys. */
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'json' },
    fc.string(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => (Number.isSafeInteger(Number(n)) ? Number(n) : n)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4, depthIdentifier: 'json' }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', '10', '2', 'id_hash')), tie('value'), { maxKeys: 4, depthIdentifier: 'json' }),
  ),
})).value;

function sortedKeys(item: unknown): unknown {
  if (Array.isArray(item)) return item.map(sortedKeys);
  if (item === null || typeof item !== 'object') return item;
  return Object.fromEntries(
    Object.keys(item)
      .sort()
      .map((key) => [key, sortedKeys((item as Record<string, unknown>)[key])]),
  );
}

describe('canonical JSON', () => {
  it('writes what the lossless serializer writes, keys sorted', () => {
    fc.assert(
      fc.property(value, (item) => {
        const text = canonicalJson(item);
        // JavaScript objects enumerate integer-like keys first, so only without them can the lossless serializer show the order.
        if (!/"(?:0|[1-9]\d*)":/.test(text)) expect(text).toBe(`${stringifyJson(sortedKeys(item), 2)}\n`);
        expect(canonicalJson(parseJson(text))).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it('sorts keys as strings, integer-like ones included', () => {
    expect(canonicalJson({ 2: 'b', 10: 'a', b: 1, a: { z: 1, y: 2 } })).toBe(
      '{\n  "10": "a",\n  "2": "b",\n  "a": {\n    "y": 2,\n    "z": 1\n  },\n  "b": 1\n}\n',
    );
  });

  it('reads back exactly what the lossless parser reads, canonical text or not', () => {
    fc.assert(
      fc.property(value, fc.boolean(), (item, canonical) => {
        const text = canonical ? canonicalJson(item) : stringifyJson(item);
        expect(canonicalJson(parseStoredJson(text))).toBe(canonicalJson(parseJson(text)));
      }),
      { numRuns: 1000 },
    );
  });

  it('reads stored bytes as the text would be read, digit runs found wherever they fall', () => {
    // Digit runs of every length around 16, at every offset, among multi-byte characters.
    const text = fc.array(
      fc.oneof(
        fc.constantFrom('é', '€', ' ', ',', '\n', '"'),
        fc.integer({ min: 0, max: 20 }).map((length) => '7'.repeat(length)),
      ),
      {
        maxLength: 40,
      },
    );
    fc.assert(
      fc.property(text, (parts) => {
        const bytes = Buffer.from(parts.join(''), 'utf8');
        expect(hasDigitRun(bytes, 16)).toBe(/\d{16}/.test(parts.join('')));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(value, (item) => {
        const bytes = Buffer.from(canonicalJson(item), 'utf8');
        expect(canonicalJson(parseStoredBytes(bytes))).toBe(canonicalJson(parseStoredJson(bytes.toString('utf8'))));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps hashes beyond 2^53 exact even when a string holds lookalike digits', () => {
    const text = canonicalJson({ a: 'x 9223372036854775806,', id_hash: 9_223_372_036_854_775_807n, list: [-9_007_199_254_740_993n, 12.5] });
    expect(parseStoredJson(text)).toEqual({ a: 'x 9223372036854775806,', id_hash: 9_223_372_036_854_775_807n, list: [-9_007_199_254_740_993n, 12.5] });
  });
});
