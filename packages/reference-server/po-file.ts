import type { LanguageRow, UnitRow } from './model.ts';

/** What a PO file's header says about its translation. */
export interface PoHeader {
  projectName: string;
  componentName: string;
  language: LanguageRow;
  reportBugsTo: string;
  lastTranslator: string | null;
  /** ISO 8601; written in PO's `YYYY-MM-DD HH:MM+0000` form. */
  revisionDate: string | null;
}

function escape(text: string): string {
  return text.replace(/[\\"\n\r\t]/g, (char) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[char]!);
}

/** A keyword and its string; multi-line strings are split after each `\n`, as gettext tools write them. */
function field(keyword: string, text: string): string {
  const lines = text.split(/(?<=\n)/);
  if (lines.length <= 1) return `${keyword} "${escape(text)}"`;
  return [`${keyword} ""`, ...lines.map((line) => `"${escape(line)}"`)].join('\n');
}

function poDate(iso: string | null): string {
  if (iso === null) return 'YEAR-MO-DA HO:MI+ZONE';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}+0000`;
}

function header(meta: PoHeader): string {
  const { language } = meta;
  const lines = [
    `Project-Id-Version: ${meta.projectName} ${meta.componentName}`,
    `Report-Msgid-Bugs-To: ${meta.reportBugsTo}`,
    `PO-Revision-Date: ${poDate(meta.revisionDate)}`,
    `Last-Translator: ${meta.lastTranslator ?? 'Automatically generated'}`,
    `Language-Team: ${language.name}`,
    `Language: ${language.code}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=UTF-8',
    'Content-Transfer-Encoding: 8bit',
    `Plural-Forms: nplurals=${language.plural.number}; plural=${language.plural.formula};`,
    'X-Generator: tmsnap reference server',
  ];
  return ['msgid ""', 'msgstr ""', ...lines.map((line) => `"${escape(`${line}\n`)}"`)].join('\n');
}

function entry(unit: UnitRow): string {
  const lines: string[] = [];
  for (const note of unit.note.split('\n').filter(Boolean)) lines.push(`#. ${note}`);
  // Weblate joins locations with ", "; PO separates them with spaces.
  if (unit.location) lines.push(`#: ${unit.location.split(/,\s*/).join(' ')}`);
  const flags = [
    ...(unit.state >= 10 && unit.state < 20 ? ['fuzzy'] : []),
    ...unit.flags
      .split(',')
      .map((flag) => flag.trim())
      .filter(Boolean),
  ];
  if (flags.length > 0) lines.push(`#, ${flags.join(', ')}`);
  if (unit.context) lines.push(field('msgctxt', unit.context));
  lines.push(field('msgid', unit.source[0] ?? ''));
  if (unit.source.length > 1) {
    lines.push(field('msgid_plural', unit.source[1] ?? ''));
    unit.target.forEach((form, index) => lines.push(field(`msgstr[${index}]`, form)));
  } else {
    lines.push(field('msgstr', unit.target[0] ?? ''));
  }
  return lines.join('\n');
}

/** A translation as the gettext PO file a Weblate component stores, units in file order. */
export function poFile(meta: PoHeader, units: readonly UnitRow[]): string {
  const ordered = [...units].sort((a, b) => a.position - b.position || a.id - b.id);
  return `${[`# ${meta.language.name} translation of ${meta.projectName}.`, header(meta)].join('\n')}\n\n${ordered.map(entry).join('\n\n')}\n`;
}
