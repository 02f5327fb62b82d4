import { changeActions, laterActionNames } from '../../api/change.ts';
import { checksumOf } from './hash.ts';
import type { ChangeRow, ComponentRow, LanguageRow, NotificationRow, ProjectRow, TranslationRow, UnitRow, UserRow } from './model.ts';
import { type Counts, type LastChange, percent, percentRoundedDown } from './statistics.ts';

/**
 * Rows → API records, exactly as the description spells them. Pure: the caller resolves
 * related rows, `Links` turns paths into the absolute URLs the server publishes.
 */

export interface Links {
  /** An API URL: `<origin><prefix>/api/<path>`, plus the `format` the server links with, if any. */
  api(path: string): string;
  /** A browser page URL: `<origin><prefix>/<path>`. */
  web(path: string): string;
  /** Records carry the fields a Weblate 5.4 server adds to the description's (profile `weblateFields`). */
  weblateFields: boolean;
  /** Records carry the fields of 2026.10.1 (`recentFields`), units their states 11 and 12 and `automatically_translated` (`newUnitStates`). */
  recentFields?: boolean;
  newUnitStates?: boolean;
  /** Records carry the fields 5.5–5.14 add (`fields514`); percentages as 5.14 rounds them (`statistics514`). */
  fields514?: boolean;
  statistics514?: boolean;
}

/**
 * The settings 2026 puts on projects, categories and components, each with `inherit_<name>`
 * (whether the object takes its parent's) and `effective_<name>` (the value in force), and a
 * project's values as 2026.10.1 creates it (measured: the seeded projects have these; the
 * reference server's projects have no settings of their own).
 * docs/decisions/2026-11-28-reference-vs-weblate-2026.md.
 */
export const projectSettings2026 = {
  license: '',
  agreement: '',
  new_lang: 'add',
  language_code_style: '',
  secondary_language: null,
  commit_message:
    'chore(l10n): update {{ language_name }} translation\n\nTranslation: {{ project_name }}/{{ component_name }}\nLanguage: {{ language_name }}\nProgress: {{ stats.translated_percent }}% ({{ stats.translated }} of {{ stats.all }} strings)\nTranslate-URL: {{ url }}',
  add_message:
    'chore(l10n): add {{ language_name }} translation\n\nTranslation: {{ project_name }}/{{ component_name }}\nLanguage: {{ language_name }}\nTranslate-URL: {{ url }}',
  delete_message:
    'chore(l10n): remove {{ language_name }} translation\n\nTranslation: {{ project_name }}/{{ component_name }}\nLanguage: {{ language_name }}\nTranslate-URL: {{ url }}',
  merge_message:
    'chore(l10n): merge remote changes\n\nTranslation: {{ project_name }}/{{ component_name }}\nRemote-Branch: {{ component_remote_branch }}\nTranslate-URL: {{ url }}',
  addon_message:
    'chore(l10n): update translation files\n\nAdd-on: {{ addon_name }}\nTranslation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}',
  pull_message:
    'chore(l10n): update translations\n\nTranslations updated in [{{ site_title }}]({{ site_url }}) for [{{ project_name }}/{{ component_name }}]({{ url }}).\n\n{% if component_linked_children %}\nIncluded components:\n{% for linked in component_linked_children %}\n* [{{ linked.project_name }}/{{ linked.name }}]({{ linked.url }})\n{% endfor %}\n{% endif %}\n\nTranslation status:\n\n![Weblate translation status]({{widget_url}})\n',
  enforced_checks: [] as string[],
} as const;
type Setting2026 = keyof typeof projectSettings2026;
const settingNames2026 = Object.keys(projectSettings2026) as Setting2026[];

/**
 * Each setting's pair, `inherit_<name>` and `effective_<name>`, and the setting itself unless the
 * record has it already (`withOwn: false`): `own` the object's values, `inherits` whether it takes its parent's.
 */
