import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { change, component, language, notification, page, parseJson, project, translation, unit as unitSchema, user } from '../../api/index.ts';
import { unitHash } from '../../packages/reference-server/hash.ts';
import type { Model, UnitRow } from '../../packages/reference-server/model.ts';
import { type ReferenceServer, startReferenceServer } from '../../packages/reference-server/server.ts';
import { countUnits, noCounts } from '../../packages/reference-server/statistics.ts';
import { createSyntheticModel, parseSyntheticSpec } from '../../packages/reference-server/synthetic/index.ts';

const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function model(text: string): Model {
  return createSyntheticModel(parseSyntheticSpec(text));
}

function allUnits(m: Model): UnitRow[] {
  return m.translations().flatMap((t) => m.units(t.id, 0, m.unitCount(t.id)));
}

/** Rows as plain values, hashes included (they are lazy getters on the rows). */
function plain(units: readonly UnitRow[]): unknown[] {
  return units.map((row) => ({ ...row, idHash: row.idHash, contentHash: row.contentHash }));
}

describe('parseSyntheticSpec', () => {
  it('fills omitted keys with the documented defaults', () => {
    expect(parseSyntheticSpec('synthetic:')).toEqual({ projects: 3, components: 4, languages: 10, units: 20_000, seed: 1 });
    expect(parseSyntheticSpec('')).toEqual(parseSyntheticSpec('synthetic:'));
  });

  it('reads every key in any order, with or without the synthetic: prefix', () => {
    const spec = { projects: 2, components: 5, languages: 7, units: 1_000_000, seed: 42 };
    expect(parseSyntheticSpec('synthetic:projects=2,components=5,languages=7,units=1000000,seed=42')).toEqual(spec);
    expect(parseSyntheticSpec('seed=42,units=1000000,languages=7,components=5,projects=2')).toEqual(spec);
  });

  it.each([
    ['units=abc', 'synthetic: "units" must be a whole number from 1 to 100000000, got "abc"'],
    ['units=1.5', 'synthetic: "units" must be a whole number from 1 to 100000000, got "1.5"'],
    ['units=-3', 'synthetic: "units" must be a whole number from 1 to 100000000, got "-3"'],
    ['projects=0', 'synthetic: "projects" must be a whole number from 1 to 1000, got "0"'],
    ['languages=200', 'synthetic: "languages" must be a whole number from 1 to 107, got "200"'],
    ['seed=4294967296', 'synthetic: "seed" must be a whole number from 0 to 4294967295, got "4294967296"'],
    ['unit=5', 'synthetic: unknown key "unit" in "unit=5"; the keys are projects, components, languages, units, seed, as in synthetic:projects=3,units=20000'],
    ['units', 'synthetic: "units" needs one value, as in units=20000, got "units"'],
    ['units=', 'synthetic: "units" needs one value, as in units=20000, got "units="'],
    ['units=5=6', 'synthetic: "units" needs one value, as in units=20000, got "units=5=6"'],
    ['seed=1,seed=2', 'synthetic: "seed" is given twice'],
    [
      'projects=2,components=3,languages=4,units=29',
      'synthetic: "units" (29) must be at least the number of translations, projects × components × (languages + 1) = 30, so that none is empty',
    ],
    [
      'projects=1000,components=1000,languages=1',
      'synthetic: projects × components × (languages + 1) = 2000000 translations, more than the 100000 allowed; lower one of them',
    ],
  ])('refuses %s with a message naming the key and what it expects', (text, message) => {
    expect(() => parseSyntheticSpec(text)).toThrow(message);
  });
});

