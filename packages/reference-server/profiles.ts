import { type RateLimit, weblateRateLimit } from './rate-limit.ts';

/**
 * Server profiles: which real-server behaviours are on. The reference server must answer like
 * a real Weblate 5.4 unless told otherwise (issue 9, "Real Weblate, not our idea of it"), so
 * `weblate-5.4` is the default; the other profiles are 5.4 with what those versions do
 * differently, and `ideal` is the tidy server of the API description, for the few tests that
 * want it. The behaviours are the ones observed on a real 5.4.2, as restated in README.md
 * ("Profiles") and docs/weblate-api.md.
 *
 * One table, profile → behaviours; `resolveBehaviours` lays a caller's own options over it.
 */

export const profileNames = ['weblate-5.4', 'weblate-4.15', 'weblate-5.10', 'weblate-5.14', 'weblate-2026', 'weblate-2026.11-announced', 'ideal'] as const;
export type ProfileName = (typeof profileNames)[number];
export const DEFAULT_PROFILE: ProfileName = 'weblate-5.4';

/**
 * A bot protection in front of the API (Weblate 2026.11's own for anonymous clients, or Anubis
 * or Cloudflare at the proxy): anonymous requests after the first `after` answer its HTML page
 * with `status`, whatever JSON was asked for.
 */
export interface BotChallenge {
  page: 'anubis' | 'cloudflare';
  status: number;
  after: number;
}

/** Every switchable behaviour, each as `startReferenceServer({behaviours})` takes it. */
export interface ProfileBehaviours {
  /** Changes lists newest first, as real servers order them (the description's examples ascend). */
  changesNewestFirst: boolean;
  /** `?format=api` answers Django REST framework's HTML browsable API instead of JSON. */
  browsableApi: boolean;
  /** Servers up to 4.15: 20 per page, `page_size` ignored. */
  legacyPagination: boolean;
  /** The 5.10+ error body `{type, errors: [{code, detail, attr}]}` instead of `{detail}`. */
  structuredErrors: boolean;
  /** Throttling: `X-RateLimit-*` on every answer of an API view, 429 with `Retry-After` past the limit. */
  rateLimit: RateLimit | undefined;
  /**
   * What anonymous clients meet: private projects hidden even with no token configured,
   * 403 on `repository/`, 401 on `/api/memory/` and on writes, only the languages in use,
   * users as `{id, full_name, username}`.
   */
  anonymousLimits: boolean;
  /**
   * The fields a 5.4 server adds to the description's records: categories, labels, ids of
   * languages, character statistics, linked components, admin-only user fields, groups and
   * roles filled in, translation memory records.
   */
  weblateFields: boolean;
  /** Items of `/api/projects/<p>/components/` leave their `project` out (the URL names it). */
  parentlessNestedLists: boolean;
  /** `repository/` commits as objects, a translation's being its component's. */
  commitObjects: boolean;
  /** Links carry no `format` parameter, or `format=json` when the request had it (else `format=api`). */
  plainLinks: boolean;
  /** `next`/`previous` keep their query parameters sorted by key, as Django REST framework writes them. */
  sortedPageLinks: boolean;
  /** A translation's `units/` pages like a standard list (50, at most 1000); else like `/api/units/`. */
  standardUnitPages: boolean;
  /** A GET of a translation's `file/` commits pending edits first ("Changes committed", action 17). */
  commitOnDownload: boolean;
  /** A bad filter value answers 400 keyed by the field (`{"timestamp": ["…"]}`), not one `detail`. */
  fieldErrors: boolean;
  /** Glossaries download as TBX, the source language as `.pot`, `text/x-gettext-catalog` without charset. */
  weblateFiles: boolean;
  /** Whole-number percentages written `100.0`, as Python writes a float. */
  floatPercents: boolean;
  /**
   * Announced for 2026.11, not in 2026.10.1 (and met today behind Anubis or Cloudflare):
   * anonymous requests meet a bot-protection page instead of JSON; null: none.
   */
  botChallenge: BotChallenge | null;
  /** 2026.10: an `Authorization` header with any scheme but `Token`/`Bearer` answers 401, even on public endpoints. */
  strictAuthorization: boolean;
  /** Announced (WeblateOrg/weblate#21696), not in 2026.10.1: `next`/`previous` carry an opaque `cursor`, no `page`, and lists no `count`. */
  cursorPagination: boolean;
  /** Announced with cursor pagination, not in 2026.10.1 (a bare array there): a project's `languages/` as a paginated envelope. */
  pagedProjectLanguages: boolean;
  /**
   * The fields of 2026.10.1 (measured): on top of `fields514`, projects without
   * `set_language_team` and `credits_url`, with `workspace` (null), `access_control`, the
   * translation-memory switches, `metrics_url`, `reports_url`, `announcements_url` and every
   * setting with its `inherit_*`/`effective_*` pair; components without `credits_url`, with the
   * pairs, `vcs_params`, `announcements_url`, `reports_url`; categories with the settings (all
   * inherited); translations' `announcements_url`; units' `tbx_terms`, `screenshots_url`,
   * `translation_parent`, `effective_source*`; changes' `addon`, `alert`; users' `profile`
   * instead of `languages`; `repository/` with `pending_units`, `outgoing_commits`, `missing_commits`.
   */
  recentFields: boolean;
  /**
   * The endpoints of 2026.10.1 (measured): root `suggestions` and `reports`; `announcements/` of
   * projects, components, translations and categories and `reports/` of the root, projects,
   * components and categories (empty lists; `reports/` 401 to anonymous clients); a project's
   * `metrics/` (component → language → statistics); `/api/suggestions/`.
   */
  recentEndpoints: boolean;
  /** 5.15: units in states 11 (needs rewriting) and 12 (needs checking), `automatically_translated` a unit flag. */
  newUnitStates: boolean;
  /** 2026: `action=` accepts the codes up to 104 (5.4: up to 74). */
  recentActions: boolean;
  /**
   * The fields 5.5–5.14 add (measured on 5.14.3): projects' `check_flags`, `commit_policy`,
   * `secondary_language`, `enforced_2fa`, `locked`, `credits_url`, `lock_url`, `machinery_settings`;
   * components' `file_format_params`, `key_filter`, `secondary_language`, `locked`, `credits_url`;
   * units' `language_code`, `last_updated`; changes' `old`, `details`; users' `languages`,
   * `date_expires`, `contributions_url`; groups' `enforced_2fa`; `share_url` with `/-/`; a
   * project's `languages/` ordered by language name with `translate_url` (no wlc-only names).
   */
  fields514: boolean;
  /**
   * Statistics as 5.14 writes them: no `untranslated*` nor `last_author` (nor a language's `code`),
   * percentages rounded down (an empty set 100% done), characters counted with the plural
   * separators, `recent_changes` the content changes in the 6 hours before the last change.
   */
  statistics514: boolean;
  /** 5.14: anonymous clients see no users (`/api/users/` an empty page, a user and its sub-resources 404). */
  hiddenUsers: boolean;
  /**
   * URLs written as Django reverses them: `@`, `:` and the sub-delimiters unescaped
   * (`languages/ca@valencia/`; the reference server otherwise `ca%40valencia`). Django's on
   * every version, but measured on 5.14.3 only.
   */
  djangoPaths: boolean;
}