function settingPairs(own: (name: Setting2026) => unknown, inherits: (name: Setting2026) => boolean, withOwn = true): Record<string, unknown> {
  return Object.fromEntries(
    settingNames2026.flatMap((name) => [
      ...(withOwn ? [[name, structuredClone(own(name))]] : []),
      [`inherit_${name}`, inherits(name)],
      [`effective_${name}`, structuredClone(own(name))],
    ]),
  );
}

/** `check_flags` are not inherited but added up: the parent's and the object's own, in force together. */
const joinedFlags = (...flags: string[]): string => flags.filter((flag) => flag !== '').join(', ');

/** A project's 2026.10.1 fields (`recentFields`): its settings (none inherited), access control, memory switches, the new links. */
function projectFields2026(links: Links, project: ProjectRow, path: string): Record<string, unknown> {
  return {
    effective_check_flags: '',
    metrics_url: links.api(`${path}metrics/`),
    reports_url: links.api(`${path}reports/`),
    announcements_url: links.api(`${path}announcements/`),
    // 2026.6's workspaces: none on a server that has not made one.
    workspace: null,
    // Weblate's access control: 0 public, 100 private.
    access_control: project.private ? 100 : 0,
    public_sharing: false,
    use_shared_tm: true,
    contribute_shared_tm: true,
    use_workspace_tm: false,
    contribute_workspace_tm: false,
    autoclean_tm: false,
    ...settingPairs(
      (name) => projectSettings2026[name],
      () => false,
    ),
  };
}

/** A category's 2026.10.1 settings: every one its project's, inherited. */
export function categorySettings2026(): Record<string, unknown> {
  return {
    check_flags: '',
    effective_check_flags: '',
    ...settingPairs(
      (name) => projectSettings2026[name],
      () => true,
    ),
  };
}

/**
 * A component's 2026.10.1 fields: each setting the component has, inherited where it equals its
 * project's (as the seeded components, made with the defaults, show them), the new links.
 */
function componentFields2026(links: Links, component: ComponentRow, path: string): Record<string, unknown> {
  const own = (name: Setting2026): unknown => (name === 'secondary_language' ? null : component[name]);
  // The glossary Weblate makes with a project (slug `glossary`) shares its memory, pushes on update and keeps its own license.
  const automaticGlossary = component.is_glossary && ownSlug(component) === 'glossary';
  const inherits = (name: Setting2026) => !(automaticGlossary && name === 'license') && JSON.stringify(own(name)) === JSON.stringify(projectSettings2026[name]);
  return {
    vcs_params: {},
    announcements_url: links.api(`${path}announcements/`),
    reports_url: links.api(`${path}reports/`),
    effective_check_flags: joinedFlags(component.check_flags),
    repoweb_translations: '',
    hide_glossary_matches: false,
    contribute_project_tm: automaticGlossary,
    push_on_update: automaticGlossary,
    // The component's own values are among its fields already.
    ...settingPairs(own, inherits, false),
  };
}

/**
 * `format`: the parameter every API link carries. The description's server links with
 * `format=api`; a real 5.4 server with none, or with `format=json` when the request had it
 * (Django REST framework's URL reversing keeps the request's format).
 */
export function linksFor(
  origin: string,
  prefix: string,
  format: 'api' | 'json' | null = 'api',
  weblateFields = false,
  recent: { recentFields?: boolean; newUnitStates?: boolean; fields514?: boolean; statistics514?: boolean; djangoPaths?: boolean } = {},
): Links {
  const query = format === null ? '' : `?format=${format}`;
  const encoded = recent.djangoPaths ? djangoPath : (path: string) => path;
  return {
    api: (path) => `${origin}${prefix}/api/${encoded(path)}${query}`,
    web: (path) => `${origin}${prefix}/${encoded(path)}`,
    weblateFields,
    ...recent,
  };
}

/**
 * A path as Django's URL reversing leaves it (`quote(…, safe="!$&'()*+,;=/~:@")`): the
 * sub-delimiters, `:` and `@` that `encodeURIComponent` escaped are written as themselves
 * (`languages/ca@valencia/`, `users/weblate:commit/`, measured on 5.14.3).
 */
