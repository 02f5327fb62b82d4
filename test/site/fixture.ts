/**
 * A small instance written straight through the snapshot writer, for site tests: two
 * projects, an RTL language with six plural forms, 150 units in one translation (two unit
 * pages), and hostile strings in every place the site shows server text.
 */
import { openSnapshotWriter } from '../../snapshot/index.ts';
import { builders, languageFacts, unitCounts } from '../helpers/records.ts';

export const base = 'http://weblate.test/';
const build = builders(base, { time: '2026-11-20T10:00:00.000000Z', author: 'Jane Translator' });
const api = build.api;

export const hostile = {
  script: '<script>window.__pwned=1</script>',
  attribute: '"><img src=x onerror="window.__pwned=1">',
  link: 'javascript:window.__pwned=1',
};

const plurals = languageFacts;
type Code = keyof typeof plurals;

const language = (code: Code) => build.language(code, plurals[code].name, { ...plurals[code], aliases: code === 'ar' ? ['ar_AR'] : [] });

function project(slug: string, name: string, id: number, extra: { web: string; instructions: string }) {
  return build.project(slug, id, { name, ...extra });
}

function component(owner: ReturnType<typeof project>, slug: string, name: string, id: number, extra: { repoweb: string; license_url: string | null }) {
  return build.component(owner, slug, id, language('en'), { name, commit_message: '', ...extra });
}

export interface FixtureUnit {
  id: number;
  position: number;
  source: string[];
  target: string[];
  state: number;
  idHash: bigint;
  context?: string;
  note?: string;
  location?: string;
  labels?: unknown[];
}

function unit(translationUrl: string, u: FixtureUnit) {
  return build.unit(translationUrl, u.id, u.position, u.idHash, { ...u, location: u.location ?? '', sourceUnit: u.id });
}

function translation(owner: ReturnType<typeof component>, code: Code, id: number, units: FixtureUnit[]) {
  // 0 whatever the units: what this fixture has always stored, so its snapshots stay the same.
  return build.translation(owner, language(code), id, { ...unitCounts(units), fuzzy_percent: 0 });
}

/** The units of each translation, by language; the ids are what the tests look for. */
export function fixtureUnits(): Record<'en' | 'de' | 'ar' | 'pl', FixtureUnit[]> {
  const hash = (n: number) => BigInt(n) * 7_919_000_000_000_001n - 4_000_000_000_000_000_000n;
  const en: FixtureUnit[] = [];
  const de: FixtureUnit[] = [];
  for (let i = 1; i <= 150; i += 1) {
    const plural = i === 2;
    const source = plural ? ['%d file', '%d files'] : [`String number ${i}`];
    en.push({ id: 1000 + i, position: i, source, target: source, state: 100, idHash: hash(i) });
    de.push({
      id: 2000 + i,
      position: i,
      source,
      target: i === 1 ? [hostile.script] : i === 3 ? [hostile.attribute] : plural ? ['%d Datei', '%d Dateien'] : i % 3 === 0 ? [''] : [`Zeichenkette ${i}`],
      state: i === 1 || i === 3 || i % 3 !== 0 ? (i % 5 === 0 ? 10 : 20) : 0,
      idHash: hash(i),
      context: i === 1 ? hostile.attribute : '',
      note: i === 1 ? `${hostile.script}\nsecond line` : '',
      location: i === 1 ? 'src/app.c:42, src/other.c:7' : '',
      labels: i === 1 ? [{ name: hostile.script, color: 'red' }] : [],
    });
  }
  const ar: FixtureUnit[] = [
    { id: 3001, position: 1, source: ['String number 1'], target: ['سلسلة رقم ١'], state: 20, idHash: hash(1) },
    {
      id: 3002,
      position: 2,
      source: ['%d file', '%d files'],
      target: ['لا ملفات', 'ملف واحد', 'ملفان', '%d ملفات', '%d ملفًا', '%d ملف'],
      state: 20,
      idHash: hash(2),
    },
    { id: 3003, position: 3, source: ['String number 3'], target: [''], state: 0, idHash: hash(3) },
  ];
  const pl: FixtureUnit[] = [{ id: 4001, position: 1, source: ['Other'], target: ['Inny'], state: 30, idHash: hash(500) }];
  return { en, de, ar, pl };
}

