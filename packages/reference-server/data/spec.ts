/**
 * What the bundled dataset is made of: which Debian packages (pinned), which gettext
 * catalogs inside them become which components, and the invented parts (users, project
 * settings) that no catalog carries. `make-bundled.ts` reads this; `build.ts` turns the
 * parsed catalogs into rows.
 */
import type { ComponentFields, LanguageRow, ProjectRow, UserRow } from '../model.ts';

export interface DebianPackage {
  name: string;
  /** Pinned so that a re-run reads the same catalogs (`apt-get download name=version`). */
  version: string;
  upstream: string;
  license: string;
}

export const PACKAGES: readonly DebianPackage[] = [
  { name: 'python3-django', version: '3:3.2.25-0+deb12u7', upstream: 'https://www.djangoproject.com/', license: 'BSD-3-Clause' },
  { name: 'python3-humanize', version: '4.4.0-1', upstream: 'https://github.com/python-humanize/humanize', license: 'MIT' },
  { name: 'python3-wtforms', version: '3.0.1-2', upstream: 'https://wtforms.readthedocs.io/', license: 'BSD-3-Clause' },
  { name: 'python3-django-filters', version: '23.1-1', upstream: 'https://github.com/carltongibson/django-filter', license: 'BSD-3-Clause' },
  { name: 'iso-codes', version: '4.15.0-1', upstream: 'https://salsa.debian.org/iso-codes-team/iso-codes', license: 'LGPL-2.1-or-later' },
];

/**
 * The instance's languages. Names follow Weblate's; plural rules are not here: they come
 * from the `Plural-Forms` header of each language's Django core catalog. Populations are
 * rounded speaker counts.
 */
export const LANGUAGES: readonly Omit<LanguageRow, 'plural'>[] = [
  { code: 'en', name: 'English', aliases: ['base', 'source', 'eng', 'enp', 'en_en'], direction: 'ltr', population: 1_452_000_000 },
  { code: 'ar', name: 'Arabic', aliases: ['ara', 'arb'], direction: 'rtl', population: 372_000_000 },
  { code: 'cs', name: 'Czech', aliases: ['cze', 'ces', 'cz'], direction: 'ltr', population: 13_300_000 },
  { code: 'de', name: 'German', aliases: ['ger', 'deu', 'de_de'], direction: 'ltr', population: 134_000_000 },
  { code: 'es', name: 'Spanish', aliases: ['spa', 'es_es'], direction: 'ltr', population: 548_000_000 },
  { code: 'fa', name: 'Persian', aliases: ['per', 'fas', 'fa_ir'], direction: 'rtl', population: 79_600_000 },
  { code: 'fr', name: 'French', aliases: ['fre', 'fra', 'fr_fr'], direction: 'ltr', population: 274_000_000 },
  { code: 'he', name: 'Hebrew', aliases: ['heb', 'iw'], direction: 'rtl', population: 9_300_000 },
  { code: 'it', name: 'Italian', aliases: ['ita', 'it_it'], direction: 'ltr', population: 68_000_000 },
  { code: 'ja', name: 'Japanese', aliases: ['jpn', 'ja_jp'], direction: 'ltr', population: 123_000_000 },
  { code: 'ko', name: 'Korean', aliases: ['kor', 'ko_kr'], direction: 'ltr', population: 81_700_000 },
  { code: 'pl', name: 'Polish', aliases: ['pol', 'pl_pl'], direction: 'ltr', population: 40_600_000 },
  { code: 'pt_BR', name: 'Portuguese (Brazil)', aliases: ['pt_br', 'pt-br'], direction: 'ltr', population: 211_000_000 },
  { code: 'ru', name: 'Russian', aliases: ['rus', 'ru_ru'], direction: 'ltr', population: 255_000_000 },
  { code: 'sr_Latn', name: 'Serbian (latin)', aliases: ['sr@latin', 'sr_latn', 'sr-latn'], direction: 'ltr', population: 4_300_000 },
  { code: 'tr', name: 'Turkish', aliases: ['tur', 'tr_tr'], direction: 'ltr', population: 88_100_000 },
  { code: 'uk', name: 'Ukrainian', aliases: ['ukr', 'uk_ua'], direction: 'ltr', population: 33_200_000 },
  { code: 'zh_Hans', name: 'Chinese (Simplified Han script)', aliases: ['zh_cn', 'zh-cn', 'zh_hans', 'chs'], direction: 'ltr', population: 1_030_000_000 },
  { code: 'zh_Hant', name: 'Chinese (Traditional Han script)', aliases: ['zh_tw', 'zh-tw', 'zh_hant', 'cht'], direction: 'ltr', population: 31_000_000 },
];

export const SOURCE_LANGUAGE = 'en';