describe('createSyntheticModel: shape', () => {
  it('is deterministic: the same spec gives the same everything', () => {
    const spec = 'projects=2,components=3,languages=6,units=3000,seed=9';
    const [a, b] = [model(spec), model(spec)];
    expect(b.projects()).toEqual(a.projects());
    expect(b.components()).toEqual(a.components());
    expect(b.translations()).toEqual(a.translations());
    expect(b.users()).toEqual(a.users());
    expect(b.notifications()).toEqual(a.notifications());
    expect(plain(allUnits(b))).toEqual(plain(allUnits(a)));
    expect(b.changes(0, b.changeCount())).toEqual(a.changes(0, a.changeCount()));
  });

  it('gives different content for a different seed, with the same counts', () => {
    const a = model('projects=2,components=3,languages=6,units=3000,seed=1');
    const b = model('projects=2,components=3,languages=6,units=3000,seed=2');
    expect(b.translations().length).toBe(a.translations().length);
    expect(b.changeCount()).toBe(a.changeCount());
    const sources = (m: Model) => allUnits(m).map((row) => row.source.join('|'));
    expect(sources(b)).not.toEqual(sources(a));
  });

  it.each([
    'projects=1,components=1,languages=1,units=2',
    'projects=2,components=3,languages=4,units=30',
    'projects=2,components=3,languages=4,units=1001',
    'projects=3,components=5,languages=13,units=12347,seed=5',
  ])('has exactly the counts of %s', (text) => {
    const spec = parseSyntheticSpec(text);
    const m = createSyntheticModel(spec);
    expect(m.projects()).toHaveLength(spec.projects);
    expect(m.components()).toHaveLength(spec.projects * spec.components);
    expect(m.translations()).toHaveLength(spec.projects * spec.components * (spec.languages + 1));
    const total = m.translations().reduce((sum, t) => sum + m.unitCount(t.id), 0);
    expect(total).toBe(spec.units);
    expect(m.translations().every((t) => m.unitCount(t.id) >= 1)).toBe(true);
    expect(allUnits(m)).toHaveLength(spec.units);
    // Unit ids are 1..units, each once.
    expect(new Set(allUnits(m).map((row) => row.id)).size).toBe(spec.units);
    expect(m.unit(spec.units)).toBeDefined();
    expect(m.unit(spec.units + 1)).toBeUndefined();
    expect(m.unit(0)).toBeUndefined();
  });

  it('gives every component an English source translation and the first L languages of the table', () => {
    const m = model('projects=1,components=2,languages=9,units=500');
    for (const c of m.components()) {
      const codes = m
        .translations()
        .filter((t) => t.componentId === c.id)
        .map((t) => t.languageCode);
      expect(c.sourceLanguage).toBe('en');
      expect(codes).toEqual(['en', 'de', 'fr', 'ar', 'ja', 'ru', 'pl', 'he', 'zh_Hans', 'sr@latin']);
    }
  });

  it('makes the last component of each project its glossary when there are two or more', () => {
    const glossaries = (m: Model) => m.components().filter((c) => c.is_glossary);
    const m = model('projects=3,components=4,languages=2,units=2000');
    expect(glossaries(m).map((c) => c.projectId)).toEqual([1, 2, 3]);
    expect(glossaries(model('projects=3,components=1,languages=2,units=2000'))).toEqual([]);
    const slugs = m.components().map((c) => `${c.projectId}/${c.slug}`);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it('serves a language table of 50+ real languages with their plural rules and directions', () => {
    const languages = new Map(
      model('units=20000')
        .languages()
        .map((l) => [l.code, l]),
    );
    expect(languages.size).toBeGreaterThanOrEqual(50);
    const expected: [string, number, string][] = [
      ['ar', 6, 'rtl'],
      ['he', 4, 'rtl'],
      ['fa', 2, 'rtl'],
      ['ja', 1, 'ltr'],
      ['zh_Hans', 1, 'ltr'],
      ['zh_Hant', 1, 'ltr'],
      ['ko', 1, 'ltr'],
      ['ru', 3, 'ltr'],
      ['pl', 3, 'ltr'],
      ['sr@latin', 3, 'ltr'],
      ['de', 2, 'ltr'],
      ['fr', 2, 'ltr'],
      ['es', 2, 'ltr'],
      ['pt_BR', 2, 'ltr'],
      ['cy', 6, 'ltr'],
      ['ga', 5, 'ltr'],
    ];
    for (const [code, forms, direction] of expected) {
      expect(languages.get(code)?.plural.number, code).toBe(forms);
      expect(languages.get(code)?.direction, code).toBe(direction);
    }
    expect(languages.get('ar')?.plural.formula).toBe('n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5');
    expect(languages.get('fr')?.plural.formula).toBe('n > 1');
  });
});

describe('createSyntheticModel: units', () => {
  const m = model('projects=2,components=4,languages=20,units=30000,seed=3');
  const units = allUnits(m);
  const byId = new Map(units.map((row) => [row.id, row]));
  const translationById = new Map(m.translations().map((t) => [t.id, t]));
  const languageOf = (row: UnitRow) => translationById.get(row.translationId)?.languageCode ?? '';
  const formsOf = new Map(m.languages().map((l) => [l.code, l.plural.number]));

  it('reads the same rows whatever the window', () => {
    for (const t of [m.translations()[0], m.translations()[5], m.translations().at(-1)]) {
      if (!t) throw new Error('no translation');
      const twenty = m.units(t.id, 0, 20);
      expect(plain([...m.units(t.id, 0, 10), ...m.units(t.id, 10, 10)])).toEqual(plain(twenty));
      for (const row of twenty) expect(plain([m.unit(row.id) as UnitRow])).toEqual(plain([row]));
      const count = m.unitCount(t.id);
      expect(m.units(t.id, count - 3, 10)).toHaveLength(3);
      expect(m.units(t.id, count, 10)).toEqual([]);
      expect(m.units(t.id, 0, count).map((row) => row.id)).toEqual(
        m
          .units(t.id, 0, count)
          .map((row) => row.id)
          .sort((a, b) => a - b),
      );
    }
    expect(m.units(0, 0, 10)).toEqual([]);
    expect(m.unitCount(m.translations().length + 1)).toBe(0);
  });

  it('has every state, approved only where the project reviews translations', () => {
    const states = new Set(units.map((row) => row.state));
    expect([...states].sort((a, b) => a - b)).toEqual([0, 10, 20, 30, 100]);
    const reviewing = new Set(
      m
        .projects()
        .filter((p) => p.translation_review)
        .map((p) => p.id),
    );
    const projectOfComponent = new Map(m.components().map((c) => [c.id, c.projectId]));
    for (const row of units.filter((u) => u.state === 30)) {
      const t = translationById.get(row.translationId);
      expect(reviewing.has(projectOfComponent.get(t?.componentId ?? 0) ?? 0)).toBe(true);
    }
  });

  it('writes states the way Weblate does: empty targets at 0, source text in read-only units', () => {
    for (const row of units) {
      if (row.state === 0) expect(row.target.every((form) => form === '')).toBe(true);
      else expect(row.target.every((form) => form !== '')).toBe(true);
      if (languageOf(row) === 'en') expect([row.state, row.target]).toEqual([100, row.source]);
      if (row.state === 100) expect(row.target).toEqual(row.source);
      expect(row.timestamp).toMatch(ISO_MICROS);
    }
  });

  it('gives plural units as many target forms as the language has, and one to the rest', () => {
    const plurals = units.filter((row) => row.source.length > 1);
    expect(plurals.length).toBeGreaterThan(units.length * 0.03);
    for (const row of plurals.filter((u) => u.state !== 100)) {
      expect(row.source).toHaveLength(2);
      expect(row.target, languageOf(row)).toHaveLength(formsOf.get(languageOf(row)) ?? -1);
    }
    const arabicPlural = plurals.find((row) => languageOf(row) === 'ar' && row.state >= 10 && row.state < 100);
    expect(arabicPlural?.target).toHaveLength(6);
    for (const row of units.filter((u) => u.source.length === 1)) expect(row.target).toHaveLength(1);
  });

  it('writes each target language in its own script', () => {
    // Every translated text is in the script; Latin ones also use their letters with diacritics somewhere.
    const scripts: [string, RegExp, RegExp][] = [
      ['ar', /\p{Script=Arabic}/u, /\p{Script=Arabic}/u],
      ['fa', /\p{Script=Arabic}/u, /[پگژچ]/],
      ['he', /\p{Script=Hebrew}/u, /\p{Script=Hebrew}/u],
      ['ru', /\p{Script=Cyrillic}/u, /\p{Script=Cyrillic}/u],
      ['uk', /\p{Script=Cyrillic}/u, /[іїєґ]/],
      ['ja', /\p{Script=Katakana}|\p{Script=Han}/u, /\p{Script=Hiragana}/u],
      ['zh_Hans', /\p{Script=Han}/u, /[关设删]/],
      ['zh_Hant', /\p{Script=Han}/u, /[關設刪]/],
      ['ko', /\p{Script=Hangul}/u, /\p{Script=Hangul}/u],
      ['hi', /\p{Script=Devanagari}/u, /\p{Script=Devanagari}/u],
      ['fr', /\p{Script=Latin}/u, /[àâçéèêëîïôûùüÿœ]/],
      ['de', /\p{Script=Latin}/u, /[äöüß]/i],
      ['pl', /\p{Script=Latin}/u, /[ąćęłńóśźż]/],
      ['cs', /\p{Script=Latin}/u, /[áčďéěíňóřšťúůýž]/],
      ['sr@latin', /\p{Script=Latin}/u, /[čćđšž]/],
    ];
    for (const [code, script, letters] of scripts) {
      const targets = units.filter((row) => languageOf(row) === code && row.state >= 10 && row.state < 100).map((row) => row.target.join(' '));
      expect(targets.length, code).toBeGreaterThan(0);
      expect(
        targets.filter((text) => !script.test(text)),
        code,
      ).toEqual([]);
      expect(
        targets.some((text) => letters.test(text)),
        code,
      ).toBe(true);
    }
  });

  it('has contexts, notes, locations, flags, markup and multi-line text', () => {
    const share = (test: (row: UnitRow) => boolean) => units.filter(test).length / units.length;
    expect(share((row) => row.context !== '')).toBeGreaterThan(0.05);
    expect(share((row) => row.note !== '')).toBeGreaterThan(0.15);
    expect(share((row) => row.note.includes('\n'))).toBeGreaterThan(0);
    expect(share((row) => /\.c:\d+/.test(row.location))).toBeGreaterThan(0.4);
    expect(share((row) => row.flags.includes('c-format'))).toBeGreaterThan(0.05);
    expect(share((row) => row.flags.includes('read-only'))).toBeGreaterThan(0);
    expect(share((row) => /<[a-z]+[ >]/.test(row.source[0] ?? ''))).toBeGreaterThan(0);
    expect(share((row) => row.source[0]?.includes('\n') ?? false)).toBeGreaterThan(0);
    expect(share((row) => row.previous_source !== '')).toBeGreaterThan(0);
    expect(share((row) => row.explanation !== '')).toBeGreaterThan(0);
  });

  it('computes id_hash and content_hash the way Weblate does, shared by every translation of a string', () => {
    const sample = units.filter((_, index) => index % 7 === 0);
    for (const row of sample) {
      expect(row.idHash).toBe(unitHash(row.source, row.context));
      expect(row.contentHash).toBe(row.idHash);
      const source = byId.get(row.sourceUnitId);
      expect(languageOf(source as UnitRow)).toBe('en');
      expect(source?.idHash).toBe(row.idHash);
      expect(source?.position).toBe(row.position);
    }
    expect(units.some((row) => row.idHash > 2n ** 53n || row.idHash < -(2n ** 53n))).toBe(true);
    for (const t of m.translations()) {
      const rows = m.units(t.id, 0, m.unitCount(t.id));
      expect(new Set(rows.map((row) => row.idHash)).size, t.languageCode).toBe(rows.length);
      expect(new Set(rows.map((row) => row.position)).size).toBe(rows.length);
    }
    const source = units.find((row) => languageOf(row) === 'en');
    expect(source?.sourceUnitId).toBe(source?.id);
  });

  it('orders files differently from ids now and then, as after strings were inserted', () => {
    expect(units.some((row) => row.position !== row.id - (m.units(row.translationId, 0, 1)[0]?.id ?? 0) + 1)).toBe(true);
  });
});

describe('createSyntheticModel: changes, users, notifications', () => {
  const m = model('projects=2,components=3,languages=5,units=2400,seed=11');
  const changes = m.changes(0, m.changeCount());
  const units = allUnits(m);

  it('records setup events, then exactly one change per unit carrying its timestamp', () => {
    const spec = parseSyntheticSpec('projects=2,components=3,languages=5,units=2400');
    const setup = spec.projects * (1 + spec.components * (1 + spec.languages));
    expect(m.changeCount()).toBe(setup + spec.units);
    expect(changes.map((c) => c.id)).toEqual(Array.from({ length: changes.length }, (_, i) => i + 1));
    expect(
      changes
        .slice(0, setup)
        .map((c) => c.action)
        .filter((a) => a === 50),
    ).toHaveLength(spec.projects);
    expect(changes.slice(0, setup).filter((c) => c.action === 51)).toHaveLength(spec.projects * spec.components);
    const unitChanges = changes.slice(setup);
    expect(unitChanges.every((c) => c.unitId !== null)).toBe(true);
    expect(new Set(unitChanges.map((c) => c.unitId)).size).toBe(spec.units);
    const timeOf = new Map(unitChanges.map((c) => [c.unitId, c.timestamp]));
    for (const row of units) expect(timeOf.get(row.id)).toBe(row.timestamp);
  });

  it('numbers changes in time order, a string added before it is translated', () => {
    const times = changes.map((c) => c.timestamp);
    expect(times).toEqual([...times].sort());
    const first = Date.parse(times[0] ?? '');
    expect(Date.parse(times.at(-1) ?? '') - first).toBeGreaterThan(300 * 24 * 3600 * 1000);
    const byId = new Map(units.map((row) => [row.id, row]));
    for (const row of units) expect(row.timestamp >= (byId.get(row.sourceUnitId)?.timestamp ?? '')).toBe(true);
  });

  it('gives each change an action matching the unit state, and users only to human actions', () => {
    const byId = new Map(units.map((row) => [row.id, row]));
    const usernames = new Set(m.users().map((u) => u.username));
    for (const c of changes) {
      if (c.user !== null) expect(usernames.has(c.user)).toBe(true);
      if (c.unitId === null) continue;
      const row = byId.get(c.unitId) as UnitRow;
      expect(c.translationId).toBe(row.translationId);
      if (row.state === 0) expect(c.action).toBe(71);
      if (row.state === 30) expect([c.action, c.target]).toEqual([36, row.target[0]]);
      if (row.state === 10) expect(c.action).toBe(37);
      expect(c.user === null).toBe([13, 59, 71].includes(c.action));
    }
    const windowed = [...m.changes(0, 7), ...m.changes(7, 7)];
    expect(windowed).toEqual(m.changes(0, 14));
    expect(m.changes(m.changeCount() - 2, 10)).toHaveLength(2);
  });

  it('has notification subscriptions at every scope, pointing at real users, projects and components', () => {
    const notifications = m.notifications();
    expect(new Set(notifications.map((n) => n.scope))).toEqual(new Set([0, 10, 20, 30, 40]));
    const usernames = new Set(m.users().map((u) => u.username));
    const components = new Map(m.components().map((c) => [c.id, c]));
    for (const n of notifications) {
      expect(usernames.has(n.username)).toBe(true);
      if (n.scope === 40) expect(components.get(n.componentId ?? 0)?.projectId).toBe(n.projectId);
      if (n.scope < 30) expect([n.projectId, n.componentId]).toEqual([null, null]);
    }
  });
});

describe('createSyntheticModel: unitCounts', () => {
  it.each(['projects=1,components=2,languages=3,units=60,seed=2', 'projects=2,components=4,languages=20,units=30000,seed=3'])(
    'equals counting the generated rows of every translation (%s)',
    (text) => {
      const m = model(text);
      for (const t of m.translations()) expect(m.unitCounts?.(t.id), `translation ${t.id}`).toEqual(countUnits(m.units(t.id, 0, m.unitCount(t.id))));
    },
  );

  it('counts nothing for a translation that does not exist', () => {
    const m = model('projects=1,components=2,languages=3,units=60,seed=2');
    expect(m.unitCounts?.(0)).toEqual(noCounts);
    expect(m.unitCounts?.(m.translations().length + 1)).toEqual(noCounts);
  });

  it('is what the server answers statistics from, and agrees with the rows', async () => {
    const m = model('projects=1,components=2,languages=3,units=600,seed=5');
    const asked: number[] = [];
    const counting: Model = { ...m, unitCounts: (id) => (asked.push(id), m.unitCounts!(id)) };
    const server = await startReferenceServer({ profile: 'ideal', model: counting, host: '127.0.0.1', port: 0 });
    try {
      const t = m.translations().at(-1)!;
      const c = m.components().find((row) => row.id === t.componentId)!;
      const p = m.projects().find((row) => row.id === c.projectId)!;
      const response = await fetch(`${server.url}translations/${p.slug}/${c.slug}/${t.languageCode}/statistics/`);
      const body = (await response.json()) as Record<string, number>;
      const rows = countUnits(m.units(t.id, 0, m.unitCount(t.id)));
      expect(asked).toContain(t.id);
      expect([body.total, body.translated, body.fuzzy, body.approved, body.readonly, body.failing, body.suggestions, body.comments]).toEqual([
        rows.total,
        rows.translated,
        rows.fuzzy,
        rows.approved,
        rows.readonly,
        rows.failing,
        rows.suggestions,
        rows.comments,
      ]);
      expect(rows.translated + rows.fuzzy).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

describe('user statistics over HTTP', () => {
  it("count each user's translations and languages from the change log, for every user", async () => {
    const m = model('projects=2,components=3,languages=6,units=3000,seed=8');
    const codeOf = new Map(m.translations().map((t) => [t.id, t.languageCode]));
    const server = await startReferenceServer({ profile: 'ideal', model: m, host: '127.0.0.1', port: 0 });
    try {
      let someone = 0;
      for (const user of m.users()) {
        const theirs = m.changes(0, m.changeCount()).filter((row) => row.author === user.username && (row.action === 2 || row.action === 5));
        const body = (await (await fetch(`${server.url}users/${user.username}/statistics/`)).json()) as Record<string, number>;
        expect(body, user.username).toMatchObject({
          translated: theirs.length,
          languages: new Set(theirs.map((row) => codeOf.get(row.translationId ?? 0))).size,
        });
        someone = Math.max(someone, theirs.length);
      }
      expect(someone).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

describe('createSyntheticModel: a million units', () => {
  it('starts and reads windows near the end without materializing the instance', () => {
    const before = process.memoryUsage().heapUsed;
    const m = model('projects=4,components=5,languages=20,units=1000000,seed=7');
    const last = m.translations().at(-1);
    if (!last) throw new Error('no translation');
    const count = m.unitCount(last.id);
    const tail = m.units(last.id, count - 200, 1000);
    expect(tail).toHaveLength(200);
    expect(tail.at(-1)?.id).toBe(1_000_000);
    expect(m.unit(999_999)?.id).toBe(999_999);
    expect(plain([m.unit(999_999) as UnitRow])).toEqual(plain([tail.at(-2) as UnitRow]));
    const lastChanges = m.changes(m.changeCount() - 500, 500);
    expect(lastChanges).toHaveLength(500);
    // A crawl reads page after page: the bounded string cache must not keep them all.
    for (const t of m.translations().slice(0, 40)) m.units(t.id, 0, m.unitCount(t.id)).forEach((row) => row.idHash);
    const growth = process.memoryUsage().heapUsed - before;
    expect(growth).toBeLessThan(200 * 1024 * 1024);
  });
});

// TODO(issue 9): default to weblate-5.4 once the crawler takes real shapes (these parse with its schemas)
describe('a synthetic instance over HTTP', () => {
  let server: ReferenceServer;
  const m = model('projects=2,components=3,languages=6,units=900,seed=4');

  beforeAll(async () => {
    server = await startReferenceServer({ profile: 'ideal', model: m, host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  async function get<T extends z.ZodType>(url: string, schema: T): Promise<z.infer<T>> {
    const response = await fetch(url, { headers: { Accept: 'application/json' } });
    expect(response.status, url).toBe(200);
    const text = await response.text();
    let json: unknown;
    try {
      json = parseJson(text);
    } catch (error) {
      throw new Error(`${url}: ${String(error)} in ${JSON.stringify(text.slice(250, 350))}`);
    }
    const result = schema.safeParse(json);
    if (!result.success) throw new Error(`${url}: ${result.error.message}`);
    return result.data;
  }

  it('validates against the crawler schemas, resource by resource', async () => {
    const projects = await get(`${server.url}projects/?page_size=1000`, page(project));
    expect(projects.results.map((p) => p.slug)).toEqual(m.projects().map((p) => p.slug));
    await get(`${server.url}languages/?page_size=1000`, page(language));
    await get(`${server.url}users/?page_size=1000`, page(user));
    const components = await get(`${server.url}components/?page_size=1000`, page(component));
    expect(components.count).toBe(m.components().length);
    for (const c of components.results) {
      const detail = await get(c.url, component);
      expect(detail.is_glossary).toBe(c.is_glossary);
    }
    const first = m.translations()[3];
    const firstComponent = m.components().find((c) => c.id === first?.componentId);
    const firstProject = m.projects().find((p) => p.id === firstComponent?.projectId);
    const translationUrl = `${server.url}translations/${firstProject?.slug}/${firstComponent?.slug}/${first?.languageCode}/`;
    const t = await get(translationUrl, translation);
    expect(t.total).toBe(m.unitCount(first?.id ?? 0));
    const unitsUrl = new URL(t.units_list_url);
    unitsUrl.search = '?page_size=1000';
    const units = await get(unitsUrl.href, page(unitSchema));
    expect(units.count).toBe(t.total);
    const expected = m.units(first?.id ?? 0, 0, 1000);
    expect(units.results.map((u) => [u.id, u.id_hash, u.state])).toEqual(expected.map((u) => [u.id, u.idHash, u.state]));
    await get(`${server.url}units/${m.translations().length}/`, unitSchema);
    const changes = await get(`${server.url}changes/?page_size=1000`, page(change));
    expect(changes.count).toBe(m.changeCount());
    const subscriber = m.notifications()[0]?.username;
    await get(`${server.url}users/${subscriber}/notifications/`, page(notification));
  });
});
