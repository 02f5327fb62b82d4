/**
 * The interface catalogs as gettext PO files (src/i18n/po/), the format Weblate's "gettext PO
 * file" component translates: bilingual, `msgctxt` the message key, `msgid` (and `msgid_plural`)
 * the English text from en.ts, `tmsnap.pot` the template for new languages (docs/site.md,
 * "Interface languages"; docs/decisions/2026-11-27-ui-catalogs-po.md). A small strict parser
 * rather than a library: the files are ours or Weblate's, and anything unexpected should stop
 * the build, not be guessed at. Pure: reading the files is index.ts's part.
 */
import { evaluatePlural, parsePluralFormula } from '../utils/plural.ts';
import type { Messages } from './translate.ts';

export interface PoEntry {
  /** `msgctxt`: the message key (en.ts). */
  context?: string;
  id: string;
  idPlural?: string;
  /** `msgstr`, or `msgstr[0]`, `msgstr[1]`, … for a plural entry. */
  strings: string[];
  /** `#,` flags, e.g. `fuzzy` (Weblate's "needs editing"). */
  flags: string[];
}

export interface PoFile {
  /** The header entry's fields (`Language`, `Plural-Forms`, …). */
  headers: Record<string, string>;
  entries: PoEntry[];
}

export class PoSyntaxError extends Error {
  override name = 'PoSyntaxError';
  constructor(line: number, detail: string) {
    super(`line ${line}: ${detail}`);
  }
}

const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };

function unquote(text: string, line: number): string {
  const match = /^"((?:[^"\\]|\\.)*)"$/.exec(text.trim());
  if (!match) throw new PoSyntaxError(line, `expected a quoted string, found ${JSON.stringify(text.trim().slice(0, 40))}`);
  return match[1]!.replace(/\\(.)/g, (_, char: string) => {
    const value = escapes[char];
    if (value === undefined) throw new PoSyntaxError(line, `unknown escape \\${char}`);
    return value;
  });
}

type Field = 'msgctxt' | 'msgid' | 'msgid_plural' | `msgstr[${number}]` | 'msgstr';

/** Parses a PO file; obsolete (`#~`) entries and comments other than flags are dropped. */
export function parsePo(text: string): PoFile {
  const entries: PoEntry[] = [];
  let fields = new Map<Field, string>();
  let flags: string[] = [];
  let last: Field | undefined;
  let startLine = 0;
  const finish = () => {
    if (fields.size === 0) {
      flags = [];
      return;
    }
    if (!fields.has('msgid')) throw new PoSyntaxError(startLine, 'entry without msgid');
    const plural = fields.has('msgid_plural');
    const strings: string[] = [];
    if (plural) for (let form = 0; fields.has(`msgstr[${form}]`); form++) strings.push(fields.get(`msgstr[${form}]`)!);
    else if (fields.has('msgstr')) strings.push(fields.get('msgstr')!);
    const expected = [...fields.keys()].filter((name) => name.startsWith('msgstr')).length;
    if (strings.length === 0 || strings.length !== expected)
      throw new PoSyntaxError(startLine, plural ? 'plural entry needs msgstr[0], msgstr[1], … in order' : 'entry needs one msgstr');
    entries.push({
      ...(fields.has('msgctxt') ? { context: fields.get('msgctxt')! } : {}),
      id: fields.get('msgid')!,
      ...(plural ? { idPlural: fields.get('msgid_plural')! } : {}),
      strings,
      flags,
    });
    fields = new Map();
    flags = [];
    last = undefined;
  };
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const number = index + 1;
    const line = raw.trim();
    if (line === '') return finish();
    if (line.startsWith('#~')) return;
    if (line.startsWith('#,')) {
      if (fields.size > 0) finish();
      flags.push(
        ...line
          .slice(2)
          .split(',')
          .map((flag) => flag.trim())
          .filter(Boolean),
      );
      return;
    }
    if (line.startsWith('#')) {
      if (fields.size > 0) finish();
      return;
    }
    if (line.startsWith('"')) {
      if (last === undefined) throw new PoSyntaxError(number, 'string continues no keyword');
      fields.set(last, fields.get(last)! + unquote(line, number));
      return;
    }
    const keyword = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(.*)$/.exec(line);
    if (!keyword) throw new PoSyntaxError(number, `unexpected ${JSON.stringify(line.slice(0, 40))}`);
    const name = keyword[1] as Field;
    // A keyword that starts an entry ends the one before it, blank line or not.
    if ((name === 'msgctxt' && fields.size > 0) || (name === 'msgid' && fields.has('msgid'))) finish();
    if (fields.size === 0) startLine = number;
    if (fields.has(name)) throw new PoSyntaxError(number, `${name} twice in one entry`);
    fields.set(name, unquote(keyword[2]!, number));
    last = name;
  });
  finish();
  const header = entries.find((entry) => entry.id === '' && entry.context === undefined);
  const headers: Record<string, string> = {};
  for (const field of header?.strings[0]?.split('\n') ?? []) {
    const colon = field.indexOf(':');
    if (colon > 0) headers[field.slice(0, colon).trim()] = field.slice(colon + 1).trim();
  }
  return { headers, entries: entries.filter((entry) => entry !== header) };
}

/**
 * The messages a PO file translates, by key: an entry marked fuzzy or with an empty form is
 * left out, as `msgfmt` leaves it out, so the page falls back to English.
 */
export function poMessages(po: PoFile): Messages {
  const messages: Record<string, string | readonly string[]> = {};
  for (const entry of po.entries) {
    if (entry.context === undefined) throw new Error(`entry "${entry.id.slice(0, 40)}" has no msgctxt: every message is keyed (en.ts)`);
    if (entry.flags.includes('fuzzy') || entry.strings.some((text) => text === '')) continue;
    messages[entry.context] = entry.idPlural === undefined ? entry.strings[0]! : entry.strings;
  }
  return messages;
}

