import { componentDefaults } from '../../packages/reference-server/component-defaults.ts';
import { rootCollections } from '../../api/root.ts';

/** Plural rules, names and directions of the languages the test instances use (Weblate's own). */
export const languageFacts = {
  en: { name: 'English', number: 2, formula: 'n != 1', direction: 'ltr' },
  de: { name: 'German', number: 2, formula: 'n != 1', direction: 'ltr' },
  ar: {
    name: 'Arabic',
    number: 6,
    formula: '(n==0) ? 0 : ((n==1) ? 1 : ((n==2) ? 2 : ((n%100>=3 && n%100<=10) ? 3 : ((n%100>=11 && n%100<=99) ? 4 : 5))))',
    direction: 'rtl',
  },
  pl: { name: 'Polish', number: 3, formula: 'n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2', direction: 'ltr' },
  fr: { name: 'French', number: 2, formula: 'n > 1', direction: 'ltr' },
  es: { name: 'Spanish', number: 2, formula: 'n != 1', direction: 'ltr' },
  ja: { name: 'Japanese', number: 1, formula: '0', direction: 'ltr' },
  ru: { name: 'Russian', number: 3, formula: 'n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2', direction: 'ltr' },
  he: { name: 'Hebrew', number: 2, formula: 'n != 1', direction: 'rtl' },
  cs: { name: 'Czech', number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2', direction: 'ltr' },
  pt_BR: { name: 'Portuguese (Brazil)', number: 2, formula: 'n > 1', direction: 'ltr' },
  zh_Hans: { name: 'Chinese (Simplified)', number: 1, formula: '0', direction: 'ltr' },
} as const;

/** What a unit holds besides its identity; what is left out takes the sample's value. */
export interface UnitText {
  source?: string[];
  target?: string[];
  state?: number;
  context?: string;
  note?: string;
  location?: string;
  labels?: unknown[];
  /** Id of the unit's source-language unit. */
  sourceUnit?: number;
}

/** A translation's counts as Weblate derives them from its units' states (two words a unit). */
export function unitCounts(units: readonly { state: number }[]) {
  const translated = units.filter((unit) => unit.state >= 20).length;
  const fuzzy = units.filter((unit) => unit.state >= 10 && unit.state < 20).length;
  const percent = (count: number) => (units.length ? Math.round((count / units.length) * 1000) / 10 : 0);
  return {
    total: units.length,
    total_words: units.length * 2,
    translated,
    translated_words: translated * 2,
    translated_percent: percent(translated),
    fuzzy,
    fuzzy_words: fuzzy * 2,
    fuzzy_percent: percent(fuzzy),
  };
}

/**
 * API records shaped as a Weblate server serves them (seed description), for a server at `base`:
 * the one record builder of the tests. Each builder makes a whole record from its identity;
 * its last argument replaces fields. `suffix` is what the server appends to its API links
 * (`?format=api` or nothing); `time` and `author` stamp translations and units.
 */
export function builders(base: string, options: { suffix?: string; time?: string; author?: string } = {}) {
  const { suffix = '', time = '2024-05-01T12:00:00.123456Z', author = 'Jane' } = options;
  const api = (path: string) => `${base}api/${path}${suffix}`;
  const language = (code: string, name: string, extra: { number?: number; formula?: string; direction?: string; aliases?: string[] } = {}) => ({
    code,
    name,
    plural: { id: 1, source: 0, number: extra.number ?? 2, formula: extra.formula ?? 'n != 1', type: 1 },
    aliases: extra.aliases ?? [],
    direction: extra.direction ?? 'ltr',
    population: 1000,
    web_url: `${base}languages/${code}/`,
    url: api(`languages/${code}/`),
    statistics_url: api(`languages/${code}/statistics/`),
  });
  type Language = ReturnType<typeof language>;

  // Slugs are data; in URLs they are percent-encoded path segments.
  const segment = encodeURIComponent;
  const projectRecord = (slug: string, id: number) => ({
    name: `Project ${slug}`,
    slug,
    id,
    web: 'https://example.org/',
    web_url: `${base}projects/${segment(slug)}/`,
    url: api(`projects/${segment(slug)}/`),
    components_list_url: api(`projects/${segment(slug)}/components/`),
    repository_url: api(`projects/${segment(slug)}/repository/`),
    statistics_url: api(`projects/${segment(slug)}/statistics/`),
    changes_list_url: api(`projects/${segment(slug)}/changes/`),
    languages_url: api(`projects/${segment(slug)}/languages/`),
    translation_review: false,
    source_review: false,
    set_language_team: true,
    instructions: '<script>alert(1)</script>\r\nBe nice.',
    enable_hooks: true,
    language_aliases: '',
  });
  const project = (slug: string, id: number, overrides: Partial<ReturnType<typeof projectRecord>> = {}) => ({ ...projectRecord(slug, id), ...overrides });
  type Project = ReturnType<typeof project>;

  const componentRecord = (owner: Project, slug: string, id: number, sourceLanguage: Language) => {
    const path = `components/${segment(owner.slug)}/${segment(slug)}/`;
    return {
      ...componentDefaults,
      name: `Component ${slug}`,
      slug,
      id,
      source_language: sourceLanguage,
      project: owner,
      repo: 'https://git.example.org/demo.git',
      filemask: 'po/*.po',
      edit_template: false,
      new_base: 'po/demo.pot',
      license: 'MIT',
      license_url: 'https://spdx.org/licenses/MIT.html' as string | null,
      web_url: `${base}projects/${segment(owner.slug)}/${segment(slug)}/`,
      url: api(path),
      repository_url: api(`${path}repository/`),
      translations_url: api(`${path}translations/`),
      statistics_url: api(`${path}statistics/`),
      lock_url: api(`${path}lock/`),
      links_url: api(`${path}links/`),
      changes_list_url: api(`${path}changes/`),
      task_url: null,
      commit_message: 'Translated using Weblate ({{ language_name }})',
      add_message: '',
      delete_message: '',
      merge_message: '',
      addon_message: '',
      pull_message: '',
    };
  };
  const component = (owner: Project, slug: string, id: number, sourceLanguage: Language, overrides: Partial<ReturnType<typeof componentRecord>> = {}) => ({
    ...componentRecord(owner, slug, id, sourceLanguage),
    ...overrides,
  });
  type Component = ReturnType<typeof component>;

  const translationRecord = (owner: Component, lang: Language, id: number) => {
    const path = `translations/${segment(owner.project.slug)}/${segment(owner.slug)}/${segment(lang.code)}/`;
    return {
      language: lang,
      component: owner,
      language_code: lang.code,
      id,
      filename: `po/${lang.code}.po`,
      revision: 'a'.repeat(40),
      web_url: `${base}projects/${segment(owner.project.slug)}/${segment(owner.slug)}/${segment(lang.code)}/`,
      share_url: `${base}engage/${segment(owner.project.slug)}/${segment(lang.code)}/`,
      translate_url: `${base}translate/${segment(owner.project.slug)}/${segment(owner.slug)}/${segment(lang.code)}/`,
      url: api(path),
      is_template: false,
      is_source: lang.code === owner.source_language.code,
      total: 2,
      total_words: 4,
      translated: 1,
      translated_words: 2,
      translated_percent: 50,
      fuzzy: 0,
      fuzzy_words: 0,
      fuzzy_percent: 0,
      failing_checks: 0,
      failing_checks_words: 0,
      failing_checks_percent: 0,
      have_suggestion: 0,
      have_comment: 0,
      last_change: time,
      last_author: author,
      repository_url: api(`${path}repository/`),
      file_url: api(`${path}file/`),
      statistics_url: api(`${path}statistics/`),
      changes_list_url: api(`${path}changes/`),
      units_list_url: api(`${path}units/`),
    };
  };
  const translation = (owner: Component, lang: Language, id: number, overrides: Partial<ReturnType<typeof translationRecord>> = {}) => ({
    ...translationRecord(owner, lang, id),
    ...overrides,
  });

  const unit = (translationUrl: string, id: number, position: number, idHash: bigint, text: UnitText = {}) => {
    const state = text.state ?? (position % 2 === 1 ? 20 : 0);
    return {
      id,
      translation: translationUrl,
      source: text.source ?? [`Hello <b>world</b> ${id}`],
      previous_source: '',
      target: text.target ?? [position % 2 === 1 ? `Ahoj ${id}` : ''],
      id_hash: idHash,
      content_hash: idHash,
      location: text.location ?? 'src/main.c:1',
      context: text.context ?? '',
      note: text.note ?? '',
      flags: '',
      extra_flags: '',
      labels: text.labels ?? [],
      state,
      fuzzy: state >= 10 && state < 20,
      translated: state >= 20,
      approved: state === 30,
      position,
      has_suggestion: false,
      has_comment: false,
      has_failing_check: false,
      num_words: 2,
      source_unit: api(`units/${text.sourceUnit ?? id + 100}/`),
      priority: 100,
      web_url: `${base}translate/x/?checksum=${(idHash + 2n ** 63n).toString(16).padStart(16, '0')}`,
      url: api(`units/${id}/`),
      explanation: '',
      pending: false,
      timestamp: time,
    };
  };

  const changeRecord = (id: number, action: number, componentUrl: string, translationUrl: string | null) => ({
    id,
    unit: action === 59 ? api('units/10/') : null,
    component: componentUrl,
    translation: translationUrl,
    user: action === 59 ? api('users/jane/') : null,
    author: null,
    timestamp: `2024-05-0${(id % 9) + 1}T12:00:00.000000Z`,
    action,
    action_name: action === 59 ? 'String updated in the repository' : 'Created component',
    target: action === 59 ? 'Hello' : '',
    url: api(`changes/${id}/`),
  });
  const change = (
    id: number,
    action: number,
    componentUrl: string,
    translationUrl: string | null,
    overrides: Partial<ReturnType<typeof changeRecord>> = {},
  ) => ({ ...changeRecord(id, action, componentUrl, translationUrl), ...overrides });

  const root = Object.fromEntries(rootCollections.map((name) => [name, api(`${name}/`)]));
  return { api, language, project, component, translation, unit, change, root };
}

/** One project, one component, one translation with two units (their hashes beyond 2^53), three changes. */
export function sampleInstance(base: string, suffix = '') {
  const build = builders(base, { suffix });
  const english = build.language('en', 'English');
  const czech = build.language('cs', 'Czech');
  const project = build.project('demo', 1);
  const component = build.component(project, 'core', 2, english);
  const translation = build.translation(component, czech, 3);
  // Beyond 2^53 on purpose: a JS number would round these.
  const units = [build.unit(translation.url, 11, 2, -9_007_199_254_740_993n), build.unit(translation.url, 10, 1, 9_223_372_036_854_775_807n)];
  const changes = [
    build.change(1, 51, component.url, null),
    build.change(2, 59, component.url, translation.url),
    build.change(1500, 59, component.url, translation.url),
  ];
  const notifications = [
    { id: 1, notification: 'NewStringNotificaton', scope: 40, frequency: 1, project, component },
    { id: 2, notification: 'LockNotification', scope: 0, frequency: 2, project: null, component: null },
  ];
  return { root: build.root, english, czech, project, component, translation, units, changes, notifications };
}

/**
 * A bigger instance: `projects` (slugs from `slugs` when given) × 2 components × `languages`
 * translations of `unitsPerTranslation` units each, and one change per unit.
 */
export function syntheticInstance(base: string, options: { projects: number; languages: number; unitsPerTranslation: number; slugs?: string[] }) {
  const build = builders(base);
  const english = build.language('en', 'English');
  const languages = Array.from({ length: options.languages }, (_, i) => build.language(`l${i}`, `Language ${i}`));
  const projects = Array.from({ length: options.projects }, (_, i) => build.project(options.slugs?.[i] ?? `project-${i}`, i + 1));
  const components = projects.flatMap((project, p) => ['core', 'docs'].map((slug, c) => build.component(project, slug, p * 2 + c + 1, english)));
  const translations = components.flatMap((component, c) =>
    languages.map((language, l) => build.translation(component, language, c * languages.length + l + 1)),
  );
  let nextUnit = 1;
  const units = translations.map((translation) => ({
    translationUrl: translation.url,
    units: Array.from({ length: options.unitsPerTranslation }, (_, position) => {
      const id = nextUnit++;
      return build.unit(translation.url, id, position + 1, BigInt.asIntN(64, BigInt(id) * 0x9e3779b97f4a7c15n));
    }),
  }));
  const changes = Array.from({ length: nextUnit - 1 }, (_, i) => build.change(i + 1, 59, components[0]!.url, translations[0]!.url));
  return { root: build.root, languages, projects, components, translations, units, changes };
}

/** The same value with every object's keys in reverse order, at every depth: a record as a server may order it (key order carries no meaning in JSON). */
export function reversedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reversedKeys) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reversedKeys(item)]),
  ) as T;
}
