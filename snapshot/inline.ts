/**
 * Small records kept inline in their index part (format 4, docs/snapshot-format.md "Format 4:
 * inline records"). A day's crawl rewrites hundreds of records of a few hundred bytes (every
 * `repository/` record after a download commits, statistics, translations, short unit lists);
 * as objects of their own each cost a delta's header and its part's changed hash line, inline
 * they are a few changed lines of the part's one delta. A record's identity does not change:
 * readers hash its canonical JSON, so `paths()` names it by the hash it has in formats 2 and 3.
 */
import { canonicalJson, sha256 } from './canonical.ts';
import type { IndexPart } from './schemas.ts';
import type { ObjectStore } from './store.ts';

/** Records whose canonical JSON is shorter than this many bytes are kept inline. */
export const inlineBelow = 2048;

/** Whether a record of this canonical JSON is kept inline rather than as an object of its own. */
export const keptInline = (text: string): boolean => Buffer.byteLength(text) < inlineBelow;

/** A part's inline records as path → hash; the store serves each by that hash, as if it were an object. */
export function holdInline(part: IndexPart, store: ObjectStore): [string, string][] {
  return Object.entries(part.inline ?? {}).map(([path, value]) => {
    const bytes = Buffer.from(canonicalJson(value));
    const hash = sha256(bytes);
    store.hold(hash, bytes);
    return [path, hash];
  });
}