export function djangoPath(path: string): string {
  return path.replace(/%(24|26|2B|2C|3B|3D|3A|40)/gi, (escape) => decodeURIComponent(escape));
}

/**
 * One path segment. Weblate writes a `/` inside a slug (components in categories) as `%2F`,
 * which URL reversing then escapes again: `cat%252Fcomp`.
 */
export function segment(value: string): string {
  return encodeURIComponent(value.replaceAll('/', '%2F'));
}

export function decodeSegment(value: string): string {
  return decodeURIComponent(value).replaceAll('%2F', '/');
}

export const projectPath = (project: ProjectRow): string => `${segment(project.slug)}/`;
export const componentPath = (project: ProjectRow, component: ComponentRow): string => `${segment(project.slug)}/${segment(component.slug)}/`;
export const translationPath = (project: ProjectRow, component: ComponentRow, code: string): string => `${componentPath(project, component)}${segment(code)}/`;

/**
 * A component's path in browser URLs: a component in a category goes under its categories'
 * slugs, each a segment of its own (`projects/wtforms/forms/wtforms/`, where the API writes
 * `forms%252Fwtforms`).
 */
export const webComponentPath = (project: ProjectRow, component: ComponentRow): string =>
  `${segment(project.slug)}/${component.categoryId != null ? component.slug.split('/').map(segment).join('/') : segment(component.slug)}/`;
export const webTranslationPath = (project: ProjectRow, component: ComponentRow, code: string): string =>
  `${webComponentPath(project, component)}${segment(code)}/`;

/** A component's own slug: the last part of a path inside categories. */
const ownSlug = (component: ComponentRow): string => (component.categoryId != null ? component.slug.split('/').at(-1)! : component.slug);

/** A language; `id` is the instance's (the model's order), which 5.4 sends and the description leaves out. */
export function languageRecord(links: Links, language: LanguageRow & { id?: number }): Record<string, unknown> {
  const code = segment(language.code);
  return {
    ...(links.weblateFields ? { id: language.id ?? 0 } : {}),
    code: language.code,
    name: language.name,
    plural: { ...language.plural },
    aliases: [...language.aliases],
    direction: language.direction,
    population: language.population,
    web_url: links.web(`languages/${code}/`),
    url: links.api(`languages/${code}/`),
    statistics_url: links.api(`languages/${code}/statistics/`),
  };
}

export function projectRecord(links: Links, project: ProjectRow): Record<string, unknown> {
  const path = `projects/${projectPath(project)}`;
  return {
    name: project.name,
    slug: project.slug,
    id: project.id,
    web: project.web,
    web_url: links.web(path),
    url: links.api(path),
    components_list_url: links.api(`${path}components/`),
    repository_url: links.api(`${path}repository/`),
    statistics_url: links.api(`${path}statistics/`),
    changes_list_url: links.api(`${path}changes/`),
    languages_url: links.api(`${path}languages/`),
    translation_review: project.translation_review,
    source_review: project.source_review,
    // 2026 removed it.
    ...(links.recentFields ? {} : { set_language_team: project.set_language_team }),
    instructions: project.instructions,
    enable_hooks: project.enable_hooks,
    language_aliases: project.language_aliases,
    // 5.4: categories and labels exist on every project (lists, possibly empty).
    ...(links.weblateFields ? { categories_url: links.api(`${path}categories/`), labels_url: links.api(`${path}labels/`) } : {}),
    // 5.5–5.14: the reference server's projects have none of these settings in force.
    ...(links.fields514
      ? {
          check_flags: '',
          // 2026 removed the credits endpoints' links.
          ...(links.recentFields ? {} : { credits_url: links.api(`${path}credits/`) }),
          lock_url: links.api(`${path}lock/`),
          commit_policy: 0,
          secondary_language: null,
          enforced_2fa: false,
          machinery_settings: links.api(`${path}machinery_settings/`),
          locked: false,
        }
      : {}),
    ...(links.recentFields ? projectFields2026(links, project, path) : {}),
  };
}

