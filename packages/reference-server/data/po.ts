/**
 * A reader for gettext PO text: the shipped `.po` files and what `msgunfmt` makes of `.mo`
 * catalogs. It keeps what Weblate keeps of an entry (context, source forms, target forms,
 * translator notes, locations, flags, fuzziness, previous source) and skips obsolete (`#~`)
 * entries, which Weblate does not show either.
 */

export interface PoEntry {
  context: string;
  /** One element, or singular and plural when the entry has `msgid_plural`. */
  source: string[];
  /** `msgstr`, or `msgstr[0..n-1]` in index order. */
  target: string[];
  /** `#.` lines (extracted comments), joined by line breaks. */
  note: string;
  /** `#:` references, each one location. */
  locations: string[];
  /** `#,` flags other than `fuzzy`. */
  flags: string[];
  fuzzy: boolean;
  /** `#| msgid` (and `#| msgid_plural`) of a fuzzy entry: what the source used to be. */
  previousSource: string[];
}

export interface PoCatalog {
  /** Header fields from the empty-msgid entry, e.g. `Plural-Forms`. */
  headers: Record<string, string>;
  entries: PoEntry[];
}

export class PoSyntaxError extends Error {
  constructor(origin: string, line: number, message: string) {
    super(`${origin}:${line}: ${message}`);
    this.name = 'PoSyntaxError';
  }
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', a: '\x07', b: '\b', f: '\f', v: '\v' };

function unquote(text: string, origin: string, line: number): string {
  const trimmed = text.trim();
  if (trimmed.length < 2 || !trimmed.startsWith('"') || !trimmed.endsWith('"')) {
    throw new PoSyntaxError(origin, line, `expected a quoted string, got ${JSON.stringify(trimmed)}`);
  }
  return trimmed.slice(1, -1).replace(/\\([0-7]{1,3}|.)/g, (_, escape: string) => {
    if (/^[0-7]+$/.test(escape)) return String.fromCharCode(parseInt(escape, 8));
    const value = ESCAPES[escape];
    if (value === undefined) throw new PoSyntaxError(origin, line, `unknown escape \\${escape}`);
    return value;
  });
}

interface Draft {
  context: string;
  msgid: string | undefined;
  msgidPlural: string | undefined;
  msgstr: Map<number, string>;
  notes: string[];
  locations: string[];
  flags: string[];
  previousMsgid: string | undefined;
  previousPlural: string | undefined;
}

function emptyDraft(): Draft {
  return {
    context: '',
    msgid: undefined,
    msgidPlural: undefined,
    msgstr: new Map(),
    notes: [],
    locations: [],
    flags: [],
    previousMsgid: undefined,
    previousPlural: undefined,
  };
}

function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** Parses PO text; `origin` names the file in error messages. */
export function parsePo(text: string, origin: string): PoCatalog {
  const catalog: PoCatalog = { headers: {}, entries: [] };
  let draft = emptyDraft();
  // Which string a continuation line ("...") extends.
  let appendTo: ((more: string) => void) | undefined;

  const finish = (): void => {
    if (draft.msgid !== undefined) {
      if (draft.msgid === '' && draft.context === '') {
        catalog.headers = parseHeaders(draft.msgstr.get(0) ?? '');
      } else {
        const forms = draft.msgidPlural === undefined ? 1 : Math.max(draft.msgstr.size, 1);
        const target = Array.from({ length: forms }, (_, i) => draft.msgstr.get(i) ?? '');
        const fuzzy = draft.flags.includes('fuzzy');
        catalog.entries.push({
          context: draft.context,
          source: draft.msgidPlural === undefined ? [draft.msgid] : [draft.msgid, draft.msgidPlural],
          target,
          note: draft.notes.join('\n'),
          locations: draft.locations,
          flags: draft.flags.filter((flag) => flag !== 'fuzzy'),
          fuzzy,
          previousSource:
            draft.previousMsgid === undefined ? [] : draft.previousPlural === undefined ? [draft.previousMsgid] : [draft.previousMsgid, draft.previousPlural],
        });
      }
    }
    draft = emptyDraft();
    appendTo = undefined;
  };

  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#~')) {
      if (line.startsWith('#~') && draft.msgid !== undefined) finish();
      return;
    }
    if (line.startsWith('#')) {
      // A comment after a complete entry starts the next one.
      if (draft.msgid !== undefined) finish();
      if (line.startsWith('#.')) draft.notes.push(line.slice(2).trim());
      else if (line.startsWith('#:')) draft.locations.push(...line.slice(2).trim().split(/\s+/).filter(Boolean));
      else if (line.startsWith('#,'))
        draft.flags.push(
          ...line
            .slice(2)
            .split(',')
            .map((f) => f.trim())
            .filter(Boolean),
        );
      else if (line.startsWith('#|')) {
        const previous = line.slice(2).trim();
        if (previous.startsWith('msgid_plural ')) draft.previousPlural = unquote(previous.slice(13), origin, lineNo);
        else if (previous.startsWith('msgid ')) draft.previousMsgid = unquote(previous.slice(6), origin, lineNo);
        else if (previous.startsWith('"')) {
          const more = unquote(previous, origin, lineNo);
          if (draft.previousPlural !== undefined) draft.previousPlural += more;
          else if (draft.previousMsgid !== undefined) draft.previousMsgid += more;
        }
      }
      return;
    }
    if (line.startsWith('"')) {
      if (appendTo === undefined) throw new PoSyntaxError(origin, lineNo, 'string continuation without a keyword');
      appendTo(unquote(line, origin, lineNo));
      return;
    }
    const keyword = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(.*)$/.exec(line);
    if (keyword === null) throw new PoSyntaxError(origin, lineNo, `unexpected line ${JSON.stringify(line)}`);
    const [, name, pluralIndex, rest = ''] = keyword;
    const value = unquote(rest, origin, lineNo);
    if (name === 'msgctxt') {
      if (draft.msgid !== undefined) finish();
      draft.context = value;
      appendTo = (more) => (draft.context += more);
    } else if (name === 'msgid') {
      if (draft.msgid !== undefined) finish();
      draft.msgid = value;
      appendTo = (more) => (draft.msgid += more);
    } else if (name === 'msgid_plural') {
      draft.msgidPlural = value;
      appendTo = (more) => (draft.msgidPlural += more);
    } else {
      const slot = pluralIndex === undefined ? 0 : Number(pluralIndex);
      draft.msgstr.set(slot, value);
      appendTo = (more) => draft.msgstr.set(slot, (draft.msgstr.get(slot) ?? '') + more);
    }
  });
  finish();
  return catalog;
}

/** `nplurals` and the `plural=` expression of a `Plural-Forms` header. */
export function parsePluralForms(header: string): { number: number; formula: string } | undefined {
  const match = /nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*$/.exec(header);
  if (match === null) return undefined;
  return { number: Number(match[1]), formula: match[2] ?? '' };
}