export const USERS: readonly UserRow[] = [
  { id: 1, username: 'admin', full_name: 'Weblate Admin' },
  { id: 2, username: 'amira.haddad', full_name: 'Amira Haddad' },
  { id: 3, username: 'noa.levi', full_name: 'Noa Levi' },
  { id: 4, username: 'reza.karimi', full_name: 'Reza Karimi' },
  { id: 5, username: 'milica.jovanovic', full_name: 'Milica Jovanović' },
  { id: 6, username: 'chen.wei', full_name: '陈伟' },
  { id: 7, username: 'haruto.sato', full_name: 'Haruto Sato' },
  { id: 8, username: 'lena.vogel', full_name: 'Lena Vogel' },
  { id: 9, username: 'camille.durand', full_name: 'Camille Durand' },
  { id: 10, username: 'olena.shevchenko', full_name: 'Олена Шевченко' },
  { id: 11, username: 'lucas.almeida', full_name: 'Lucas Almeida' },
  { id: 12, username: 'reviewer', full_name: 'Translation Reviewer' },
];

/** Who translates which language in the invented change history. */
export const TRANSLATORS: Readonly<Record<string, readonly string[]>> = {
  ar: ['amira.haddad'],
  he: ['noa.levi'],
  fa: ['reza.karimi'],
  sr_Latn: ['milica.jovanovic'],
  zh_Hans: ['chen.wei'],
  zh_Hant: ['chen.wei'],
  ja: ['haruto.sato'],
  ko: ['haruto.sato'],
  de: ['lena.vogel'],
  cs: ['lena.vogel', 'milica.jovanovic'],
  pl: ['olena.shevchenko'],
  fr: ['camille.durand'],
  it: ['camille.durand'],
  es: ['lucas.almeida'],
  pt_BR: ['lucas.almeida'],
  tr: ['amira.haddad'],
  ru: ['olena.shevchenko'],
  uk: ['olena.shevchenko'],
};

export const REVIEWER = 'reviewer';
export const ADMIN = 'admin';

export type ProjectSpec = Omit<ProjectRow, 'id'>;

const CRLF = '\r\n';

export const PROJECTS: readonly ProjectSpec[] = [
  {
    slug: 'django',
    name: 'Django',
    web: 'https://www.djangoproject.com/',
    instructions: [
      '# Translating Django',
      '',
      'Please read the [localization guide](https://docs.djangoproject.com/en/stable/internals/contributing/localizing/) first.',
      '',
      '* Keep placeholders such as `%(name)s` and `{0}` exactly as they are.',
      '* Every translation is **reviewed** before it ships.',
      '',
      '> Questions? Ask in the *i18n* forum.',
    ].join(CRLF),
    translation_review: true,
    source_review: false,
    set_language_team: true,
    enable_hooks: true,
    language_aliases: '',
    private: false,
  },
  {
    slug: 'humanize',
    name: 'humanize',
    web: 'https://humanize.readthedocs.io/',
    instructions: ['Python humanize utilities.', '', 'Plural forms matter here: check `%d` in every form.'].join(CRLF),
    translation_review: false,
    source_review: false,
    set_language_team: true,
    enable_hooks: true,
    language_aliases: 'zh_CN:zh_Hans,zh_HK:zh_Hant',
    private: false,
  },
  {
    slug: 'wtforms',
    name: 'WTForms',
    web: 'https://wtforms.readthedocs.io/',
    instructions: '',
    translation_review: false,
    source_review: false,
    set_language_team: false,
    enable_hooks: false,
    language_aliases: '',
    private: true,
  },
  {
    slug: 'django-filter',
    name: 'django-filter',
    web: 'https://django-filter.readthedocs.io/',
    instructions: ['Filter labels are short: keep them under 30 characters.', ''].join(CRLF),
    translation_review: false,
    source_review: false,
    set_language_team: true,
    enable_hooks: true,
    language_aliases: '',
    private: false,
  },
  {
    slug: 'iso-codes',
    name: 'ISO codes',
    web: 'https://salsa.debian.org/iso-codes-team/iso-codes',
    instructions: ['Use the **official** short names.', '', 'See ISO 3166-1 for the list of countries.'].join(CRLF),
    translation_review: false,
    source_review: false,
    set_language_team: true,
    enable_hooks: true,
    language_aliases: 'sr@latin:sr_Latn,zh_CN:zh_Hans,zh_TW:zh_Hant',
    private: false,
  },
];

