/**
 * How format 2 cuts unit lists and raw files into chunks, so that one edited string rewrites
 * one chunk and not the whole list (docs/snapshot-format.md, "Chunks"). Both cuts are
 * content-defined: where a chunk ends depends only on what is near that point, so inserting or
 * removing a string moves no boundary elsewhere. Pure.
 */

/** Mean units per chunk: small enough that a day's edits rewrite little, large enough that reading a list is not slower than format 1's one object (16 was slower: docs/decisions/2026-11-27-figures-from-comments.md). */
export const unitsPerChunkTarget = 32;
/** A chunk never holds more than this many units (a long run without a boundary). */
export const maxUnitsPerChunk = 128;

/** A well-mixed 32-bit hash of a unit id (murmur3's finalizer): boundaries must not follow the ids' own patterns. */
function mix(id: number): number {
  let h = (id ^ Math.floor(id / 2 ** 32)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Cuts units (already sorted by position) after each unit whose id hashes to 0 modulo the
 * target, so a boundary belongs to a unit and moves with it: an edit changes one chunk, a new
 * or removed string one chunk (two when it carried a boundary). The cap keeps a run of
 * unlucky ids bounded.
 */
export function chunkUnits<T extends { id?: unknown }>(units: readonly T[]): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  for (const unit of units) {
    current.push(unit);
    const id = Number(unit.id ?? 0);
    if (current.length >= maxUnitsPerChunk || mix(Number.isFinite(id) ? id : 0) % unitsPerChunkTarget === 0) {
      chunks.push(current);
      current = [];
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** FNV-1a of a string: the boundary key of a list item that has no numeric id. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Cuts any list the same way as units: after an item whose id (or, without one, whose
 * canonical JSON) hashes to 0 modulo the target. Used for long lists other than units
 * (`memory/`, paged statistics, notifications: docs/snapshot-format.md, "Chunks").
 */
export function chunkList(items: readonly unknown[], keyOf: (item: unknown) => string): unknown[][] {
  const chunks: unknown[][] = [];
  let current: unknown[] = [];
  for (const item of items) {
    current.push(item);
    const id = (item as { id?: unknown } | null)?.id;
    const boundary = typeof id === 'number' && Number.isFinite(id) ? mix(id) : fnv(keyOf(item));
    if (current.length >= maxUnitsPerChunk || boundary % unitsPerChunkTarget === 0) {
      chunks.push(current);
      current = [];
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * A stored value long enough to be kept in chunks: a list, or a page (`{count, next, previous,
 * results}`) whose `results` is one, of more than `maxUnitsPerChunk` items. `around` is the
 * page without its results (absent for a plain list).
 */
export function longList(value: unknown): { items: unknown[]; around?: Record<string, unknown> } | undefined {
  if (Array.isArray(value)) return value.length > maxUnitsPerChunk ? { items: value } : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  const { results, ...around } = value as Record<string, unknown>;
  return Array.isArray(results) && results.length > maxUnitsPerChunk ? { items: results, around } : undefined;
}

/** Raw file chunks: at least this many bytes (a cut right after a cut would make tiny objects)... */
export const minFileChunk = 256;
/** ...a boundary where the rolling hash's low bits are 0: about one in 1024 bytes after the minimum... */
const fileChunkMask = 0x3ff;
/** ...and never more than this. */
export const maxFileChunk = 16 * 1024;

/** 256 fixed pseudo-random words for the gear rolling hash (xorshift32 from a fixed seed: the table is part of the format). */
const gear = (() => {
  const table = new Uint32Array(256);
  let state = 0x9e3779b9;
  for (let i = 0; i < 256; i++) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    table[i] = state;
  }
  return table;
})();

/**
 * Content-defined cut points of a raw file (FastCDC's gear hash without its normalization): a
 * boundary depends on the 32 bytes before it, so an edited entry in a .po file changes the
 * chunk holding it and not the ones after. Returns the end offset of each chunk.
 */
export function fileCutPoints(bytes: Uint8Array): number[] {
  const cuts: number[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = Math.min(bytes.length, start + maxFileChunk);
    let cut = end;
    let hash = 0;
    for (let i = start + minFileChunk; i < end; i++) {
      hash = ((hash << 1) + gear[bytes[i]!]!) >>> 0;
      if ((hash & fileChunkMask) === 0) {
        cut = i + 1;
        break;
      }
    }
    cuts.push(cut);
    start = cut;
  }
  return cuts;
}

/** The chunks of a raw file, as views into `bytes`. */
export function chunkFile(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of fileCutPoints(bytes)) {
    chunks.push(bytes.subarray(start, cut));
    start = cut;
  }
  return chunks;
}

/**
 * Which index part a path belongs to: a project's own records, its components' and its
 * translations' all go to `projects/<slug>`, so an edit in one project rewrites that part only;
 * every other path to the part named by its first segment (`languages`, `users`, `units`…),
 * and the API root to `root`. Slugs stay inside JSON (no file name is built from a part name).
 */
export function indexPartOf(path: string): string {
  const match = /^api\/(projects|components|translations)\/([^/]+)\//.exec(path);
  if (match) return `projects/${match[2]}`;
  const segment = /^api\/([^/]+)\//.exec(path);
  return segment ? segment[1]! : 'root';
}
