/**
 * A small multilingual instance written through the snapshot writer, for search tests: Latin
 * with diacritics (de, pl), Cyrillic (ru), Arabic (right-to-left, six plural forms), Japanese,
 * sources repeated across components, and a hostile target.
 */
import { componentDefaults } from '../../reference-server/component-defaults.ts';
import { openSnapshotWriter } from '../../snapshot/writer.ts';

export const base = 'http://weblate.test/';
const api = (path: string) => `${base}api/${path}`;

export const hostileTarget = '<img src=x onerror="window.__pwned=1">';

const languageInfo = {
  en: { name: 'English', direction: 'ltr', number: 2, formula: 'n != 1' },
  de: { name: 'German', direction: 'ltr', number: 2, formula: 'n != 1' },
  pl: { name: 'Polish', direction: 'ltr', number: 3, formula: 'n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2' },
  ru: { name: 'Russian', direction: 'ltr', number: 3, formula: 'n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2' },
  ar: {
    name: 'Arabic',
    direction: 'rtl',
    number: 6,
    formula: '(n==0) ? 0 : ((n==1) ? 1 : ((n==2) ? 2 : ((n%100>=3 && n%100<=10) ? 3 : ((n%100>=11 && n%100<=99) ? 4 : 5))))',
  },
  ja: { name: 'Japanese', direction: 'ltr', number: 1, formula: '0' },
} as const;
export type Code = keyof typeof languageInfo;

/** Each string: its source forms and, per language, its target forms and state. */
interface FixtureString {
  source: string[];
  targets: Partial<Record<Exclude<Code, 'en'>, [string[], number]>>;
}

