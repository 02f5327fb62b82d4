import { readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_DIR, loadBundledRows, type BundledRows } from '../../packages/reference-server/data/bundled.ts';
import { notificationKinds } from '../../api/notification.ts';
import { buildInstance, type ParsedComponent } from '../../packages/reference-server/data/build.ts';
import { COMPONENTS } from '../../packages/reference-server/data/spec.ts';
import { parsePo, parsePluralForms, type PoEntry } from '../../packages/reference-server/data/po.ts';
import { stringifyJson } from '../../api/json.ts';
import { unitHash } from '../../packages/reference-server/hash.ts';
import type { UnitRow } from '../../packages/reference-server/model.ts';
import { useTempFolders } from '../helpers/temp.ts';

/**
 * The committed dataset (`packages/reference-server/data/bundled/`) must keep meeting issue 2's
 * requirements: these checks fail when a regeneration or a hand edit loses something.
 */
let data: BundledRows;
let byTranslation: Map<number, UnitRow[]>;

beforeAll(() => {
  data = loadBundledRows();
  byTranslation = new Map();
  for (const unit of data.units) {
    const list = byTranslation.get(unit.translationId) ?? [];
    list.push(unit);
    byTranslation.set(unit.translationId, list);
  }
});

const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const TWO_POW_53 = 1n << 53n;

function languageOf(unit: UnitRow): string {
  const translation = data.translations.find((t) => t.id === unit.translationId);
  if (translation === undefined) throw new Error(`unit ${unit.id} has no translation`);
  return translation.languageCode;
}

function unique<T>(values: readonly T[]): boolean {
  return new Set(values).size === values.length;
}