/** `Plural-Forms` as a count of forms and a formula, the form uiPlurals has. */
export function pluralFormsHeader(value: string | undefined): { forms: number; formula: string } | undefined {
  const match = /nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?);?\s*$/.exec(value ?? '');
  return match ? { forms: Number(match[1]), formula: match[2]! } : undefined;
}

function quote(text: string): string {
  return `"${text.replace(/[\\"\n\t\r]/g, (char) => `\\${{ '\n': 'n', '\t': 't', '\r': 'r' }[char] ?? char}`)}"`;
}

/** A field as gettext writes it: one line, or, when the text has line breaks, `""` and a line after each. */
function field(name: string, text: string): string {
  const parts = text.split(/(?<=\n)/);
  return parts.length > 1 ? [`${name} ""`, ...parts.map(quote)].join('\n') : `${name} ${quote(text)}`;
}

/** A PO file's text: the header entry, then each entry, a blank line between. */
export function formatPo(po: PoFile): string {
  const header = Object.entries(po.headers)
    .map(([name, value]) => `${name}: ${value}\n`)
    .join('');
  const blocks = [[field('msgid', ''), field('msgstr', header)].join('\n')];
  for (const entry of po.entries) {
    const lines: string[] = [];
    if (entry.flags.length > 0) lines.push(`#, ${entry.flags.join(', ')}`);
    if (entry.context !== undefined) lines.push(field('msgctxt', entry.context));
    lines.push(field('msgid', entry.id));
    if (entry.idPlural !== undefined) {
      lines.push(field('msgid_plural', entry.idPlural));
      entry.strings.forEach((text, form) => lines.push(field(`msgstr[${form}]`, text)));
    } else lines.push(field('msgstr', entry.strings[0] ?? ''));
    blocks.push(lines.join('\n'));
  }
  return `${blocks.join('\n\n')}\n`;
}

/** The English source (en.ts) as PO entries: msgctxt the key, msgid the text, empty translations of `forms` plural forms. */
export function sourceEntries(source: Readonly<Record<string, string | readonly string[]>>, forms: number): PoEntry[] {
  return Object.entries(source).map(([key, text]) =>
    typeof text === 'string'
      ? { context: key, id: text, strings: [''], flags: [] }
      : { context: key, id: text[0]!, idPlural: text.at(-1)!, strings: Array.from({ length: forms }, () => ''), flags: [] },
  );
}

/**
 * A language's catalog brought up to the English source, as `msgmerge` does with the template:
 * entries in the source's order, a translation kept by its key, marked fuzzy when the English
 * text changed since, new keys untranslated, keys the source no longer has dropped.
 */
export function mergePo(source: Readonly<Record<string, string | readonly string[]>>, catalog: PoFile, forms: number): PoFile {
  const old = new Map(catalog.entries.map((entry) => [entry.context, entry]));
  const entries = sourceEntries(source, forms).map((entry) => {
    const before = old.get(entry.context);
    if (before === undefined || (before.idPlural === undefined) !== (entry.idPlural === undefined)) return entry;
    const changed = before.id !== entry.id || before.idPlural !== entry.idPlural;
    const flags = changed && !before.flags.includes('fuzzy') ? [...before.flags, 'fuzzy'] : before.flags;
    return { ...entry, strings: before.strings, flags };
  });
  return { headers: catalog.headers, entries };
}

/** The header tmsnap writes for a language's catalog, or for the template when `lang` is undefined (English plural forms: the msgids are English). */
export function poHeaders(lang: string | undefined, plurals: { forms: number; formula: string }): Record<string, string> {
  return {
    'Project-Id-Version': 'tmsnap',
    Language: lang ?? '',
    'MIME-Version': '1.0',
    'Content-Type': 'text/plain; charset=UTF-8',
    'Content-Transfer-Encoding': '8bit',
    'Plural-Forms': `nplurals=${plurals.forms}; plural=${plurals.formula};`,
  };
}

/**
 * What a language's PO file says beyond its messages (catalogProblems checks those): a
 * `Plural-Forms` rule that picks other forms than the site's (translate.ts, uiPlurals, on
 * 0–1000), entries marked fuzzy, and entries whose English text is not en.ts's any more.
 */
export function poProblems(source: Readonly<Record<string, string | readonly string[]>>, po: PoFile, plurals: { forms: number; formula: string }): string[] {
  const problems: string[] = [];
  const header = pluralFormsHeader(po.headers['Plural-Forms']);
  const expected = parsePluralFormula(plurals.formula);
  const actual = header === undefined ? undefined : parsePluralFormula(header.formula);
  const counts = Array.from({ length: 1001 }, (_, n) => n);
  if (header?.forms !== plurals.forms || counts.some((n) => evaluatePlural(actual!, n) !== evaluatePlural(expected, n)))
    problems.push(`Plural-Forms: ${po.headers['Plural-Forms'] ?? 'missing'}, expected nplurals=${plurals.forms}; plural=${plurals.formula};`);
  for (const entry of po.entries) {
    const key = entry.context ?? `msgid "${entry.id}"`;
    if (entry.flags.includes('fuzzy')) problems.push(`${key}: fuzzy`);
    const text = entry.context === undefined ? undefined : source[entry.context];
    if (text === undefined) continue;
    const [id, idPlural] = typeof text === 'string' ? [text, undefined] : [text[0], text.at(-1)];
    if (entry.id !== id || entry.idPlural !== idPlural) problems.push(`${key}: translates an older English text, run scripts/ui-catalogs.ts`);
  }
  return problems;
}