const editor: FixtureString[] = [
  {
    source: ['Save as…'],
    targets: {
      de: [['Speichern unter…'], 20],
      pl: [['Zapisz jako…'], 20],
      ru: [['Сохранить как…'], 20],
      ar: [['حفظ باسم…'], 20],
      ja: [['名前を付けて保存…'], 20],
    },
  },
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
  },
];
const dialogs: FixtureString[] = [
  { source: ['Save'], targets: { de: [['Speichern'], 20], pl: [['Zapisz'], 20], ru: [['Сохранить'], 20], ar: [['حفظ'], 20], ja: [['保存'], 20] } },
  {
    source: ['Are you sure?'],
    targets: { de: [['Sind Sie sicher?'], 20], pl: [[''], 0], ru: [['Вы уверены?'], 20], ar: [['هل أنت متأكد؟'], 20], ja: [['よろしいですか？'], 20] },
  },
];
const site: FixtureString[] = [
  {
    source: ['Save as…'],
    targets: {
      de: [['Speichern unter…'], 20],
      pl: [['Zapisz jako…'], 20],
      ru: [['Сохранить как…'], 20],
      ar: [['حفظ باسم…'], 20],
      ja: [['名前を付けて保存…'], 20],
    },
  },
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

function language(code: Code) {
  const info = languageInfo[code];
  return {
    code,
    name: info.name,
    plural: { id: 1, source: 0, type: 1, number: info.number, formula: info.formula },
    aliases: [],
    direction: info.direction,
    population: 1000,
    web_url: `${base}languages/${code}/`,
    url: api(`languages/${code}/`),
    statistics_url: api(`languages/${code}/statistics/`),
  };
}

function project(slug: string, id: number) {
  const url = (path = '') => api(`projects/${slug}/${path}`);
  return {
    name: slug === 'office' ? 'Office' : 'Web',
    slug,
    id,
    web: 'https://example.org/',
    web_url: `${base}projects/${slug}/`,
    url: url(),
    components_list_url: url('components/'),
    repository_url: url('repository/'),
    statistics_url: url('statistics/'),
    changes_list_url: url('changes/'),
    languages_url: url('languages/'),
    translation_review: true,
    source_review: false,
    set_language_team: true,
    instructions: '',
    enable_hooks: true,
    language_aliases: '',
  };
}

function component(proj: ReturnType<typeof project>, slug: string, name: string, id: number) {
  const url = (path = '') => api(`components/${proj.slug}/${slug}/${path}`);
  const text = '';
  return {
    ...componentDefaults,
    name,
    slug,
    id,
    source_language: language('en'),
    project: proj,
    repo: 'https://git.example.org/office.git',
    git_export: text,
    push_branch: text,
    filemask: 'po/*.po',
    template: text,
    edit_template: false,
    intermediate: text,
    new_base: text,
    license: 'MIT',
    agreement: text,
    web_url: `${base}projects/${proj.slug}/${slug}/`,
    url: url(),
    repository_url: url('repository/'),
    translations_url: url('translations/'),
    statistics_url: url('statistics/'),
    lock_url: url('lock/'),
    links_url: url('links/'),
    changes_list_url: url('changes/'),
    task_url: null,
    language_code_style: text,
    push: text,
    check_flags: text,
    repoweb: text,
    report_source_bugs: text,
    commit_message: text,
    add_message: text,
    delete_message: text,
    merge_message: text,
    addon_message: text,
    pull_message: text,
    variant_regex: text,
  };
}

function translation(comp: ReturnType<typeof component>, code: Code, id: number, units: { state: number }[]) {
  const url = (path = '') => api(`translations/${comp.project.slug}/${comp.slug}/${code}/${path}`);
  const translated = units.filter((unit) => unit.state >= 20).length;
  const fuzzy = units.filter((unit) => unit.state >= 10 && unit.state < 20).length;
  return {
    language: language(code),
    component: comp,
    language_code: code,
    id,
    filename: `po/${code}.po`,
    revision: 'a'.repeat(40),
    web_url: `${base}projects/${comp.project.slug}/${comp.slug}/${code}/`,
    share_url: `${base}engage/${comp.project.slug}/${code}/`,
    translate_url: `${base}translate/${comp.project.slug}/${comp.slug}/${code}/`,
    url: url(),
    is_template: false,
    is_source: code === 'en',
    total: units.length,
    total_words: units.length * 2,
    translated,
    translated_words: translated * 2,
    translated_percent: Math.round((translated / units.length) * 1000) / 10,
    fuzzy,
    fuzzy_words: fuzzy * 2,
    fuzzy_percent: Math.round((fuzzy / units.length) * 1000) / 10,
    failing_checks: 0,
    failing_checks_words: 0,
    failing_checks_percent: 0,
    have_suggestion: 0,
    have_comment: 0,
    last_change: '2026-11-20T10:00:00.000000Z',
    last_author: 'Jane Translator',
    repository_url: url('repository/'),
    file_url: url('file/'),
    statistics_url: url('statistics/'),
    changes_list_url: url('changes/'),
    units_list_url: url('units/'),
  };
}

function unit(translationUrl: string, id: number, position: number, source: string[], target: string[], state: number, idHash: bigint) {
  return {
    id,
    translation: translationUrl,
    source,
    previous_source: '',
    target,
    id_hash: idHash,
    content_hash: idHash,
    location: '',
    context: '',
    note: '',
    flags: '',
    extra_flags: '',
    labels: [],
    state,
    fuzzy: state >= 10 && state < 20,
    translated: state >= 20,
    approved: state === 30,
    position,
    has_suggestion: false,
    has_comment: false,
    has_failing_check: false,
    num_words: 2,
    source_unit: api(`units/${id}/`),
    priority: 100,
    web_url: `${base}translate/x/?checksum=${(idHash + 2n ** 63n).toString(16).padStart(16, '0')}`,
    url: api(`units/${id}/`),
    explanation: '',
    pending: false,
    timestamp: '2026-11-20T10:00:00.000000Z',
  };
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
      const strings = spec.strings.map((string) =>
        code === 'en'
          ? { source: string.source, target: string.source, state: 100 }
          : { source: string.source, target: string.targets[code]![0], state: string.targets[code]![1] },
      );
      const record = translation(comp, code, translationId++, strings);
      await writer.putRecord(record.url, record);
      const units = strings.map((string, position) =>
        unit(
          record.url,
          unitId(index, code, position),
          position + 1,
          string.source,
          string.target,
          string.state,
          BigInt(index * 100 + position) * 7_919_000_000_000_001n - 4_000_000_000_000_000_000n,
        ),
      );
      await writer.putUnits(record.url, units);
    }
  }
  return (await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true })).id;
}
