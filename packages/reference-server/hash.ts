/**
 * Weblate's string hashes, computed the way Weblate computes them (`weblate/utils/hash.py`):
 * SipHash-2-4 keyed with the 16 ASCII bytes "Weblate Sip Hash" over the UTF-8 bytes of the
 * concatenated parts, then shifted from unsigned to signed 64-bit by subtracting 2^63.
 *
 * A bilingual unit (PO) has `id_hash = content_hash = calculateHash(source, context)`, where
 * a plural source is its forms joined with `PLURAL_SEPARATOR`.
 */

const MASK = (1n << 64n) - 1n;
const SIGN_SHIFT = 1n << 63n;
const encoder = new TextEncoder();

/** How Weblate stores a plural string's forms in one text (`weblate/trans/util.py`). */
export const PLURAL_SEPARATOR = '\x1e\x1e';

function readUint64LE(bytes: Uint8Array, offset: number): bigint {
  let value = 0n;
  for (let i = 7; i >= 0; i--) value = (value << 8n) | BigInt(bytes[offset + i] ?? 0);
  return value;
}

function rotl(x: bigint, bits: bigint): bigint {
  return ((x << bits) | (x >> (64n - bits))) & MASK;
}

/** SipHash-2-4 of `message` under a 16-byte `key`, as an unsigned 64-bit value. */
export function sipHash24(key: Uint8Array, message: Uint8Array): bigint {
  if (key.length !== 16) throw new RangeError(`SipHash key must be 16 bytes, got ${key.length}`);
  const k0 = readUint64LE(key, 0);
  const k1 = readUint64LE(key, 8);
  let v0 = k0 ^ 0x736f6d6570736575n;
  let v1 = k1 ^ 0x646f72616e646f6dn;
  let v2 = k0 ^ 0x6c7967656e657261n;
  let v3 = k1 ^ 0x7465646279746573n;

  const round = (): void => {
    v0 = (v0 + v1) & MASK;
    v1 = rotl(v1, 13n) ^ v0;
    v0 = rotl(v0, 32n);
    v2 = (v2 + v3) & MASK;
    v3 = rotl(v3, 16n) ^ v2;
    v0 = (v0 + v3) & MASK;
    v3 = rotl(v3, 21n) ^ v0;
    v2 = (v2 + v1) & MASK;
    v1 = rotl(v1, 17n) ^ v2;
    v2 = rotl(v2, 32n);
  };
  const compress = (m: bigint): void => {
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  };

  const fullBlocks = message.length - (message.length % 8);
  for (let offset = 0; offset < fullBlocks; offset += 8) compress(readUint64LE(message, offset));
  // The last block holds the remaining bytes and the message length (mod 256) in its top byte.
  let last = BigInt(message.length & 0xff) << 56n;
  for (let i = 0; i < message.length - fullBlocks; i++) {
    last |= BigInt(message[fullBlocks + i] ?? 0) << BigInt(8 * i);
  }
  compress(last);

  v2 ^= 0xffn;
  round();
  round();
  round();
  round();
  return (v0 ^ v1 ^ v2 ^ v3) & MASK;
}

const WEBLATE_KEY = encoder.encode('Weblate Sip Hash');

/** Weblate's `calculate_hash(*parts)`: a signed 64-bit integer, often beyond 2^53. */
export function calculateHash(...parts: string[]): bigint {
  return sipHash24(WEBLATE_KEY, encoder.encode(parts.join(''))) - SIGN_SHIFT;
}

/** Weblate's `hash_to_checksum`: the unit checksum seen in `web_url`, 16 lowercase hex digits. */
export function checksumOf(idHash: bigint): string {
  const unsigned = idHash + SIGN_SHIFT;
  if (unsigned < 0n || unsigned > MASK) throw new RangeError(`not a signed 64-bit hash: ${idHash}`);
  return unsigned.toString(16).padStart(16, '0');
}

/** A unit's `id_hash` (= `content_hash` for bilingual formats such as PO). */
export function unitHash(source: readonly string[], context: string): bigint {
  return calculateHash(source.join(PLURAL_SEPARATOR), context);
}
