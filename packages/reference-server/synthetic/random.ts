/**
 * Randomness addressed by coordinates instead of drawn in sequence: every value of the
 * synthetic instance is `mix(seed, topic, …ids)`, so any row can be computed on its own,
 * in any order, and comes out the same each time.
 */

/**
 * A well-spread unsigned 32-bit hash of non-negative integers below 2^32 (murmur3's mixing
 * steps); every id, index and seed of a synthetic instance is one.
 */
export function mix(...values: number[]): number {
  let h = 0x9e3779b9;
  for (let i = 0; i < values.length; i++) h = step(h, (values[i] as number) >>> 0);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function step(h: number, value: number): number {
  let k = Math.imul(value, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  const next = h ^ k;
  return (Math.imul((next << 13) | (next >>> 19), 5) + 0xe6546b64) | 0;
}

/** A number in [0, 1) from `mix`. */
export function chance(...values: number[]): number {
  return mix(...values) / 0x1_0000_0000;
}

/** An element of `items` chosen by `mix`. */
export function pick<T>(items: readonly T[], ...values: number[]): T {
  const item = items[mix(...values) % items.length];
  if (item === undefined) throw new RangeError('pick from an empty list');
  return item;
}

export interface Permutation {
  forward(index: number): number;
  inverse(index: number): number;
}

/**
 * A keyed shuffle of [0, size) that is computed per element, both ways, in O(1) expected
 * time: a 4-round Feistel network over the smallest even-bit domain holding `size`, with
 * cycle walking to stay inside [0, size). The domain is under 4 × size, so a walk takes
 * fewer than four steps on average.
 */
export function createPermutation(size: number, key: number): Permutation {
  let bits = 2;
  while (2 ** bits < size) bits += 2;
  const half = bits / 2;
  const halfSize = 2 ** half;
  const mask = halfSize - 1;

  const encrypt = (x: number): number => {
    let left = Math.floor(x / halfSize);
    let right = x & mask;
    for (let round = 0; round < 4; round++) {
      const next = left ^ (mix(key, round, right) & mask);
      left = right;
      right = next;
    }
    return left * halfSize + right;
  };
  const decrypt = (x: number): number => {
    let left = Math.floor(x / halfSize);
    let right = x & mask;
    for (let round = 3; round >= 0; round--) {
      const previous = right ^ (mix(key, round, left) & mask);
      right = left;
      left = previous;
    }
    return left * halfSize + right;
  };
  const walk = (step: (x: number) => number, index: number): number => {
    if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError(`index ${index} outside [0, ${size})`);
    let x = step(index);
    while (x >= size) x = step(x);
    return x;
  };
  return { forward: (index) => walk(encrypt, index), inverse: (index) => walk(decrypt, index) };
}

/** The first value mixed into every draw, so that different questions get independent answers. */
export const topic = {
  componentSize: 1,
  projectReview: 2,
  translationProgress: 3,
  stringKey: 4,
  stringShape: 5,
  stringWord: 6,
  unitState: 7,
  unitDetail: 8,
  changeOrder: 9,
  changeTime: 10,
  changeUser: 11,
  changeAction: 12,
  notification: 13,
  naming: 14,
  revision: 15,
  edit: 16,
} as const;

/**
 * Like `createPermutation`, but moving runs of `block` consecutive indices together: the
 * order a translator works in (a session of neighbouring strings), and the order that lets
 * a window of changes reuse the same few strings. A final partial run stays last.
 */
export function createBlockPermutation(size: number, block: number, key: number): Permutation {
  const fullBlocks = Math.floor(size / block);
  const blocks = fullBlocks > 0 ? createPermutation(fullBlocks, key) : undefined;
  const move =
    (step: ((index: number) => number) | undefined) =>
    (index: number): number => {
      if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError(`index ${index} outside [0, ${size})`);
      const run = Math.floor(index / block);
      if (!step || run >= fullBlocks) return index;
      return step(run) * block + (index % block);
    };
  return { forward: move(blocks?.forward), inverse: move(blocks?.inverse) };
}