/**
 * A component; `embedProject: false` for the items of a project's `components/` list, which a
 * real 5.4 server sends without their project (the list's URL names it).
 */
export function componentRecord(
  links: Links,
  component: ComponentRow,
  project: ProjectRow,
  sourceLanguage: LanguageRow,
  embedProject = true,
): Record<string, unknown> {
  const path = `components/${componentPath(project, component)}`;
  const { id, projectId: _project, slug: _slug, categoryId, name, sourceLanguage: _source, ...fields } = component;
  return {
    name,
    slug: ownSlug(component),
    id,
    source_language: languageRecord(links, sourceLanguage),
    ...(embedProject ? { project: projectRecord(links, project) } : {}),
    ...fields,
    // 5.4: no categories or linked (weblate://) components on the reference server.
    ...(links.weblateFields
      ? { category: categoryId != null ? links.api(`categories/${categoryId}/`) : null, linked_component: null, screenshot_filemask: '' }
      : {}),
    ...(links.recentFields ? componentFields2026(links, component, path) : {}),
    ...(links.fields514 ? { file_format_params: {}, key_filter: '', secondary_language: null, locked: false } : {}),
    ...(links.fields514 && !links.recentFields ? { credits_url: links.api(`${path}credits/`) } : {}),
    web_url: links.web(`projects/${webComponentPath(project, component)}`),
    url: links.api(path),
    repository_url: links.api(`${path}repository/`),
    translations_url: links.api(`${path}translations/`),
    statistics_url: links.api(`${path}statistics/`),
    lock_url: links.api(`${path}lock/`),
    links_url: links.api(`${path}links/`),
    changes_list_url: links.api(`${path}changes/`),
    task_url: null,
  };
}

export interface TranslationContext {
  translation: TranslationRow;
  component: ComponentRow;
  project: ProjectRow;
  language: LanguageRow;
  sourceLanguage: LanguageRow;
  counts: Counts;
  last: LastChange | null;
}

/** A translation; `embedComponent: false` for a component's `translations/` list, as real servers do. */
export function translationRecord(links: Links, context: TranslationContext, embedComponent: boolean): Record<string, unknown> {
  const { translation, component, project, language, counts } = context;
  const path = `translations/${translationPath(project, component, translation.languageCode)}`;
  const isSource = translation.languageCode === component.sourceLanguage;
  // 5.14 rounds down, and an empty translation is complete (approved where it is reviewed).
  const review = project.translation_review && !isSource;
  const pct = (part: number, base?: 'translated' | 'approved') =>
    links.statistics514 ? percentRoundedDown(part, counts.total, base !== undefined && (base === 'approved') === review) : percent(part, counts.total);
  return {
    language: languageRecord(links, language),
    ...(embedComponent ? { component: componentRecord(links, component, project, context.sourceLanguage) } : {}),
    language_code: translation.languageCode,
    id: translation.id,
    filename: translation.filename,
    revision: translation.revision,
    web_url: links.web(`projects/${webTranslationPath(project, component, translation.languageCode)}`),
    // 5.14 engages per project and language through the `-` component.
    share_url: links.web(`engage/${projectPath(project)}${links.fields514 ? '-/' : ''}${segment(translation.languageCode)}/`),
    translate_url: links.web(`translate/${webTranslationPath(project, component, translation.languageCode)}`),
    url: links.api(path),
    is_template: isSource && component.template !== '',
    is_source: isSource,
    total: counts.total,
    total_words: counts.totalWords,
    translated: counts.translated,
    translated_words: counts.translatedWords,
    translated_percent: pct(counts.translated, 'translated'),
    fuzzy: counts.fuzzy,
    fuzzy_words: counts.fuzzyWords,
    fuzzy_percent: pct(counts.fuzzy),
    failing_checks: counts.failing,
    failing_checks_words: counts.failingWords,
    failing_checks_percent: pct(counts.failing),
    have_suggestion: counts.suggestions,
    have_comment: counts.comments,
    last_change: context.last?.timestamp ?? null,
    last_author: context.last?.author ?? null,
    repository_url: links.api(`${path}repository/`),
    file_url: links.api(`${path}file/`),
    statistics_url: links.api(`${path}statistics/`),
    changes_list_url: links.api(`${path}changes/`),
    units_list_url: links.api(`${path}units/`),
    ...(links.recentFields ? { announcements_url: links.api(`${path}announcements/`) } : {}),
  };
}