/** Where a component's catalogs are, and how each language's file is named upstream. */
export interface ComponentSpec {
  project: string;
  slug: string;
  name: string;
  package: string;
  /** Path inside the extracted package, `{locale}` standing for the upstream locale code, without `.po`/`.mo`. */
  catalog: string;
  /** `po`: read the shipped PO file; `mo`: decompile the shipped `.mo` with `msgunfmt`. */
  read: 'po' | 'mo';
  /**
   * Which catalog gives the source strings, notes, locations and flags: a locale code
   * (`en` for Django's English catalog), a path like `catalog` for a template (`.pot`),
   * or `union` for the union of all msgids (`.mo` catalogs keep no comments).
   */
  source: { locale: string } | { template: string } | 'union';
  /** Weblate language code → upstream locale code. */
  locales: Readonly<Record<string, string>>;
  /** Only source entries with a location starting with this (a glossary of short terms). */
  locationPrefix?: string;
  fields: Partial<ComponentFields> & Pick<ComponentFields, 'repo' | 'filemask'>;
}

const IDENTITY = (codes: string[]): Record<string, string> => Object.fromEntries(codes.map((code) => [code, code]));

const DJANGO_LOCALES = IDENTITY(LANGUAGES.map((l) => l.code).filter((c) => c !== 'en'));

const DJANGO_FIELDS = {
  repo: 'https://github.com/django/django.git',
  branch: 'stable/3.2.x',
  repoweb: 'https://github.com/django/django/blob/{{branch}}/django/{{filename}}#L{{line}}',
  license: 'BSD-3-Clause',
  license_url: 'https://spdx.org/licenses/BSD-3-Clause.html',
  report_source_bugs: 'i18n@djangoproject.example',
} as const;

const djangoApp = (slug: string, name: string, path: string, domain = 'django'): ComponentSpec => ({
  project: 'django',
  slug,
  name,
  package: 'python3-django',
  catalog: `usr/lib/python3/dist-packages/django/${path}/locale/{locale}/LC_MESSAGES/${domain}`,
  read: 'po',
  source: { locale: 'en' },
  locales: DJANGO_LOCALES,
  fields: {
    ...DJANGO_FIELDS,
    filemask: `django/${path}/locale/*/LC_MESSAGES/${domain}.po`,
    new_base: `django/${path}/locale/en/LC_MESSAGES/${domain}.po`,
  },
});