/** What releases after 5.4 do, off: neither 5.4 nor the API description's tidy server does it. */
const laterBehavioursOff = {
  botChallenge: null,
  strictAuthorization: false,
  cursorPagination: false,
  pagedProjectLanguages: false,
  recentFields: false,
  recentEndpoints: false,
  newUnitStates: false,
  recentActions: false,
  fields514: false,
  statistics514: false,
  hiddenUsers: false,
  djangoPaths: false,
} as const satisfies Partial<ProfileBehaviours>;

const weblate54: ProfileBehaviours = {
  changesNewestFirst: true,
  browsableApi: true,
  legacyPagination: false,
  structuredErrors: false,
  rateLimit: weblateRateLimit,
  anonymousLimits: true,
  weblateFields: true,
  parentlessNestedLists: true,
  commitObjects: true,
  plainLinks: true,
  sortedPageLinks: true,
  standardUnitPages: true,
  commitOnDownload: true,
  fieldErrors: true,
  weblateFiles: true,
  floatPercents: true,
  ...laterBehavioursOff,
};

/**
 * A real Weblate 5.14.3, as measured by test/weblate/reference-parity.test.ts over the same data
 * (docs/decisions/2026-11-26-reference-vs-weblate-5.14.md): 5.4's behaviours with 5.10's errors
 * and the fields, figures and user listing of 5.14. What the reference server still does
 * otherwise is listed in that record.
 */
const weblate514: ProfileBehaviours = {
  ...weblate54,
  structuredErrors: true,
  fields514: true,
  statistics514: true,
  hiddenUsers: true,
  djangoPaths: true,
};

/**
 * A real Weblate 2026.10.1, as measured over the same data as 5.14.3
 * (docs/decisions/2026-11-28-reference-vs-weblate-2026.md): 5.14 with 2026's fields and
 * endpoints, states 11 and 12, the action codes up to 104 and the strict `Authorization`.
 * Pages are numbered and a project's `languages/` is a bare array, as on 5.14.
 */
const weblate2026: ProfileBehaviours = {
  ...weblate514,
  strictAuthorization: true,
  recentFields: true,
  recentEndpoints: true,
  newUnitStates: true,
  recentActions: true,
};

/**
 * What is announced but not released (not in 2026.10.1, docs/weblate-api.md, "Weblate 2026"):
 * cursor pagination, a project's `languages/` paged, and bot protection for anonymous clients
 * (Anubis's page, status 200; turn it off with `botChallenge: null`). For the crawler's tests
 * of what the next releases may do; no real server was measured with it.
 */
const weblate2026Announced: ProfileBehaviours = {
  ...weblate2026,
  botChallenge: { page: 'anubis', status: 200, after: 0 },
  cursorPagination: true,
  pagedProjectLanguages: true,
};

export const profiles: Record<ProfileName, ProfileBehaviours> = {
  'weblate-5.4': weblate54,
  'weblate-4.15': { ...weblate54, legacyPagination: true },
  'weblate-5.10': { ...weblate54, structuredErrors: true },
  'weblate-5.14': weblate514,
  'weblate-2026': weblate2026,
  'weblate-2026.11-announced': weblate2026Announced,
  ideal: {
    changesNewestFirst: false,
    browsableApi: false,
    legacyPagination: false,
    structuredErrors: false,
    rateLimit: undefined,
    anonymousLimits: false,
    weblateFields: false,
    parentlessNestedLists: false,
    commitObjects: false,
    plainLinks: false,
    sortedPageLinks: false,
    standardUnitPages: false,
    commitOnDownload: false,
    fieldErrors: false,
    weblateFiles: false,
    floatPercents: false,
    ...laterBehavioursOff,
  },
};

export function isProfileName(name: string): name is ProfileName {
  return (profileNames as readonly string[]).includes(name);
}

/** The profile's behaviours with the caller's own (those not undefined) laid over them. */
export function resolveBehaviours<T extends Partial<ProfileBehaviours>>(profile: ProfileName, own: T): ProfileBehaviours & T {
  const set = Object.fromEntries(Object.entries(own).filter(([, value]) => value !== undefined)) as T;
  return { ...profiles[profile], ...set };
}
