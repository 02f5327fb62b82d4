/**
 * Deltas between two versions of an object (docs/snapshot-format.md, "Format 3: deltas"): the new bytes
 * as copies of line runs of the old ones and inserted bytes. Canonical JSON has one member or
 * element per line and translation files are line-based text, so an edited string, a changed
 * count or a new hash in an index part is a line or two; everything else is a copy. Pure.
 *
 * The operations are text, deflated by the store:
 *   `C<offset> <length>\n`  copy that many bytes of the base from that offset
 *   `I<length>\n<bytes>`    insert these bytes
 */

/** A run of base lines shorter than this is inserted rather than copied: a copy costs about as much to write down. */
const minCopyBytes = 12;
/** Candidates tried for a line that occurs many times in the base (`},`, `"state": 20,`…): bounds the time on pathological input. */
const maxCandidates = 24;

interface Lines {
  text: string;
  /** Start offset of each line; the last entry is the text's length. */
  starts: number[];
}

/** Lines of bytes read as latin1 (one character per byte, so offsets are byte offsets), each with its newline. */
function splitLines(bytes: Uint8Array): Lines {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  if (starts.at(-1) !== text.length) starts.push(text.length);
  return { text, starts };
}

const lineAt = (lines: Lines, index: number) => lines.text.slice(lines.starts[index], lines.starts[index + 1]);
const lineCount = (lines: Lines) => lines.starts.length - 1;

/**
 * The operations that turn `base` into `target`. Greedy like git's delta: at each target line,
 * the longest run of equal lines found in the base (the run continuing the previous copy
 * first), else the line is inserted.
 */
export function makeDelta(base: Uint8Array, target: Uint8Array): Buffer {
  const old = splitLines(base);
  const next = splitLines(target);
  const where = new Map<string, number[]>();
  for (let i = 0; i < lineCount(old); i++) {
    const line = lineAt(old, i);
    const list = where.get(line);
    if (list === undefined) where.set(line, [i]);
    else if (list.length < maxCandidates) list.push(i);
  }
  const out: string[] = [];
  let pending = '';
  const flushInsert = () => {
    if (pending.length === 0) return;
    out.push(`I${pending.length}\n`, pending);
    pending = '';
  };
  let continueAt = -1;
  const runLength = (from: number, j: number) => {
    let length = 0;
    while (from + length < lineCount(old) && j + length < lineCount(next) && lineAt(old, from + length) === lineAt(next, j + length)) length++;
    return length;
  };
  let j = 0;
  while (j < lineCount(next)) {
    const line = lineAt(next, j);
    let bestFrom = -1;
    let bestLength = 0;
    if (continueAt >= 0 && continueAt < lineCount(old) && lineAt(old, continueAt) === line) {
      bestFrom = continueAt;
      bestLength = runLength(continueAt, j);
    }
    for (const from of where.get(line) ?? []) {
      if (from === bestFrom) continue;
      const length = runLength(from, j);
      if (length > bestLength) {
        bestFrom = from;
        bestLength = length;
      }
    }
    const bytes = bestLength === 0 ? 0 : old.starts[bestFrom + bestLength]! - old.starts[bestFrom]!;
    if (bytes < minCopyBytes) {
      pending += line;
      continueAt = bestLength > 0 ? bestFrom + 1 : -1;
      j += 1;
      continue;
    }
    flushInsert();
    out.push(`C${old.starts[bestFrom]} ${bytes}\n`);
    continueAt = bestFrom + bestLength;
    j += bestLength;
  }
  flushInsert();
  return Buffer.from(out.join(''), 'latin1');
}

/** The target bytes again from `base` and the operations `makeDelta` gave; throws on operations that do not fit the base. */
export function applyDelta(base: Uint8Array, delta: Uint8Array): Buffer {
  const ops = Buffer.from(delta.buffer, delta.byteOffset, delta.byteLength);
  const parts: Uint8Array[] = [];
  let at = 0;
  const number = (end: number) => {
    const text = ops.toString('latin1', at, end);
    if (!/^\d{1,12}$/.test(text)) throw new Error(`delta: "${text}" is not a length`);
    return Number(text);
  };
  while (at < ops.length) {
    const op = ops[at++];
    const newline = ops.indexOf(0x0a, at);
    if (newline === -1) throw new Error('delta: an operation without its end of line');
    if (op === 0x43 /* C */) {
      const space = ops.indexOf(0x20, at);
      if (space === -1 || space > newline) throw new Error('delta: a copy without its length');
      const offset = number(space);
      at = space + 1;
      const length = number(newline);
      if (offset + length > base.byteLength) throw new Error(`delta: copies bytes ${offset}–${offset + length} of a base of ${base.byteLength}`);
      parts.push(base.subarray(offset, offset + length));
    } else if (op === 0x49 /* I */) {
      const length = number(newline);
      if (newline + 1 + length > ops.length) throw new Error('delta: an insert longer than the delta');
      parts.push(ops.subarray(newline + 1, newline + 1 + length));
      at = newline + 1 + length;
      continue;
    } else {
      throw new Error(`delta: unknown operation ${op}`);
    }
    at = newline + 1;
  }
  return Buffer.concat(parts);
}