export const COMPONENTS: readonly ComponentSpec[] = [
  djangoApp('core', 'Django core', 'conf'),
  djangoApp('admin', 'Admin', 'contrib/admin'),
  djangoApp('admin-javascript', 'Admin (JavaScript)', 'contrib/admin', 'djangojs'),
  djangoApp('auth', 'Auth', 'contrib/auth'),
  djangoApp('contrib-humanize', 'Humanize (contrib)', 'contrib/humanize'),
  djangoApp('admindocs', 'Admin docs', 'contrib/admindocs'),
  djangoApp('gis', 'GIS', 'contrib/gis'),
  djangoApp('contenttypes', 'Content types', 'contrib/contenttypes'),
  djangoApp('flatpages', 'Flat pages', 'contrib/flatpages'),
  {
    ...djangoApp('glossary', 'Django glossary', 'conf'),
    locationPrefix: 'conf/global_settings.py',
    fields: {
      vcs: 'local',
      repo: 'local:',
      branch: 'main',
      filemask: '*.po',
      new_base: '',
      repoweb: '',
      license: 'BSD-3-Clause',
      license_url: 'https://spdx.org/licenses/BSD-3-Clause.html',
      is_glossary: true,
      manage_units: true,
      glossary_color: 'silver',
    },
  },
  {
    project: 'humanize',
    slug: 'humanize',
    name: 'humanize',
    package: 'python3-humanize',
    catalog: 'usr/lib/python3/dist-packages/humanize/locale/{locale}/LC_MESSAGES/humanize',
    read: 'po',
    source: { locale: 'de_DE' },
    locales: {
      ar: 'ar',
      de: 'de_DE',
      es: 'es_ES',
      fa: 'fa_IR',
      fr: 'fr_FR',
      it: 'it_IT',
      ja: 'ja_JP',
      ko: 'ko_KR',
      pl: 'pl_PL',
      pt_BR: 'pt_BR',
      ru: 'ru_RU',
      tr: 'tr_TR',
      uk: 'uk_UA',
      zh_Hans: 'zh_CN',
      zh_Hant: 'zh_HK',
    },
    fields: {
      repo: 'https://github.com/python-humanize/humanize.git',
      branch: 'main',
      filemask: 'src/humanize/locale/*/LC_MESSAGES/humanize.po',
      new_base: '',
      repoweb: 'https://github.com/python-humanize/humanize/blob/{{branch}}/{{filename}}#L{{line}}',
      license: 'MIT',
      license_url: 'https://spdx.org/licenses/MIT.html',
    },
  },
  {
    project: 'wtforms',
    slug: 'wtforms',
    name: 'WTForms',
    package: 'python3-wtforms',
    catalog: 'usr/lib/python3/dist-packages/wtforms/locale/{locale}/LC_MESSAGES/wtforms',
    read: 'po',
    source: { template: 'usr/lib/python3/dist-packages/wtforms/locale/wtforms.pot' },
    locales: {
      ar: 'ar',
      cs: 'cs_CZ',
      de: 'de',
      es: 'es',
      fa: 'fa',
      fr: 'fr',
      he: 'he',
      it: 'it',
      ja: 'ja',
      ko: 'ko',
      pl: 'pl',
      ru: 'ru',
      tr: 'tr',
      uk: 'uk',
      zh_Hans: 'zh',
      zh_Hant: 'zh_TW',
    },
    fields: {
      repo: 'https://github.com/wtforms/wtforms.git',
      branch: 'master',
      filemask: 'src/wtforms/locale/*/LC_MESSAGES/wtforms.po',
      new_base: 'src/wtforms/locale/wtforms.pot',
      repoweb: '',
      license: 'BSD-3-Clause',
      license_url: 'https://spdx.org/licenses/BSD-3-Clause.html',
    },
  },
  {
    project: 'django-filter',
    slug: 'django-filter',
    name: 'django-filter',
    package: 'python3-django-filters',
    catalog: 'usr/lib/python3/dist-packages/django_filters/locale/{locale}/LC_MESSAGES/django',
    read: 'po',
    source: { locale: 'de' },
    locales: { ...IDENTITY(['ar', 'cs', 'de', 'es', 'fa', 'fr', 'it', 'pl', 'pt_BR', 'ru', 'uk']), zh_Hans: 'zh_CN' },
    fields: {
      repo: 'https://github.com/carltongibson/django-filter.git',
      branch: 'main',
      filemask: 'django_filters/locale/*/LC_MESSAGES/django.po',
      new_base: '',
      repoweb: 'https://github.com/carltongibson/django-filter/blob/{{branch}}/{{filename}}#L{{line}}',
      license: 'BSD-3-Clause',
      license_url: 'https://spdx.org/licenses/BSD-3-Clause.html',
    },
  },
  {
    project: 'iso-codes',
    slug: 'iso-3166-1',
    name: 'ISO 3166-1',
    package: 'iso-codes',
    catalog: 'usr/share/locale/{locale}/LC_MESSAGES/iso_3166-1',
    read: 'mo',
    source: 'union',
    locales: {
      ...IDENTITY(['ar', 'cs', 'de', 'es', 'fa', 'fr', 'he', 'it', 'ja', 'ko', 'pl', 'pt_BR', 'ru', 'tr', 'uk']),
      sr_Latn: 'sr@latin',
      zh_Hans: 'zh_CN',
      zh_Hant: 'zh_TW',
    },
    fields: {
      repo: 'https://salsa.debian.org/iso-codes-team/iso-codes.git',
      branch: 'main',
      filemask: 'iso_3166-1/*.po',
      new_base: 'iso_3166-1/iso_3166-1.pot',
      repoweb: 'https://salsa.debian.org/iso-codes-team/iso-codes/-/blob/{{branch}}/{{filename}}#L{{line}}',
      license: 'LGPL-2.1-or-later',
      license_url: 'https://spdx.org/licenses/LGPL-2.1-or-later.html',
      language_code_style: 'posix',
    },
  },
];

/** An announcement of the invented history (2026's `announcements/`), by the slugs of what it is on. */
export interface AnnouncementSpec {
  project: string;
  /** A component of the project; absent: the project's own announcement. */
  component?: string;
  message: string;
  severity: 'info' | 'warning' | 'danger' | 'success';
  expiry: string | null;
}

/**
 * Announcements no catalog carries, read with the rows (bundled.ts) rather than written into
 * instance.json: a current and an expired one of a public project, one of a component, one of
 * the private project. The first holds HTML as a translator might type it: a page shows it as text.
 */
export const ANNOUNCEMENTS: readonly AnnouncementSpec[] = [
  {
    project: 'django',
    message: 'String freeze for Django 3.2.26 is on 15 December.\nKeep HTML tags such as <strong> and <a href="…"> exactly as the source has them.',
    severity: 'warning',
    expiry: null,
  },
  { project: 'django', message: 'The 3.2.25 translations are closed: thank you all!', severity: 'success', expiry: '2025-06-30' },
  {
    project: 'humanize',
    component: 'humanize',
    message: 'New plural strings arrived with humanize 4.4: please check every form.',
    severity: 'info',
    expiry: '2099-12-31',
  },
  { project: 'wtforms', message: 'Embargoed: the WTForms 3.1 strings stay private until its release.', severity: 'danger', expiry: null },
];
