import { describe, expect, it } from 'vitest';
import { alignChunks, applyDelta, canonicalJson, makeDelta } from '../../snapshot/index.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** A unit list chunk as the store keeps it: canonical JSON, one member per line. */
const chunk = (edit: string) =>
  canonicalJson(
    Array.from({ length: 32 }, (_, i) => ({ id: i + 1, position: i + 1, source: [`Source ${i}`], target: [i === 7 ? edit : `Ziel ${i}`], state: 20 })),
  );

describe('makeDelta / applyDelta', () => {
  it('gives back the target exactly, for edits, insertions, removals, a missing last newline and bytes that are not UTF-8', () => {
    const cases: [Uint8Array, Uint8Array][] = [
      [bytes(chunk('Ziel 7')), bytes(chunk('Übersetzt <b>neu</b>'))],
      [bytes('a\nb\nc\n'), bytes('a\nX\nb\nc')],
      [bytes(''), bytes('new\nlines\n')],
      [bytes('old\nlines\n'), bytes('')],
      [Buffer.from([0, 255, 10, 1, 2, 3, 10, 200]), Buffer.from([0, 255, 10, 1, 2, 3, 10, 201, 10])],
    ];
    for (const [base, target] of cases) expect(applyDelta(base, makeDelta(base, target))).toEqual(Buffer.from(target));
  });

  it('writes one edited string in a chunk as copies around the changed line', () => {
    const base = bytes(chunk('Ziel 7'));
    const delta = makeDelta(base, bytes(chunk('Neu')));
    expect(delta.length).toBeLessThan(100);
    expect(delta.toString('latin1')).toMatch(/^C0 \d+\nI\d+\n {6}"Neu"\nC\d+ \d+\n$/);
  });

  it('refuses operations that reach outside the base or the delta', () => {
    expect(() => applyDelta(bytes('short\n'), bytes('C0 100\n'))).toThrow(/copies bytes 0–100 of a base of 6/);
    expect(() => applyDelta(bytes(''), bytes('I10\nabc'))).toThrow(/longer than the delta/);
    expect(() => applyDelta(bytes(''), bytes('X1\n'))).toThrow(/unknown operation/);
  });
});

describe('alignChunks', () => {
  it('pairs an edited chunk with its old version, a new one with the chunk in its place, and the chunks around with theirs', () => {
    expect(alignChunks(['a', 'b', 'c'], ['a', 'B', 'c'])).toEqual(['a', 'b', 'c']);
    expect(alignChunks(['a', 'b', 'c'], ['a', 'b', 'x', 'c'])).toEqual(['a', 'b', 'c', 'c']);
    expect(alignChunks(['a', 'b', 'c', 'd'], ['a', 'D'])).toEqual(['a', 'b']);
    expect(alignChunks([], ['a'])).toEqual([undefined]);
  });
});

describe('alignChunks, changes far apart', () => {
  it('pairs each changed chunk with its own old version when others changed, came or went elsewhere in the list', () => {
    const old = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect(alignChunks(old, ['a', 'B', 'c', 'd', 'new', 'e', 'F', 'g'])).toEqual(['a', 'b', 'c', 'd', 'e', 'e', 'f', 'g']);
    expect(alignChunks(old, ['A', 'b', 'd', 'e', 'f', 'G'])).toEqual(['a', 'b', 'd', 'e', 'f', 'g']);
  });
});
