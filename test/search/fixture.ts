/**
 * A small multilingual instance written through the snapshot writer, for search tests: Latin
 * with diacritics (de, pl), Cyrillic (ru), Arabic (right-to-left, six plural forms), Japanese,
 * sources repeated across components, and a hostile target.
 */
import { openSnapshotWriter } from '../../snapshot/index.ts';
import { builders, languageFacts, unitCounts } from '../helpers/records.ts';

export const base = 'http://weblate.test/';
const build = builders(base, { time: '2026-11-20T10:00:00.000000Z', author: 'Jane Translator' });
const api = build.api;

export const hostileTarget = '<img src=x onerror="window.__pwned=1">';

export type Code = 'en' | 'de' | 'pl' | 'ru' | 'ar' | 'ja';

/** Each string: its source forms and, per language, its target forms and state; where it has a failing check or a suggestion. */
interface FixtureString {
  source: string[];
  targets: Partial<Record<Exclude<Code, 'en'>, [string[], number]>>;
  checks?: Code[];
  suggestions?: Code[];
}

// In two components: a search for it finds both.
const saveAs: FixtureString = {
  source: ['Save as…'],
  targets: {
    de: [['Speichern unter…'], 20],
    pl: [['Zapisz jako…'], 20],
    ru: [['Сохранить как…'], 20],
    ar: [['حفظ باسم…'], 20],
    ja: [['名前を付けて保存…'], 20],
  },
};
const editor: FixtureString[] = [
  saveAs,
  {
    source: ['Save all files as a new template'],
    targets: {
      de: [['Alle Dateien als neue Vorlage speichern'], 20],
      pl: [['Zapisz wszystkie pliki jako nowy szablon'], 20],
      ru: [['Сохранить все файлы как новый шаблон'], 20],
      ar: [['حفظ كل الملفات كقالب جديد'], 20],
      ja: [['すべてのファイルを新しいテンプレートとして保存'], 20],
    },
  },
  {
    source: ['Open file'],
    targets: { de: [['Datei öffnen'], 20], pl: [['Otwórz plik'], 20], ru: [['Открыть файл'], 20], ar: [['فتح ملف'], 20], ja: [['ファイルを開く'], 20] },
  },
  {
    source: ['%d file', '%d files'],
    targets: {
      de: [['%d Datei', '%d Dateien'], 20],
      pl: [['%d plik', '%d pliki', '%d plików'], 20],
      ru: [['%d файл', '%d файла', '%d файлов'], 20],
      ar: [['لا ملفات', 'ملف واحد', 'ملفان', '%d ملفات', '%d ملفًا', '%d ملف'], 20],
      ja: [['%d 個のファイル'], 20],
    },
  },
  {
    source: ['Café menu'],
    targets: { de: [['Café-Menü'], 20], pl: [['Menu kawiarni'], 10], ru: [['Меню кафе'], 20], ar: [['قائمة المقهى'], 20], ja: [['カフェのメニュー'], 20] },
    suggestions: ['pl', 'de'],
  },
  {
    source: ['Close window'],
    targets: {
      de: [['Fenster schließen'], 20],
      pl: [['Zamknij okno'], 20],
      ru: [['Закрыть окно'], 30],
      ar: [['إغلاق النافذة'], 20],
      ja: [['ウィンドウを閉じる'], 20],
    },
    checks: ['de'],
  },
];
const dialogs: FixtureString[] = [
  { source: ['Save'], targets: { de: [['Speichern'], 20], pl: [['Zapisz'], 20], ru: [['Сохранить'], 20], ar: [['حفظ'], 20], ja: [['保存'], 20] } },
  {
    source: ['Are you sure?'],
    targets: { de: [['Sind Sie sicher?'], 20], pl: [[''], 0], ru: [['Вы уверены?'], 20], ar: [['هل أنت متأكد؟'], 20], ja: [['よろしいですか？'], 20] },
    checks: ['ru', 'ar'],
    suggestions: ['pl'],
  },
];
const site: FixtureString[] = [
  saveAs,
  {
    source: ['Welcome'],
    targets: { de: [[hostileTarget], 20], pl: [['Witamy'], 20], ru: [['Добро пожаловать'], 20], ar: [['أهلاً وسهلاً'], 20], ja: [['ようこそ'], 20] },
  },
];

export const fixtureComponents = [
  { project: 'office', slug: 'editor', name: 'Editor', strings: editor },
  { project: 'office', slug: 'dialogs', name: 'Dialogs', strings: dialogs },
  { project: 'web', slug: 'site', name: 'Web site', strings: site },
] as const;

const language = (code: Code) => build.language(code, languageFacts[code].name, languageFacts[code]);

function project(slug: 'office' | 'web', id: number) {
  return build.project(slug, id, { name: slug === 'office' ? 'Office' : 'Web', translation_review: true, instructions: '' });
}

function component(owner: ReturnType<typeof project>, slug: string, name: string, id: number) {
  return build.component(owner, slug, id, language('en'), {
    name,
    repo: 'https://git.example.org/office.git',
    new_base: '',
    license_url: null,
    commit_message: '',
  });
}

export const codes: Code[] = ['en', 'de', 'pl', 'ru', 'ar', 'ja'];

/** Unit id of string `index` of component `component` in language `code`: what tests look for. */
export function unitId(component: number, code: Code, index: number): number {
  return 10_000 * (component + 1) + 1000 * codes.indexOf(code) + index + 1;
}

/** Writes the instance as one complete snapshot into `contentDir`; returns its id. */
export async function writeSearchFixture(contentDir: string): Promise<string> {
  const writer = await openSnapshotWriter(contentDir, { baseUrl: `${base}api/`, scope: {}, tmsnapVersion: 'test', resume: false });
  for (const code of codes) await writer.putRecord(api(`languages/${code}/`), language(code));
  const projects = { office: project('office', 1), web: project('web', 2) };
  for (const p of Object.values(projects)) await writer.putRecord(p.url, p);
  let translationId = 100;
  for (const [index, spec] of fixtureComponents.entries()) {
    const comp = component(projects[spec.project], spec.slug, spec.name, 10 + index);
    await writer.putRecord(comp.url, comp);
    for (const code of codes) {
      const strings = spec.strings.map((string) => ({
        ...(code === 'en'
          ? { source: string.source, target: string.source, state: 100 }
          : { source: string.source, target: string.targets[code]![0], state: string.targets[code]![1] }),
        has_failing_check: string.checks?.includes(code) ?? false,
        has_suggestion: string.suggestions?.includes(code) ?? false,
      }));
      const record = build.translation(comp, language(code), translationId++, unitCounts(strings));
      await writer.putRecord(record.url, record);
      const units = strings.map((string, position) => ({
        ...build.unit(
          record.url,
          unitId(index, code, position),
          position + 1,
          BigInt(index * 100 + position) * 7_919_000_000_000_001n - 4_000_000_000_000_000_000n,
          { source: string.source, target: string.target, state: string.state, location: '', sourceUnit: unitId(index, code, position) },
        ),
        has_failing_check: string.has_failing_check,
        has_suggestion: string.has_suggestion,
      }));
      await writer.putUnits(record.url, units);
    }
  }
  return (await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true })).id;
}
