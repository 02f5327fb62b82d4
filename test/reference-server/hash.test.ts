import { describe, expect, it } from 'vitest';
import { PLURAL_SEPARATOR, calculateHash, checksumOf, sipHash24, unitHash } from '../../packages/reference-server/hash.ts';

/**
 * SipHash-2-4 reference outputs from the SipHash authors' `vectors.h`: key 00..0f,
 * message i = bytes 00..(i-1), each output written as its 8 little-endian bytes.
 */
const REFERENCE_VECTORS = [
  '310e0edd47db6f72',
  'fd67dc93c539f874',
  '5a4fa9d909806c0d',
  '2d7efbd796666785',
  'b7877127e09427cf',
  '8da699cd64557618',
  'cee3fe586e46c9cb',
  '37d1018bf50002ab',
  '6224939a79f5f593',
  'b0e4a90bdf82009e',
  'f3b9dd94c5bb5d7a',
  'a7ad6b22462fb3f4',
  'fbe50e86bc8f1e75',
  '903d84c02756ea14',
  'eef27a8e90ca23f7',
  'e545be4961ca29a1',
];

function littleEndianHex(value: bigint): string {
  return value.toString(16).padStart(16, '0').match(/../g)!.reverse().join('');
}

describe('sipHash24', () => {
  const key = Uint8Array.from({ length: 16 }, (_, i) => i);

  it.each(REFERENCE_VECTORS.map((hex, length) => [length, hex] as const))('matches the published vector for a %i-byte message', (length, hex) => {
    const message = Uint8Array.from({ length }, (_, i) => i);
    expect(littleEndianHex(sipHash24(key, message))).toBe(hex);
  });

  it('refuses a key that is not 16 bytes', () => {
    expect(() => sipHash24(new Uint8Array(8), new Uint8Array())).toThrow(/16 bytes/);
  });
});

describe('calculateHash', () => {
  // Values pinned by Weblate's own weblate/utils/tests/test_hash.py.
  it('gives Weblate\'s value for "Message"', () => {
    expect(calculateHash('Message')).toBe(8445691827737211251n);
  });

  it('concatenates parts like Weblate (context, text)', () => {
    expect(calculateHash('Context', 'Message')).toBe(-1602104568316855346n);
  });

  it('hashes the UTF-8 bytes of non-ASCII text', () => {
    expect(calculateHash('Příšerně žluťoučký kůň úpěl ďábelské ódy')).toBe(-4296353750398394478n);
  });

  it('gives values beyond the exact range of a JS number', () => {
    const hashes = [calculateHash('Message'), calculateHash('Context', 'Message')];
    for (const hash of hashes) {
      expect(hash > BigInt(Number.MAX_SAFE_INTEGER) || hash < -BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
      expect(BigInt(Number(hash))).not.toBe(hash);
    }
  });

  it('stays within signed 64 bits, both signs occurring', () => {
    const hashes = Array.from({ length: 200 }, (_, i) => calculateHash(`string ${i}`));
    for (const hash of hashes) {
      expect(hash >= -(1n << 63n) && hash < 1n << 63n).toBe(true);
    }
    expect(hashes.some((h) => h < 0n)).toBe(true);
    expect(hashes.some((h) => h > 0n)).toBe(true);
  });
});

describe('checksumOf', () => {
  it('gives Weblate\'s checksum for "Message"', () => {
    expect(checksumOf(calculateHash('Message'))).toBe('f5351ff85ab23173');
  });

  it('pads to 16 hex digits at the bottom of the range', () => {
    expect(checksumOf(-(1n << 63n))).toBe('0000000000000000');
    expect(checksumOf((1n << 63n) - 1n)).toBe('ffffffffffffffff');
  });

  it('refuses a value outside signed 64 bits', () => {
    expect(() => checksumOf(1n << 63n)).toThrow(RangeError);
  });
});

describe('unitHash', () => {
  it('hashes source then context', () => {
    expect(unitHash(['Message'], 'Context')).toBe(calculateHash('Message', 'Context'));
    expect(unitHash(['Message'], 'Context')).not.toBe(unitHash(['Context'], 'Message'));
  });

  it("joins plural forms with Weblate's separator", () => {
    expect(unitHash(['%d file', '%d files'], '')).toBe(calculateHash(`%d file${PLURAL_SEPARATOR}%d files`));
  });
});
