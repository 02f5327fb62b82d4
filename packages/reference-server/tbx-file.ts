import { escapeHtml } from './html.ts';
import type { UnitRow } from './model.ts';

/**
 * A glossary translation as the TBX file a real 5.4 server answers on `file/` for glossary
 * components (`application/x-tbx`; README.md, "Profiles"): one `termEntry` per term, the
 * source and, when translated, the target language.
 */
export interface TbxHeader {
  sourceLanguage: string;
  targetLanguage: string;
}

function langSet(code: string, term: string): string {
  return `      <langSet xml:lang="${escapeHtml(code)}">\n        <tig>\n          <term>${escapeHtml(term)}</term>\n        </tig>\n      </langSet>`;
}

function termEntry(meta: TbxHeader, unit: UnitRow): string {
  const parts = [langSet(meta.sourceLanguage, unit.source[0] ?? '')];
  const target = unit.target[0] ?? '';
  if (meta.targetLanguage !== meta.sourceLanguage && target !== '') parts.push(langSet(meta.targetLanguage, target));
  const note = unit.note ? `\n      <note>${escapeHtml(unit.note)}</note>` : '';
  return `    <termEntry id="${escapeHtml(unit.context || String(unit.position))}">${note}\n${parts.join('\n')}\n    </termEntry>`;
}

export function tbxFile(meta: TbxHeader, units: readonly UnitRow[]): string {
  const ordered = [...units].sort((a, b) => a.position - b.position || a.id - b.id);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<martif type="TBX" xml:lang="${escapeHtml(meta.sourceLanguage)}">`,
    '  <martifHeader>\n    <fileDesc>\n      <sourceDesc>\n        <p>Weblate</p>\n      </sourceDesc>\n    </fileDesc>\n  </martifHeader>',
    '  <text>\n    <body>',
    ...ordered.map((unit) => termEntry(meta, unit)),
    '    </body>\n  </text>',
    '</martif>',
    '',
  ].join('\n');
}