/**
 * Writes the fixture instance as one complete snapshot into `contentDir`; returns its id.
 * `edits` replace the target and state of units by id: successive snapshots of one string.
 */
export async function writeFixtureSnapshot(contentDir: string, edits: ReadonlyMap<number, { target: string[]; state: number }> = new Map()): Promise<string> {
  const writer = await openSnapshotWriter(contentDir, { baseUrl: `${base}api/`, scope: {}, tmsnapVersion: 'test', resume: false });
  const demo = project('demo', 'Demo', 1, {
    web: 'https://example.org/',
    instructions: `Read **this**.\r\n\r\n${hostile.script}\r\n\r\n[click](${hostile.link}) [docs](https://docs.example.org/)`,
  });
  const evil = project('evil-project', `Evil ${hostile.attribute}`, 2, { web: hostile.link, instructions: '' });
  const core = component(demo, 'core', 'Core', 10, {
    repoweb: 'https://git.example.org/demo/blob/{{branch}}/{{filename}}#L{{line}}',
    license_url: 'https://spdx.org/licenses/MIT.html',
  });
  const docs = component(demo, 'docs', 'Docs', 11, { repoweb: '', license_url: null });
  const evilComponent = component(evil, 'x', `X ${hostile.script}`, 12, { repoweb: `${hostile.link}/{{filename}}`, license_url: hostile.link });
  const units = fixtureUnits();
  for (const list of Object.values(units)) for (const u of list) Object.assign(u, edits.get(u.id));
  for (const code of ['en', 'de', 'ar', 'pl'] as const) await writer.putRecord(api(`languages/${code}/`), language(code));
  for (const p of [demo, evil]) await writer.putRecord(p.url, p);
  for (const c of [core, docs, evilComponent]) await writer.putRecord(c.url, c);
  const translations = [
    [core, 'en', 100, units.en],
    [core, 'de', 101, units.de],
    [core, 'ar', 102, units.ar],
    [docs, 'pl', 103, units.pl],
    [evilComponent, 'de', 104, []],
  ] as const;
  for (const [comp, code, id, list] of translations) {
    const record = translation(comp, code, id, [...list]);
    await writer.putRecord(record.url, record);
    await writer.putUnits(
      record.url,
      list.map((u) => unit(record.url, u)),
    );
  }
  await writer.putFile(
    api('translations/demo/core/de/'),
    new TextEncoder().encode('msgid "x"\nmsgstr "<script>window.__pwned=1</script>"\n'),
    'text/x-gettext-catalog',
  );
  const change = (id: number, action: number, target: string, user: string | null, unit: number | null = null, language: Code = 'de') =>
    build.change(id, action, core.url, api(`translations/demo/core/${language}/`), {
      unit: unit === null ? null : api(`units/${unit}/`),
      user: user === null ? null : api(`users/${user}/`),
      timestamp: `2026-11-${String(10 + (id % 10)).padStart(2, '0')}T10:00:00.000000Z`,
      action_name: 'whatever the server said',
      target,
    });
  await writer.putChanges([
    ...Array.from({ length: 130 }, (_, i) => change(i + 1, i % 2 === 0 ? 2 : 59, `change ${i + 1}`, i % 4 === 0 ? 'jane' : null)),
    change(131, 999, hostile.script, 'jane'),
    // Another chunk of the log (chunks hold 1000 ids): the first changes page spans two.
    change(1500, 59, 'change 1500', null),
    // Changes naming their string, plural forms joined as Weblate joins them.
    change(1501, 2, '%d Datei\x1e\x1e%d Dateien', 'jane', 2002),
    change(1502, 2, units.ar[1]!.target.join('\x1e\x1e'), 'jane', 3002, 'ar'),
  ]);
  await writer.putRecord(api('users/jane/notifications/'), [
    { id: 1, notification: 'SecretSubscriptionNotification', scope: 40, frequency: 1, project: demo, component: core },
  ]);
  const finished = await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true });
  return finished.id;
}

/** The record builders, for tests that write their own instance (test/site/raw-records.test.ts). */
export const fixtureRecords = { api, language, project, component, translation, unit };