describe('size and scope', () => {
  it('has at least 3 projects, 8 components, 15 languages and 20k units', () => {
    expect(data.projects.length).toBeGreaterThanOrEqual(3);
    expect(data.components.length).toBeGreaterThanOrEqual(8);
    expect(data.languages.length).toBeGreaterThanOrEqual(15);
    expect(data.units.length).toBeGreaterThanOrEqual(20_000);
  });

  it('stays under 25 MB on disk', () => {
    const files = [join(BUNDLED_DIR, 'instance.json'), ...readdirSync(join(BUNDLED_DIR, 'units')).map((f) => join(BUNDLED_DIR, 'units', f))];
    const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
    expect(bytes).toBeLessThan(25 * 1024 * 1024);
  });

  it('writes one unit per line, hashes as bare JSON integers', () => {
    const text = readFileSync(join(BUNDLED_DIR, 'units', '1.json'), 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('[');
    expect(lines.at(-1)).toBe(']');
    expect(lines.length - 2).toBe(data.units.filter((u) => data.translations.find((t) => t.id === u.translationId)?.componentId === 1).length);
    expect(lines[1]).toMatch(/"idHash":-?\d+,"contentHash":-?\d+,/);
  });
});

describe('languages', () => {
  it('includes right-to-left Arabic, Hebrew and Persian', () => {
    for (const code of ['ar', 'he', 'fa']) {
      expect(data.languages.find((l) => l.code === code)?.direction, code).toBe('rtl');
    }
    expect(data.languages.filter((l) => l.direction === 'ltr').length).toBeGreaterThan(10);
  });

  it('gives Arabic six plural forms, from its gettext formula', () => {
    const arabic = data.languages.find((l) => l.code === 'ar');
    expect(arabic?.plural.number).toBe(6);
    expect(arabic?.plural.formula).toContain('n%100>=11');
  });

  it('includes a script variant and CJK languages', () => {
    const codes = data.languages.map((l) => l.code);
    expect(codes.some((c) => c === 'sr_Latn' || c === 'zh_Hant')).toBe(true);
    expect(codes).toContain('ja');
    expect(codes.some((c) => c.startsWith('zh'))).toBe(true);
  });

  it('has gettext plural formulas: an expression in n, consistent with the form count', () => {
    for (const language of data.languages) {
      const { number, formula } = language.plural;
      expect(formula, language.code).toMatch(/^[n0-9\s%=!<>&|?:()]+$/);
      if (number === 1) expect(formula).toBe('0');
      else expect(formula).toContain('n');
    }
    expect(unique(data.languages.map((l) => l.code))).toBe(true);
    expect(unique(data.languages.map((l) => l.plural.id))).toBe(true);
  });
});

describe('units', () => {
  it('has every state: 0, 10, 20, 30 and 100', () => {
    const states = new Set(data.units.map((u) => u.state));
    for (const state of [0, 10, 20, 30, 100]) expect(states, `state ${state}`).toContain(state);
  });

  it('approves (30) only in projects with translation review', () => {
    const reviewed = new Set(data.projects.filter((p) => p.translation_review).map((p) => p.id));
    const componentProject = new Map(data.components.map((c) => [c.id, c.projectId]));
    const translationComponent = new Map(data.translations.map((t) => [t.id, t.componentId]));
    for (const unit of data.units.filter((u) => u.state === 30)) {
      const project = componentProject.get(translationComponent.get(unit.translationId) ?? -1);
      expect(reviewed.has(project ?? -1), `unit ${unit.id}`).toBe(true);
    }
  });

  it('makes read-only (100) exactly the source-language units, whose target is their source', () => {
    for (const unit of data.units) {
      const isSource = languageOf(unit) === 'en';
      expect(unit.state === 100, `unit ${unit.id}`).toBe(isSource);
      if (isSource) {
        expect(unit.target).toEqual(unit.source);
        expect(unit.sourceUnitId).toBe(unit.id);
      }
    }
  });

  it('keeps targets consistent with states', () => {
    for (const unit of data.units) {
      if (unit.state === 0)
        expect(
          unit.target.every((t) => t === ''),
          `unit ${unit.id}`,
        ).toBe(true);
      if (unit.state >= 20)
        expect(
          unit.target.every((t) => t !== ''),
          `unit ${unit.id}`,
        ).toBe(true);
    }
    expect(data.units.find((u) => u.state === 0 && u.source.length === 1)?.target).toEqual(['']);
  });

  it('gives plural units as many target forms as the language has plural forms', () => {
    const plurals = new Map(data.languages.map((l) => [l.code, l.plural.number]));
    const pluralUnits = data.units.filter((u) => u.source.length > 1);
    expect(pluralUnits.length).toBeGreaterThan(500);
    for (const unit of pluralUnits) {
      expect(unit.target.length, `unit ${unit.id}`).toBe(plurals.get(languageOf(unit)));
    }
    for (const unit of data.units.filter((u) => u.source.length === 1)) expect(unit.target.length).toBe(1);
    expect(pluralUnits.some((u) => u.target.length === 6)).toBe(true);
  });

  it('computes id_hash and content_hash as Weblate does, some beyond 2^53', () => {
    let beyond = 0;
    for (const unit of data.units) {
      const expected = unitHash(unit.source, unit.context);
      if (unit.idHash !== expected || unit.contentHash !== expected) {
        throw new Error(`unit ${unit.id}: hash ${unit.idHash} is not calculateHash(source, context) = ${expected}`);
      }
      if (unit.idHash >= TWO_POW_53 || unit.idHash <= -TWO_POW_53) beyond++;
    }
    expect(beyond).toBeGreaterThan(data.units.length / 2);
    expect(data.units.some((u) => u.idHash < 0n)).toBe(true);
  });

  it('has unique ids and one unit per hash in each translation', () => {
    expect(unique(data.units.map((u) => u.id))).toBe(true);
    for (const [translationId, units] of byTranslation) {
      expect(unique(units.map((u) => u.idHash)), `translation ${translationId}`).toBe(true);
      expect(unique(units.map((u) => u.position)), `translation ${translationId}`).toBe(true);
    }
  });

  it('links every unit to the source unit with the same hash in its component', () => {
    const byId = new Map(data.units.map((u) => [u.id, u]));
    const translations = new Map(data.translations.map((t) => [t.id, t]));
    for (const unit of data.units) {
      const source = byId.get(unit.sourceUnitId);
      expect(source, `unit ${unit.id}`).toBeDefined();
      expect(source?.idHash).toBe(unit.idHash);
      const sourceTranslation = translations.get(source?.translationId ?? -1);
      expect(sourceTranslation?.languageCode).toBe('en');
      expect(sourceTranslation?.componentId).toBe(translations.get(unit.translationId)?.componentId);
    }
  });

  it('carries contexts, notes, locations, flags and previous sources from the catalogs', () => {
    expect(data.units.filter((u) => u.context !== '').length).toBeGreaterThan(100);
    expect(data.units.filter((u) => u.note !== '').length).toBeGreaterThan(100);
    expect(data.units.some((u) => u.note.includes('\n'))).toBe(true);
    expect(data.units.filter((u) => /\.py:\d+/.test(u.location)).length).toBeGreaterThan(1000);
    expect(data.units.filter((u) => u.flags.split(', ').includes('python-format')).length).toBeGreaterThan(100);
    const previous = data.units.filter((u) => u.previous_source !== '');
    expect(previous.length).toBeGreaterThan(0);
    for (const unit of previous) expect(unit.state).toBe(10);
  });

  it('counts words of the source', () => {
    for (const unit of data.units) {
      expect(unit.num_words).toBe((unit.source[0] ?? '').split(/\s+/).filter(Boolean).length);
    }
  });

  it('keeps hostile-looking markup as text', () => {
    expect(data.units.some((u) => u.note.includes('<b>'))).toBe(true);
    expect(data.units.some((u) => [u.note, u.explanation, ...u.source, ...u.target].some((s) => s.includes('<script>')))).toBe(true);
    expect(data.units.some((u) => u.source.some((s) => s.includes('<strong>')))).toBe(true);
  });

  it('timestamps every unit with microseconds', () => {
    for (const unit of data.units) expect(unit.timestamp).toMatch(ISO_MICROS);
  });
});

describe('projects, components and translations', () => {
  it('has Markdown instructions with CR LF, a private project and one with review', () => {
    expect(data.projects.some((p) => p.instructions.includes('\r\n') && /\*\*|^#|\[.+\]\(/m.test(p.instructions))).toBe(true);
    expect(data.projects.some((p) => p.private)).toBe(true);
    expect(data.projects.some((p) => !p.private)).toBe(true);
    expect(data.projects.some((p) => p.translation_review)).toBe(true);
    expect(unique(data.projects.map((p) => p.id))).toBe(true);
    expect(unique(data.projects.map((p) => p.slug))).toBe(true);
  });

  it('has real-looking repository fields and licences', () => {
    const gitComponents = data.components.filter((c) => c.vcs === 'git');
    expect(gitComponents.length).toBeGreaterThanOrEqual(8);
    for (const component of gitComponents) {
      expect(component.repo).toMatch(/^https:\/\/[^/]+\/.+\.git$/);
      expect(component.filemask).toContain('*');
      expect(component.file_format).toBe('po');
      expect(component.license).not.toBe('');
      expect(component.license_url).toMatch(/^https:\/\//);
    }
    expect(data.components.some((c) => ['{{branch}}', '{{filename}}', '{{line}}'].every((v) => c.repoweb.includes(v)))).toBe(true);
  });

  it('has a glossary component with short terms', () => {
    const glossary = data.components.find((c) => c.is_glossary);
    expect(glossary).toBeDefined();
    const terms = data.units.filter((u) => data.translations.find((t) => t.id === u.translationId)?.componentId === glossary?.id);
    expect(terms.length).toBeGreaterThan(100);
    expect(terms.every((u) => u.num_words <= 4)).toBe(true);
  });

  it('resolves every foreign key and gives each component one translation per language', () => {
    const projects = new Set(data.projects.map((p) => p.id));
    const languages = new Set(data.languages.map((l) => l.code));
    const components = new Set(data.components.map((c) => c.id));
    expect(unique(data.components.map((c) => c.id))).toBe(true);
    for (const component of data.components) {
      expect(projects.has(component.projectId)).toBe(true);
      expect(languages.has(component.sourceLanguage)).toBe(true);
      const own = data.translations.filter((t) => t.componentId === component.id);
      expect(unique(own.map((t) => t.languageCode)), component.slug).toBe(true);
      expect(own.filter((t) => t.languageCode === component.sourceLanguage)).toHaveLength(1);
      expect(own.length).toBeGreaterThan(10);
    }
    expect(unique(data.translations.map((t) => t.id))).toBe(true);
    for (const translation of data.translations) {
      expect(components.has(translation.componentId)).toBe(true);
      expect(languages.has(translation.languageCode)).toBe(true);
      expect(translation.revision).toMatch(/^[0-9a-f]{40}$/);
      expect(byTranslation.get(translation.id)?.length, `translation ${translation.id}`).toBeGreaterThan(0);
    }
    for (const unit of data.units) expect(byTranslation.has(unit.translationId)).toBe(true);
  });

  it('gives each translation the units of its component source, in the same positions', () => {
    for (const component of data.components) {
      const own = data.translations.filter((t) => t.componentId === component.id);
      const source = own.find((t) => t.languageCode === component.sourceLanguage);
      const expected = (byTranslation.get(source?.id ?? -1) ?? []).map((u) => `${u.position}:${u.idHash}`);
      for (const translation of own) {
        expect((byTranslation.get(translation.id) ?? []).map((u) => `${u.position}:${u.idHash}`)).toEqual(expected);
      }
    }
  });
});

describe('changes', () => {
  it('has ascending ids with strictly increasing timestamps', () => {
    expect(data.changes.length).toBeGreaterThan(1000);
    data.changes.forEach((change, index) => {
      expect(change.id).toBe(index + 1);
      expect(change.timestamp).toMatch(ISO_MICROS);
      if (index > 0) expect(change.timestamp > (data.changes[index - 1]?.timestamp ?? '')).toBe(true);
    });
  });

  it('has the actions of a real history, by users and by the system', () => {
    const actions = new Set(data.changes.map((c) => c.action));
    for (const action of [0, 2, 5, 17, 18, 21, 36, 37, 38, 50, 51, 59]) expect(actions, `action ${action}`).toContain(action);
    expect(data.changes.some((c) => c.user === null)).toBe(true);
    expect(new Set(data.changes.map((c) => c.user).filter((u) => u !== null)).size).toBeGreaterThan(5);
    const removed = data.changes.find((c) => c.action === 38);
    expect(removed?.componentId).toBeNull();
    expect(removed?.target).toMatch(/^[a-z0-9-]+$/);
    expect(data.components.some((c) => c.slug === removed?.target)).toBe(false);
    const updated = data.changes.find((c) => c.action === 59);
    const updatedUnit = data.units.find((u) => u.id === updated?.unitId);
    expect(updated?.target).toBe(updatedUnit?.source.join('\x1e\x1e'));
    expect(data.changes.filter((c) => c.action === 50)).toHaveLength(data.projects.length);
    expect(data.changes.filter((c) => c.action === 51)).toHaveLength(data.components.length);
  });

  it('resolves every unit, translation, component and user it names', () => {
    const units = new Map(data.units.map((u) => [u.id, u]));
    const translations = new Map(data.translations.map((t) => [t.id, t]));
    const components = new Set(data.components.map((c) => c.id));
    const users = new Set(data.users.map((u) => u.username));
    for (const change of data.changes) {
      if (change.user !== null) expect(users.has(change.user), `change ${change.id}`).toBe(true);
      if (change.author !== null) expect(users.has(change.author), `change ${change.id}`).toBe(true);
      if (change.componentId !== null) expect(components.has(change.componentId)).toBe(true);
      if (change.translationId !== null) {
        expect(translations.get(change.translationId)?.componentId).toBe(change.componentId);
      }
      if (change.unitId !== null) {
        expect(units.get(change.unitId)?.translationId, `change ${change.id}`).toBe(change.translationId);
      }
    }
  });

  it('approves only approved units and marks for edit only units needing edit', () => {
    const units = new Map(data.units.map((u) => [u.id, u]));
    for (const change of data.changes.filter((c) => c.action === 36)) expect(units.get(change.unitId ?? -1)?.state).toBe(30);
    for (const change of data.changes.filter((c) => c.action === 37)) expect(units.get(change.unitId ?? -1)?.state).toBe(10);
  });

  it('stamps changed units with their last change', () => {
    const last = new Map<number, string>();
    for (const change of data.changes) if (change.unitId !== null) last.set(change.unitId, change.timestamp);
    expect(last.size).toBeGreaterThan(100);
    for (const [unitId, timestamp] of last) expect(data.units.find((u) => u.id === unitId)?.timestamp).toBe(timestamp);
  });
});

describe('users and notifications', () => {
  it('has unique users', () => {
    expect(data.users.length).toBeGreaterThanOrEqual(5);
    expect(unique(data.users.map((u) => u.id))).toBe(true);
    expect(unique(data.users.map((u) => u.username))).toBe(true);
  });

  it('subscribes several users to every kind, at every scope and both frequencies', () => {
    const kinds = new Set(data.notifications.map((n) => n.notification));
    for (const kind of notificationKinds) expect(kinds, kind).toContain(kind);
    expect(notificationKinds).toHaveLength(19);
    expect(new Set(data.notifications.map((n) => n.scope))).toEqual(new Set([0, 10, 20, 40]));
    expect(new Set(data.notifications.map((n) => n.frequency))).toEqual(new Set([1, 2]));
    expect(new Set(data.notifications.map((n) => n.username)).size).toBeGreaterThanOrEqual(3);
    expect(unique(data.notifications.map((n) => n.id))).toBe(true);
  });

  it('scopes 40 to a component of its project, and nothing else to any', () => {
    const users = new Set(data.users.map((u) => u.username));
    for (const row of data.notifications) {
      expect(users.has(row.username)).toBe(true);
      if (row.scope === 40) {
        const component = data.components.find((c) => c.id === row.componentId);
        expect(component?.projectId).toBe(row.projectId);
      } else {
        expect(row.projectId).toBeNull();
        expect(row.componentId).toBeNull();
      }
    }
    const counts = new Map<string, number>();
    for (const row of data.notifications) counts.set(`${row.username}/${row.notification}`, (counts.get(`${row.username}/${row.notification}`) ?? 0) + 1);
    expect([...counts.values()].some((n) => n > 1)).toBe(true);
  });
});

describe('provenance', () => {
  it('records each Debian package with its version and checksum, also in the README', () => {
    const sources = JSON.parse(readFileSync(join(BUNDLED_DIR, 'sources.json'), 'utf8')) as { package: string; version: string; sha256: string }[];
    const readme = readFileSync(join(BUNDLED_DIR, '..', 'README.md'), 'utf8');
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const source of sources) {
      expect(source.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(readme).toContain(`${source.package}`);
      expect(readme).toContain(source.version);
    }
  });
});

describe('loadBundledRows', () => {
  const tempFolder = useTempFolders('tmsnap-bundled-', 'all');
  let dir: string;
  beforeAll(async () => {
    dir = await tempFolder();
  });

  it('returns hashes as bigint, exact past 2^53', () => {
    const unit = data.units.find((u) => u.idHash > TWO_POW_53);
    expect(typeof unit?.idHash).toBe('bigint');
    const text = readFileSync(join(BUNDLED_DIR, 'units', `${data.translations.find((t) => t.id === unit?.translationId)?.componentId}.json`), 'utf8');
    expect(text).toContain(`"idHash":${unit?.idHash.toString()},`);
  });

  it('names the file and the fix when the dataset is missing or broken', () => {
    expect(() => loadBundledRows(join(dir, 'nowhere'))).toThrow(/nowhere[/\\]instance\.json: cannot read.*make-bundled\.ts/);
    writeFileSync(join(dir, 'instance.json'), '{"languages": []}');
    expect(() => loadBundledRows(dir)).toThrow(/instance\.json: "users" is not an array/);
    const full = Object.fromEntries(['languages', 'users', 'projects', 'components', 'translations', 'notifications', 'changes'].map((k) => [k, []]));
    writeFileSync(join(dir, 'instance.json'), JSON.stringify(full));
    mkdirSync(join(dir, 'units'));
    writeFileSync(join(dir, 'units', '1.json'), '[{"id": 7, "idHash": "12"}]');
    expect(() => loadBundledRows(dir)).toThrow(/1\.json: unit 7 has no integer idHash/);
  });
});

describe('parsePo', () => {
  const po = [
    '# translator comment',
    'msgid ""',
    'msgstr ""',
    '"Language: ar\\n"',
    '"Plural-Forms: nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 "',
    '"&& n%100<=10 ? 3 : n%100>=11 ? 4 : 5;\\n"',
    '',
    '#. Translators: a note',
    '#. on two lines',
    '#: a.py:1 b.py:2',
    '#, python-format',
    'msgctxt "menu"',
    'msgid "Open %(name)s"',
    'msgstr "Ouvrir \\"%(name)s\\"\\t\\101"',
    '',
    '#, fuzzy, c-format',
    '#| msgid "%d old file"',
    '#| msgid_plural "%d old files"',
    'msgid "%d file"',
    'msgid_plural "%d files"',
    'msgstr[0] "one"',
    'msgstr[1] ""',
    '"two"',
    '',
    '#~ msgid "gone"',
    '#~ msgstr "parti"',
  ].join('\r\n');

  it('reads contexts, notes, locations, flags, escapes and continuation lines', () => {
    const instance = parsePo(po, 'x.po');
    expect(instance.headers.Language).toBe('ar');
    expect(parsePluralForms(instance.headers['Plural-Forms'] ?? '')).toEqual({
      number: 6,
      formula: 'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5',
    });
    expect(instance.entries).toHaveLength(2);
    expect(instance.entries[0]).toEqual({
      context: 'menu',
      source: ['Open %(name)s'],
      target: ['Ouvrir "%(name)s"\tA'],
      note: 'Translators: a note\non two lines',
      locations: ['a.py:1', 'b.py:2'],
      flags: ['python-format'],
      fuzzy: false,
      previousSource: [],
    });
  });

  it('reads plurals, fuzziness and previous sources, and skips obsolete entries', () => {
    const plural = parsePo(po, 'x.po').entries[1];
    expect(plural?.source).toEqual(['%d file', '%d files']);
    expect(plural?.target).toEqual(['one', 'two']);
    expect(plural?.fuzzy).toBe(true);
    expect(plural?.flags).toEqual(['c-format']);
    expect(plural?.previousSource).toEqual(['%d old file', '%d old files']);
  });

  it('names the file and line of a syntax error', () => {
    expect(() => parsePo('msgid "a"\nmsgstr "b"\nbogus line\n', 'bad.po')).toThrow(/^bad\.po:3: unexpected line "bogus line"$/);
    expect(() => parsePo('msgid "a\\q"\nmsgstr ""\n', 'esc.po')).toThrow(/esc\.po:1: unknown escape \\q/);
    expect(() => parsePo('"orphan"\n', 'o.po')).toThrow(/o\.po:1: string continuation without a keyword/);
  });
});

describe('buildInstance', () => {
  const core = COMPONENTS.find((c) => c.slug === 'core');
  if (core === undefined) throw new Error('spec.ts lost the core component');
  const entry = (source: string[], target: string[], extra: Partial<PoEntry> = {}): PoEntry => ({
    context: '',
    source,
    target,
    note: '',
    locations: ['x.py:1'],
    flags: [],
    fuzzy: false,
    previousSource: [],
    ...extra,
  });
  const sourceEntries = [entry(['Hello'], ['']), entry(['%d day', '%d days'], ['', '']), entry(['Bye'], [''], { context: 'farewell' })];
  const parsed: ParsedComponent[] = [
    {
      spec: core,
      sourceEntries,
      catalogs: new Map([
        ['ar', { headers: {}, entries: [entry(['Hello'], ['مرحبا']), entry(['%d day', '%d days'], ['a', 'b', 'c'])] }],
        ['de', { headers: {}, entries: [entry(['%d day', '%d days'], ['%d Tag', '%d Tage'], { fuzzy: true, previousSource: ['%d Tag'] })] }],
      ]),
    },
  ];
  const plurals = new Map(
    ['en', ...Object.keys(core.locales)].map((code) => [code, code === 'ar' ? { number: 6, formula: 'n' } : { number: 2, formula: 'n != 1' }]),
  );

  it('is deterministic: the same catalogs give the same rows', () => {
    const a = buildInstance(parsed, plurals);
    const b = buildInstance(parsed, plurals);
    expect(stringifyJson({ ...a, units: [...a.units] })).toBe(stringifyJson({ ...b, units: [...b.units] }));
  });

  it('derives states and fits plural forms to the language', () => {
    const instance = buildInstance(parsed, plurals);
    const units = [...instance.units.values()].flat();
    const of = (code: string) => {
      const translation = instance.translations.find((t) => t.languageCode === code);
      return units.filter((u) => u.translationId === translation?.id);
    };
    expect(of('en').map((u) => u.state)).toEqual([100, 100, 100]);
    const arabic = of('ar');
    expect(arabic[0]?.state === 20 || arabic[0]?.state === 30).toBe(true);
    expect(arabic[1]?.target).toEqual(['a', 'b', 'c', 'c', 'c', 'c']);
    expect(arabic[2]).toMatchObject({ state: 0, target: [''], context: 'farewell' });
    const german = of('de');
    expect(german[1]).toMatchObject({ state: 10, previous_source: '%d Tag', target: ['%d Tag', '%d Tage'] });
    expect(german[0]).toMatchObject({ state: 0, target: [''] });
    expect(new Set(units.map((u) => u.sourceUnitId))).toEqual(new Set(of('en').map((u) => u.id)));
  });
});