/** Where a unit lives, for its `translation` and `web_url` fields. */
export interface UnitPlace {
  project: ProjectRow;
  component: ComponentRow;
  languageCode: string;
}

export function unitRecord(links: Links, unit: UnitRow, place: UnitPlace): Record<string, unknown> {
  const path = translationPath(place.project, place.component, place.languageCode);
  // 2026.10.1: a glossary's terms, screenshots, a parent translation (none here), the source in force (plural forms split as stored).
  const fields2026 = links.recentFields
    ? {
        tbx_terms: {},
        screenshots_url: links.api(`units/${unit.id}/screenshots/`),
        translation_parent: null,
        effective_source: [...unit.source],
        effective_previous_source: unit.previous_source.split('\x1e\x1e'),
        effective_source_language: place.component.sourceLanguage,
      }
    : {};
  return {
    ...fields2026,
    translation: links.api(`translations/${path}`),
    ...(links.fields514 ? { language_code: place.languageCode } : {}),
    source: [...unit.source],
    previous_source: unit.previous_source,
    target: [...unit.target],
    id_hash: unit.idHash,
    content_hash: unit.contentHash,
    location: unit.location,
    context: unit.context,
    note: unit.note,
    flags: unit.flags,
    extra_flags: unit.extra_flags,
    labels: [...unit.labels],
    // Before 5.15 the states between 10 and 20 were one: needs editing.
    state: !links.newUnitStates && unit.state > 10 && unit.state < 20 ? 10 : unit.state,
    ...(links.newUnitStates ? { automatically_translated: unit.automaticallyTranslated ?? false } : {}),
    fuzzy: unit.state >= 10 && unit.state < 20,
    translated: unit.state >= 20,
    approved: unit.state === 30,
    position: unit.position,
    has_suggestion: unit.has_suggestion,
    has_comment: unit.has_comment,
    has_failing_check: unit.has_failing_check,
    num_words: unit.num_words,
    source_unit: links.api(`units/${unit.sourceUnitId}/`),
    priority: unit.priority,
    id: unit.id,
    web_url: `${links.web(`translate/${webTranslationPath(place.project, place.component, place.languageCode)}`)}?checksum=${checksumOf(unit.idHash)}`,
    url: links.api(`units/${unit.id}/`),
    explanation: unit.explanation,
    pending: unit.pending,
    timestamp: unit.timestamp,
    // 5.6: when the unit's row was last saved; the model records only its last change.
    ...(links.fields514 ? { last_updated: unit.last_updated ?? unit.timestamp } : {}),
  };
}

/** Where a change points; each is null when the change is not about such an object. */
export interface ChangePlace {
  unit: boolean;
  component: { project: ProjectRow; component: ComponentRow } | null;
  translationCode: string | null;
  /** 2026.10.1 shows anonymous clients an alert without its details (measured). */
  alertDetails?: boolean;
}

export function changeRecord(links: Links, change: ChangeRow, place: ChangePlace): Record<string, unknown> {
  const user = (name: string | null) => (name === null ? null : links.api(`users/${segment(name)}/`));
  const component = place.component;
  return {
    unit: place.unit && change.unitId !== null ? links.api(`units/${change.unitId}/`) : null,
    component: component ? links.api(`components/${componentPath(component.project, component.component)}`) : null,
    translation:
      component && place.translationCode !== null
        ? links.api(`translations/${translationPath(component.project, component.component, place.translationCode)}`)
        : null,
    user: user(change.user),
    author: user(change.author),
    timestamp: change.timestamp,
    action: change.action,
    action_name: changeActions[change.action] ?? laterActionNames[change.action] ?? `Action ${change.action}`,
    target: change.target,
    // 5.6: the previous value and the change's details, as far as the model records them.
    ...(links.fields514 ? { old: change.old ?? '', details: { ...change.details } } : {}),
    // 2026.10.1: the add-on (none in the model) and the alert a change is about.
    ...(links.recentFields ? { addon: null, alert: change.alert == null ? null : alertRecord(change.alert, place.alertDetails ?? true) } : {}),
    id: change.id,
    url: links.api(`changes/${change.id}/`),
  };
}

