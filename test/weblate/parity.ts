import { parseJson } from '../../api/json.ts';
import { MemoryModel, type ModelRows } from '../../packages/reference-server/memory-model.ts';
import type {
  AnnouncementRow,
  CategoryRow,
  ChangeRow,
  ComponentFields,
  ComponentRow,
  LanguageRow,
  ProjectRow,
  TranslationRow,
  UnitRow,
  UserRow,
} from '../../packages/reference-server/model.ts';
import type { ProfileName } from '../../packages/reference-server/profiles.ts';
import { startTestServer } from '../helpers/reference-server.ts';

/**
 * The reference server measured against a real Weblate (issue 23): `mirrorRows` reads what a
 * real server holds through its API (an admin key) into the reference server's model rows, so
 * both serve the same data with the same ids and timestamps; `compareAnswers` sends both the
 * same requests and lists every difference in status, headers, key sets, value types, nesting
 * and values, after the normalisations `normalise` documents.
 */

type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };
type Record_ = { [key: string]: Json };

async function getJson(url: string, token: string): Promise<Json> {
  const response = await fetch(url, { headers: { Authorization: `Token ${token}`, Accept: 'application/json', 'Accept-Language': 'en' } });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 300)}`);
  return parseJson(text) as Json;
}

async function all(api: string, path: string, token: string): Promise<Record_[]> {
  const items: Record_[] = [];
  let next: string | null = new URL(path, api).href;
  while (next !== null) {
    const page = (await getJson(next, token)) as { results: Record_[]; next: string | null };
    items.push(...page.results);
    next = page.next;
  }
  return items;
}

/** The last path segment of an API URL, decoded as Weblate encodes slugs (`%2F` escaped again). */
function lastSegment(url: string): string {
  const parts = new URL(url).pathname.split('/').filter(Boolean);
  return decodeURIComponent(decodeURIComponent(parts.at(-1)!));
}

const componentFieldNames: (keyof ComponentFields)[] = [
  'vcs',
  'repo',
  'git_export',
  'branch',
  'push_branch',
  'filemask',
  'template',
  'edit_template',
  'intermediate',
  'new_base',
  'file_format',
  'license',
  'license_url',
  'agreement',
  'new_lang',
  'language_code_style',
  'push',
  'check_flags',
  'priority',
  'enforced_checks',
  'restricted',
  'repoweb',
  'report_source_bugs',
  'merge_style',
  'commit_message',
  'add_message',
  'delete_message',
  'merge_message',
  'addon_message',
  'pull_message',
  'allow_translation_propagation',
  'manage_units',
  'enable_suggestions',
  'suggestion_voting',
  'suggestion_autoaccept',
  'push_on_commit',
  'commit_pending_age',
  'auto_lock_error',
  'language_regex',
  'variant_regex',
  'addons',
  'is_glossary',
  'glossary_color',
];

/**
 * Every row the reference server needs, read from a real server with an admin key: languages
 * (with their ids, in the real server's order), projects, components (one in a category gets `category/slug` as its slug,
 * which the reference server writes in URLs as Weblate does, `category%252Fslug`) and the
 * categories, translations,
 * every unit (its hashes exact), the whole change log and the users.
 */
export async function mirrorRows(api: string, token: string, privateProjects: readonly string[]): Promise<ModelRows> {
  const languages = await all(api, 'languages/?page_size=1000', token);
  const projects = await all(api, 'projects/?page_size=1000', token);
  const components = await all(api, 'components/?page_size=1000', token);
  const categoryRecords = await all(api, 'categories/?page_size=1000', token);
  const categoryByUrl = new Map(categoryRecords.map((c) => [c.url as string, c]));
  /** A category's slugs from the outermost: the path a component inside it has. */
  const categoryPath = (url: string): string => {
    const category = categoryByUrl.get(url)!;
    return category.category === null ? (category.slug as string) : `${categoryPath(category.category as string)}/${category.slug as string}`;
  };
  const translations = await all(api, 'translations/?page_size=1000', token);
  const units = await all(api, 'units/?page_size=10000', token);
  const changes = await all(api, 'changes/?page_size=1000', token);
  const users = await all(api, 'users/?page_size=1000', token);
  // A change about a project alone (created, settings) names no component: its project's list tells.
  const projectOfChange = new Map<number, number>();
  for (const project of projects)
    for (const change of await all(api, `projects/${project.slug as string}/changes/?page_size=1000`, token))
      if (change.component === null) projectOfChange.set(change.id as number, project.id as number);

  // 2026: each project's and component's announcements (their `announcements_url`), and the suggestions.
  const announcementsOf = async (owner: Record_, projectId: number, componentId: number | null): Promise<AnnouncementRow[]> =>
    typeof owner.announcements_url !== 'string'
      ? []
      : (await all(api, `${owner.announcements_url}?page_size=1000`, token)).map((a) => ({
          id: a.id as number,
          projectId,
          componentId,
          message: a.message as string,
          severity: a.severity as string,
          expiry: a.expiry as string | null,
          notify: a.notify as boolean,
        }));
  const announcements: AnnouncementRow[] = [];
  for (const project of projects) announcements.push(...(await announcementsOf(project, project.id as number, null)));
  for (const component of components)
    announcements.push(...(await announcementsOf(component, (component.project as Record_).id as number, component.id as number)));
  const recent = projects.some((project) => typeof project.announcements_url === 'string');
  const suggestions = recent ? await all(api, 'suggestions/?page_size=1000', token) : undefined;

  const projectIdByUrl = new Map(projects.map((p) => [p.url as string, p.id as number]));
  const componentIdByUrl = new Map(components.map((c) => [c.url as string, c.id as number]));
  const translationIdByUrl = new Map(translations.map((t) => [t.url as string, t.id as number]));
  const idOf = (url: Json | undefined) => (url === null ? null : Number(lastSegment(url as string)));
  const userOf = (url: Json | undefined) => (url === null ? null : lastSegment(url as string));

  return {
    languages: languages.map((l): LanguageRow => ({
      id: l.id as number,
      code: l.code as string,
      name: l.name as string,
      plural: l.plural as unknown as LanguageRow['plural'],
      aliases: l.aliases as string[],
      direction: l.direction as LanguageRow['direction'],
      population: l.population as number,
    })),
    users: users.map((u): UserRow => ({ id: u.id as number, username: u.username as string, full_name: u.full_name as string })),
    projects: projects.map((p): ProjectRow => ({
      id: p.id as number,
      slug: p.slug as string,
      name: p.name as string,
      web: p.web as string,
      instructions: p.instructions as string,
      translation_review: p.translation_review as boolean,
      source_review: p.source_review as boolean,
      set_language_team: p.set_language_team as boolean,
      enable_hooks: p.enable_hooks as boolean,
      language_aliases: p.language_aliases as string,
      private: privateProjects.includes(p.slug as string),
    })),
    categories: categoryRecords.map((c): CategoryRow => ({
      id: c.id as number,
      projectId: projectIdByUrl.get(c.project as string)!,
      slug: c.slug as string,
      name: c.name as string,
      categoryId: c.category === null ? null : (categoryByUrl.get(c.category as string)!.id as number),
    })),
    components: components.map((c): ComponentRow => {
      const category = c.category === null ? undefined : categoryPath(c.category as string);
      return {
        ...(Object.fromEntries(componentFieldNames.map((name) => [name, c[name]])) as unknown as ComponentFields),
        id: c.id as number,
        projectId: projectIdByUrl.get((c.project as Record_).url as string)!,
        slug: category === undefined ? (c.slug as string) : `${category}/${c.slug as string}`,
        categoryId: c.category === null ? null : (categoryByUrl.get(c.category as string)!.id as number),
        name: c.name as string,
        sourceLanguage: (c.source_language as Record_).code as string,
      };
    }),
    translations: translations.map((t): TranslationRow => ({
      id: t.id as number,
      componentId: componentIdByUrl.get((t.component as Record_).url as string)!,
      languageCode: t.language_code as string,
      filename: t.filename as string,
      revision: t.revision as string,
    })),
    notifications: [],
    changes: changes.map((c): ChangeRow => ({
      id: c.id as number,
      action: c.action as number,
      timestamp: c.timestamp as string,
      user: userOf(c.user),
      author: userOf(c.author),
      unitId: idOf(c.unit),
      translationId: c.translation === null ? null : (translationIdByUrl.get(c.translation as string) ?? null),
      componentId: c.component === null ? null : (componentIdByUrl.get(c.component as string) ?? null),
      target: c.target as string,
      projectId: projectOfChange.get(c.id as number) ?? null,
      old: c.old as string,
      details: c.details as Record<string, unknown>,
      ...(c.alert === undefined ? {} : { alert: c.alert as Record<string, unknown> | null }),
    })),
    units: units.map((u): UnitRow => ({
      id: u.id as number,
      translationId: translationIdByUrl.get(u.translation as string)!,
      sourceUnitId: idOf(u.source_unit)!,
      position: u.position as number,
      source: u.source as string[],
      previous_source: u.previous_source as string,
      target: u.target as string[],
      context: u.context as string,
      note: u.note as string,
      location: u.location as string,
      flags: u.flags as string,
      extra_flags: u.extra_flags as string,
      labels: u.labels as unknown[],
      state: u.state as number,
      automaticallyTranslated: (u.automatically_translated as boolean | undefined) ?? false,
      idHash: BigInt(u.id_hash as number | bigint),
      contentHash: BigInt(u.content_hash as number | bigint),
      num_words: u.num_words as number,
      priority: u.priority as number,
      explanation: u.explanation as string,
      pending: u.pending as boolean,
      has_suggestion: u.has_suggestion as boolean,
      has_comment: u.has_comment as boolean,
      has_failing_check: u.has_failing_check as boolean,
      timestamp: u.timestamp as string,
      last_updated: u.last_updated as string,
    })),
    ...(announcements.length > 0 ? { announcements: announcements.sort((a, b) => a.id - b.id) } : {}),
    ...(suggestions === undefined
      ? {}
      : {
          suggestions: suggestions.map((row) => ({
            id: row.id as number,
            unitId: idOf(row.unit)!,
            target: row.target as string[],
            user: userOf(row.user),
            timestamp: row.timestamp as string,
            votes: row.votes as number,
          })),
        }),
  };
}

/** One request sent to both servers. `as`: which key it carries ('bad' is a key neither knows). */
export interface Probe {
  path: string;
  as: 'admin' | 'anonymous' | 'bad';
  /** What this request is there to show. */
  why: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or the text when the answer is not JSON. */
  body: unknown;
  json: boolean;
}

/** The headers the comparison looks at: what a client acts on, not the web framework's own (CSP, cookies). */
export const comparedHeaders = ['content-type', 'allow', 'www-authenticate', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

export async function ask(api: string, probe: Probe, tokens: { admin: string }): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': 'en' };
  if (probe.as === 'admin') headers.Authorization = `Token ${tokens.admin}`;
  if (probe.as === 'bad') headers.Authorization = 'Token wlu_NotAKeyOfThisServer0000000000000000000';
  const url = probe.path.startsWith('/') ? new URL(probe.path, api).href : `${api}${probe.path}`;
  const response = await fetch(url, { headers, redirect: 'manual' });
  const text = await response.text();
  const kept = Object.fromEntries(comparedHeaders.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])));
  const json = /json/.test(response.headers.get('content-type') ?? '');
  let body: unknown = text;
  if (json) {
    try {
      body = parseJson(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, headers: kept, body, json };
}

/** One difference: where (probe and JSON path, array indexes as `[]`), and what. */
export interface Difference {
  probe: string;
  where: string;
  what: string;
  /** How many places (array items) showed it; the first is described. */
  times: number;
}

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'number';
  return typeof value;
}

function show(value: unknown): string {
  // A bigint anywhere inside (an `id_hash` of a record shown whole) is written as its digits.
  const text = typeof value === 'bigint' ? String(value) : JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? String(item) : item));
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/**
 * The deliberate normalisations, each for data that legitimately differs between the two
 * servers; everything else is compared as sent.
 */
export function normalise(value: unknown, origins: { real: string; reference: string }, key = ''): unknown {
  if (typeof value === 'string') {
    // Each server's own origin (a different port): URLs compare by what follows it. The mirrored
    // data holds the real origin too (a component's `git_export`), so both are replaced on both sides.
    let text = value.split(origins.real).join('ORIGIN').split(origins.reference).join('ORIGIN');
    // Users' sign-up times: the reference server invents them (2019-01-01 plus a day per id).
    if (key === 'date_joined') text = 'TIME';
    return text;
  }
  // Python writes `100.0` and Node `100`; json.ts keeps the difference in the text, parseJson loses it: compared as numbers.
  if (Array.isArray(value)) return value.map((item) => normalise(item, origins));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, normalise(v, origins, k)]));
  }
  return value;
}

/** Walks two JSON values; `out` receives every difference of shape, type or value. */
export function diffJson(real: unknown, reference: unknown, path: string, out: { where: string; what: string }[]): void {
  const kindReal = kindOf(real);
  const kindReference = kindOf(reference);
  if (kindReal !== kindReference) {
    out.push({ where: path, what: `type: real ${kindReal} ${show(real)}, reference ${kindReference} ${show(reference)}` });
    return;
  }
  if (kindReal === 'array') {
    const a = real as unknown[];
    const b = reference as unknown[];
    if (a.length !== b.length) out.push({ where: path, what: `length: real ${a.length}, reference ${b.length}` });
    for (let i = 0; i < Math.min(a.length, b.length); i++) diffJson(a[i], b[i], `${path}[]`, out);
    return;
  }
  if (kindReal === 'object') {
    const a = real as Record<string, unknown>;
    const b = reference as Record<string, unknown>;
    for (const key of Object.keys(a)) if (!(key in b)) out.push({ where: `${path}.${key}`, what: `only on real (${kindOf(a[key])} ${show(a[key])})` });
    for (const key of Object.keys(b)) if (!(key in a)) out.push({ where: `${path}.${key}`, what: `only on reference (${kindOf(b[key])} ${show(b[key])})` });
    for (const key of Object.keys(a)) if (key in b) diffJson(a[key], b[key], `${path}.${key}`, out);
    return;
  }
  // `!=` on purpose: a bigint and a number of one value are equal.
  if (real != reference && !(typeof real === 'number' && typeof reference === 'number' && Number.isNaN(real) && Number.isNaN(reference))) {
    out.push({ where: path, what: `value: real ${show(real)}, reference ${show(reference)}` });
  }
}

/** The differences of one probe's two answers (headers, status, body), each listed once however many items show it. */
export function compareAnswers(probe: Probe, real: Answer, reference: Answer, origins: { real: string; reference: string }): Difference[] {
  const name = `${probe.as} GET ${probe.path}`;
  const found: { where: string; what: string }[] = [];
  if (real.status !== reference.status) found.push({ where: 'status', what: `real ${real.status}, reference ${reference.status}` });
  for (const header of comparedHeaders) {
    const a = real.headers[header];
    const b = reference.headers[header];
    if (a === undefined && b === undefined) continue;
    if (a === undefined || b === undefined) {
      found.push({ where: `header ${header}`, what: a === undefined ? `only on reference (${b})` : `only on real (${a})` });
      continue;
    }
    // The budget left and the seconds to the next slot depend on each server's history: compared by presence.
    if (header === 'x-ratelimit-remaining' || header === 'x-ratelimit-reset' || header === 'retry-after') continue;
    const clean = (text: string) => text.toLowerCase().replaceAll(' ', '');
    if (clean(a) !== clean(b)) found.push({ where: `header ${header}`, what: `real ${a}, reference ${b}` });
  }
  if (real.json && reference.json) diffJson(normalise(real.body, origins), normalise(reference.body, origins), '$', found);
  else if (real.json !== reference.json)
    found.push({ where: 'body', what: `real ${real.json ? 'JSON' : 'not JSON'}, reference ${reference.json ? 'JSON' : 'not JSON'}` });
  const seen = new Map<string, Difference>();
  for (const item of found) {
    const key = `${item.where} ${item.what.split(/[ :]/)[0]}`;
    const known = seen.get(key);
    if (known) known.times++;
    else seen.set(key, { probe: name, ...item, times: 1 });
  }
  return [...seen.values()];
}

/** The requests both servers get: every kind of resource, as an admin and anonymously, and the errors. */
export function probesFor(rows: ModelRows): Probe[] {
  const translation = (project: string, component: string, code: string) => {
    const p = rows.projects.find((row) => row.slug === project)!;
    const c = rows.components.find((row) => row.projectId === p.id && row.slug === component)!;
    return rows.translations.find((row) => row.componentId === c.id && row.languageCode === code)!;
  };
  const de = translation('humanize', 'humanize', 'de');
  const unit = rows.units.filter((row) => row.translationId === de.id).sort((a, b) => a.id - b.id)[0]!;
  const change = [...rows.changes].sort((a, b) => a.id - b.id).find((row) => row.unitId !== null)!;
  const admin = (path: string, why: string): Probe => ({ path, as: 'admin', why });
  const anonymous = (path: string, why: string): Probe => ({ path, as: 'anonymous', why });
  return [
    admin('', 'root'),
    anonymous('', 'root, anonymous'),
    admin('projects/', 'list'),
    anonymous('projects/', 'list without the private project'),
    admin('projects/humanize/', 'detail'),
    admin('projects/humanize/components/', 'nested list'),
    admin('projects/humanize/languages/', 'bare array'),
    admin('projects/humanize/statistics/', 'figures'),
    admin('projects/humanize/changes/?page_size=5', 'changes of a project'),
    admin('projects/humanize/categories/', 'categories'),
    admin('projects/wtforms/categories/', 'a category'),
    admin('categories/', 'every category'),
    admin(`categories/${rows.categories?.[0]?.id ?? 1}/`, 'a category'),
    admin(`categories/${rows.categories?.[0]?.id ?? 1}/statistics/`, 'figures of a category'),
    admin('projects/humanize/lock/', 'lock state of a project'),
    admin('components/humanize/humanize/lock/', 'lock state of a component'),
    admin('components/humanize/humanize/links/', 'projects a component is shared with'),
    admin('users/admin/contributions/', 'contributions of a user'),
    anonymous('users/admin/', 'a user, anonymous'),
    anonymous('translations/humanize/humanize/de/', 'a translation, anonymous'),
    anonymous('changes/?page_size=5', 'changes, anonymous'),
    admin('components/', 'top-level list'),
    admin('components/humanize/humanize/', 'detail'),
    admin('components/humanize/terminology/', 'a glossary'),
    admin('components/wtforms/forms%252Fwtforms/', 'a component in a category'),
    admin('components/humanize/humanize/translations/', 'nested list'),
    admin('components/humanize/humanize/statistics/', 'figures per translation'),
    admin('components/humanize/humanize/changes/?page_size=5', 'changes of a component'),
    admin('components/humanize/humanize/repository/', 'repository'),
    anonymous('components/humanize/humanize/repository/', 'repository, anonymous'),
    admin('translations/', 'top-level list'),
    admin('translations/humanize/humanize/de/', 'detail'),
    admin('translations/humanize/humanize/en/', 'the source translation'),
    admin('translations/humanize/humanize/de/statistics/', 'figures'),
    admin('translations/humanize/humanize/ar/statistics/', 'figures, six plurals'),
    admin('translations/humanize/humanize/de/units/', 'units, default page'),
    admin('translations/humanize/humanize/de/units/?page_size=5000', 'units, a page size over the maximum'),
    admin('translations/humanize/humanize/de/changes/', 'changes of a translation'),
    admin('languages/?page_size=1000', 'every language'),
    anonymous('languages/', 'languages in use'),
    admin('languages/de/', 'detail'),
    admin('languages/de/statistics/', 'figures'),
    admin('units/?page_size=5', 'units'),
    admin('units/?page_size=20000', 'units, a page size over the maximum'),
    admin(`units/${unit.id}/`, 'a unit'),
    admin('changes/?page_size=5', 'changes, newest first'),
    admin('changes/?page_size=5&page=2', 'a second page'),
    admin(`changes/${change.id}/`, 'a change'),
    admin('users/', 'users with a key'),
    anonymous('users/', 'users anonymous'),
    admin('users/admin/', 'a user'),
    admin('users/admin/statistics/', 'figures of a user'),
    admin('groups/', 'groups'),
    admin('roles/?page_size=1', 'roles'),
    anonymous('memory/', 'memory, anonymous'),
    admin('projects/nope/', 'a 404'),
    anonymous('projects/django-filter/', 'a private project, anonymous'),
    admin('projects/?page=99', 'a page past the end'),
    admin('translations/humanize/humanize/de/units/?page=99', 'a units page past the end'),
    { path: 'projects/', as: 'bad', why: 'a bad token' },
    admin('no-such-endpoint/', 'an unknown /api/ path'),
    admin('changes/?timestamp_after=yesterday', 'a bad filter'),
    admin('changes/?action=9999', 'an unknown action'),
  ];
}

/**
 * The endpoints 2026 added (root `reports/`, `metrics/`, `announcements/`, `reports/`,
 * `suggestions/`) and a project's `repository/`, each asked as the whole-instance crawl asks
 * (`?page_size=1000`, so test/reference-server/parity-2026.test.ts replays them from
 * weblate-2026.10.1-admin-crawl.json.gz); anonymous `reports/`, 401 on 2026.10.1.
 */
export function probes2026(rows: ModelRows): Probe[] {
  const category = rows.categories?.[0]?.id ?? 1;
  const admin = (path: string, why: string): Probe => ({ path: `${path}?page_size=1000`, as: 'admin', why });
  return [
    admin('projects/humanize/metrics/', 'metrics, translation review on'),
    admin('projects/wtforms/metrics/', 'metrics, a component in a category'),
    admin('projects/django-filter/metrics/', 'metrics, a private project with failing checks'),
    admin('projects/humanize/announcements/', 'announcements of a project'),
    admin('components/humanize/humanize/announcements/', 'announcements of a component'),
    admin('translations/humanize/humanize/de/announcements/', 'announcements of a translation'),
    admin(`categories/${category}/announcements/`, 'announcements of a category'),
    admin('reports/', 'every report'),
    admin('projects/humanize/reports/', 'reports of a project'),
    admin('components/humanize/humanize/reports/', 'reports of a component'),
    admin(`categories/${category}/reports/`, 'reports of a category'),
    admin('suggestions/', 'suggestions'),
    admin('projects/humanize/repository/', 'repository of a project'),
    admin('translations/humanize/humanize/de/repository/', 'repository of a translation'),
    { path: 'reports/', as: 'anonymous', why: 'reports, anonymous: 401' },
    { path: 'projects/humanize/reports/', as: 'anonymous', why: "a public project's reports, anonymous: 401" },
  ];
}

/** What the reference server still does otherwise on a profile, each with the reason (docs/decisions/2026-11-26-reference-vs-weblate-5.14.md, 2026-11-28-reference-vs-weblate-2026.md). */
export interface Explained {
  probe?: RegExp;
  where?: RegExp;
  what?: RegExp;
  why: string;
}

const noRepository: Explained = {
  probe: /repository\/(\?|$)/,
  where: /remote_commit|weblate_commit|\.status$/,
  why: 'the seeded components have no repository (uploaded ZIPs, vcs local): no commits; the reference server shows its model commit',
};

/** The profiles measured against a real server, and the release each stands for. */
export type MeasuredProfile = 'weblate-5.14' | 'weblate-2026';
export const measuredProfileOf = { '5.14.3': 'weblate-5.14', '2026.10.1': 'weblate-2026' } as const satisfies Record<string, MeasuredProfile>;

export const explainedBy: Record<MeasuredProfile, Explained[]> = {
  'weblate-5.14': [
    noRepository,
    {
      probe: /^admin GET users\//,
      where: /\.(email|groups|groups\[\]|is_superuser|is_bot|is_active|date_expires)$/,
      why: "users' e-mail, groups, is_superuser, is_bot, is_active and date_expires are not in the model (UserRow: id, username, full_name; e-mail <username>@example.org)",
    },
    {
      probe: /^admin GET (groups|roles)\//,
      why: "built-in groups and roles: the reference server has 5.4's five groups (and an Administration team per project) and six roles; 5.14.3 has 20 groups and 17 roles",
    },
  ],
  'weblate-2026': [
    noRepository,
    {
      probe: /^admin GET users\//,
      where: /\.(email|groups|groups\[\]|is_superuser|is_bot|is_active|date_expires|profile\.watched)$/,
      why: "users' e-mail, groups, is_superuser, is_bot, is_active, date_expires and watched projects are not in the model (UserRow: id, username, full_name; e-mail <username>@example.org; a default profile)",
    },
    {
      probe: /^admin GET (groups|roles)\//,
      why: "built-in groups and roles: the reference server has 5.4's five groups (and an Administration team per project) and six roles; 2026.10.1 has 20 groups (with defining_workspace, admins) and 18 roles",
    },
  ],
};

/** The 5.14 list, as the 5.14 comparison has always read it. */
export const explained: Explained[] = explainedBy['weblate-5.14'];

export function explanationOf(difference: Difference, rules: readonly Explained[] = explained): Explained | undefined {
  return rules.find(
    (rule) => (rule.probe?.test(difference.probe) ?? true) && (rule.where?.test(difference.where) ?? true) && (rule.what?.test(difference.what) ?? true),
  );
}

export const line = (d: Difference) => `${d.probe} | ${d.where} | ${d.what}${d.times > 1 ? ` (×${d.times})` : ''}`;

/**
 * The reference server started with `profile` on `rows`, and the real server (or its recorded
 * answers) at `real`, each asked every probe with the same admin key: their differences.
 */
export async function differencesFrom(real: string, rows: ModelRows, profile: ProfileName, probes: Probe[], admin: string): Promise<Difference[]> {
  const reference = await startTestServer({ data: new MemoryModel(rows), profile, behaviours: { tokens: [admin] } });
  try {
    const origins = { real: new URL(real).origin, reference: reference.origin };
    const found: Difference[] = [];
    for (const probe of probes) {
      const theirs = await ask(real, probe, { admin });
      const ours = await ask(reference.url, probe, { admin });
      found.push(...compareAnswers(probe, theirs, ours, origins));
    }
    return found;
  } finally {
    await reference.close();
  }
}