function alertRecord(alert: Record<string, unknown>, withDetails: boolean): Record<string, unknown> {
  return { ...structuredClone(alert), ...(withDetails || !('details' in alert) ? {} : { details: {} }) };
}

/** Who asks about a user: 5.4 shows anonymous clients a summary and token holders (admins) more. */
export type UserView = 'summary' | 'full' | 'admin';

/** Every user is in Weblate's built-in "Users" group (id 3 in `routes/extras.ts`). */
export const USERS_GROUP_ID = 3;

export function userRecord(links: Links, user: UserRow, view: UserView = 'full', suggested = 0): Record<string, unknown> {
  const summary = { id: user.id, full_name: user.full_name, username: user.username };
  if (view === 'summary') return summary;
  const path = `users/${segment(user.username)}/`;
  const admin = view === 'admin';
  return {
    id: user.id,
    ...(admin ? { email: `${user.username}@example.org` } : {}),
    full_name: user.full_name,
    username: user.username,
    groups: links.weblateFields ? [links.api(`groups/${USERS_GROUP_ID}/`)] : [],
    notifications: links.api(`${path}notifications/`),
    is_superuser: false,
    is_active: true,
    is_bot: false,
    // Deterministic stand-ins: the datasets record no sign-ups or logins.
    ...(admin ? { date_joined: joinedAt(user.id), last_login: null } : {}),
    url: links.api(path),
    statistics_url: links.api(`${path}statistics/`),
    ...(links.fields514 ? { date_expires: null, contributions_url: links.api(`${path}contributions/`) } : {}),
    // 2026 moved a user's languages into `profile` (its preferences, the model's users keep Weblate's defaults).
    ...(links.fields514 ? (links.recentFields ? { profile: userProfile2026(suggested) } : { languages: [] }) : {}),
  };
}

/** A user's `profile` as 2026.10.1 shows a user who changed no preference (measured). */
function userProfile2026(suggested: number): Record<string, unknown> {
  return {
    language: '',
    languages: [],
    secondary_languages: [],
    suggested,
    translated: 0,
    uploaded: 0,
    commented: 0,
    theme: 'auto',
    hide_completed: false,
    secondary_in_zen: true,
    hide_source_secondary: false,
    wide_tables: false,
    listing_columns: ['untranslated', 'untranslated_words', 'untranslated_chars', 'nottranslated', 'checks', 'suggestions', 'comments'],
    editor_link: '',
    translate_mode: 0,
    zen_mode: 0,
    special_chars: '',
    nearby_strings: 15,
    auto_watch: true,
    contribute_personal_tm: true,
    dashboard_view: 1,
    dashboard_component_list: null,
    watched: [],
    website: '',
    contact: '',
    liberapay: '',
    fediverse: '',
    codesite: '',
    github: '',
    twitter: '',
    linkedin: '',
    location: '',
    company: '',
    public_email: '',
    commit_email: '',
    commit_name: 0,
    last_2fa: '',
  };
}

/** A user's sign-up time: a day apart per id from 2019-01-01, in Weblate's timestamp form. */
function joinedAt(id: number): string {
  return new Date(Date.UTC(2019, 0, 1) + id * 86_400_000).toISOString().replace(/Z$/, '000Z');
}

export function notificationRecord(
  notification: NotificationRow,
  project: Record<string, unknown> | null,
  component: Record<string, unknown> | null,
): Record<string, unknown> {
  return {
    id: notification.id,
    notification: notification.notification,
    scope: notification.scope,
    frequency: notification.frequency,
    project,
    component,
  };
}
