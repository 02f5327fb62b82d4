/**
 * The reference server's data model: what a Weblate instance holds, independent of how the
 * API spells it. `routes/` renders API records from these rows; a dataset (the bundled real
 * catalogs in `data/bundled/`, or the lazy synthetic generator) provides them.
 *
 * Row fields named like API fields carry the API's values unchanged; camelCase fields are
 * the model's own (ids of related rows, hashes as bigint).
 */

export interface LanguageRow {
  /** The instance's id of the language; absent: its place in the model's list, from 1. */
  id?: number;
  code: string;
  name: string;
  plural: { id: number; source: number; number: number; formula: string; type: number };
  aliases: string[];
  direction: 'ltr' | 'rtl' | '';
  population: number;
}

export interface ProjectRow {
  id: number;
  slug: string;
  name: string;
  web: string;
  instructions: string;
  translation_review: boolean;
  source_review: boolean;
  set_language_team: boolean;
  enable_hooks: boolean;
  language_aliases: string;
  /** Visible only with a token when the server runs with `token required` (404 otherwise). */
  private: boolean;
}

/** Every scalar field of the API's Component, by its API name. */
export interface ComponentFields {
  vcs: string;
  repo: string;
  git_export: string;
  branch: string;
  push_branch: string;
  filemask: string;
  template: string;
  edit_template: boolean;
  intermediate: string;
  new_base: string;
  file_format: string;
  license: string;
  license_url: string | null;
  agreement: string;
  new_lang: string;
  language_code_style: string;
  push: string;
  check_flags: string;
  priority: number;
  enforced_checks: unknown[];
  restricted: boolean;
  repoweb: string;
  report_source_bugs: string;
  merge_style: string;
  commit_message: string;
  add_message: string;
  delete_message: string;
  merge_message: string;
  addon_message: string;
  pull_message: string;
  allow_translation_propagation: boolean;
  manage_units: boolean;
  enable_suggestions: boolean;
  suggestion_voting: boolean;
  suggestion_autoaccept: number;
  push_on_commit: boolean;
  commit_pending_age: number;
  auto_lock_error: boolean;
  language_regex: string;
  variant_regex: string;
  addons: unknown[];
  is_glossary: boolean;
  glossary_color: string;
}

export interface ComponentRow extends ComponentFields {
  id: number;
  projectId: number;
  /**
   * Its slug; in a category (`categoryId`), the categories' slugs and its own joined by `/`
   * (`forms/wtforms`), the path Weblate writes in API URLs as `forms%252Fwtforms`.
   */
  slug: string;
  /** 5.5+: the category the component is in (`Model.categories`), if any. */
  categoryId?: number | null;
  name: string;
  sourceLanguage: string;
}

/** 5.5+: a category of a project's components, possibly inside another. */
export interface CategoryRow {
  id: number;
  projectId: number;
  slug: string;
  name: string;
  categoryId: number | null;
}

export interface TranslationRow {
  id: number;
  componentId: number;
  languageCode: string;
  filename: string;
  revision: string;
}

export interface UnitRow {
  id: number;
  translationId: number;
  /** The unit with the same `idHash` in the component's source-language translation (itself there). */
  sourceUnitId: number;
  position: number;
  source: string[];
  previous_source: string;
  target: string[];
  context: string;
  note: string;
  location: string;
  flags: string;
  extra_flags: string;
  labels: unknown[];
  /** 0, 10, 11, 12 (5.15+), 20, 30 (review on), 100 (read-only); see docs/weblate-api.md. */
  state: number;
  /** 5.15+: filled in by automatic translation (a flag; before, a label). Absent: false. */
  automaticallyTranslated?: boolean;
  idHash: bigint;
  contentHash: bigint;
  num_words: number;
  priority: number;
  explanation: string;
  pending: boolean;
  has_suggestion: boolean;
  has_comment: boolean;
  has_failing_check: boolean;
  /**
   * ISO 8601 UTC with microseconds and Z: when the unit was added. Weblate's `auto_now_add`: an
   * edit never moves it (sites show it as "Added" where the server sends no `last_updated`).
   */
  timestamp: string;
  /** 5.6+: when the unit's row was last saved (an edit, a commit, a check run); absent: `timestamp`. */
  last_updated?: string;
  /**
   * When the unit's newest change in the log happened: what `q=changed:` matches (Weblate's
   * `change__timestamp`); not sent. Absent: `timestamp` (a unit changed since it was added).
   */
  changed?: string;
}

export interface ChangeRow {
  id: number;
  action: number;
  timestamp: string;
  /** Usernames; null for changes the system made. */
  user: string | null;
  author: string | null;
  unitId: number | null;
  translationId: number | null;
  componentId: number | null;
  target: string;
  /** The project of a change about no component ("Project created"): its project's `changes/` list it. */
  projectId?: number | null;
  /** 5.6+: the value before the change and what Weblate recorded about it; absent: `''` and `{}`. */
  old?: string;
  details?: Record<string, unknown>;
  /** 2026: the alert an "Alert triggered" change (47) is about, as the server describes it; absent: null. */
  alert?: Record<string, unknown> | null;
}

/** A commit of a component's repository, as 5.4's `repository/` spells `weblate_commit`. */
export interface CommitRow {
  revision: string;
  author_name: string;
  author_email: string;
  /** ISO 8601 UTC. */
  authordate: string;
  commit_name: string;
  commit_email: string;
  commitdate: string;
  message: string;
}

export interface UserRow {
  id: number;
  username: string;
  full_name: string;
}

/**
 * 2026: an announcement of a project (`componentId` null) or of one of its components, as the
 * `announcements/` lists send it. The lists send expired ones too; Weblate's pages hide them.
 */
export interface AnnouncementRow {
  id: number;
  projectId: number;
  componentId: number | null;
  /** Markdown, as typed on the server: untrusted text. */
  message: string;
  /** `info`, `warning`, `danger` or `success`. */
  severity: string;
  /** The last day it is shown (`2026-12-31`), or null. */
  expiry: string | null;
  notify: boolean;
}

/** 2026: a pending suggestion recorded as such (a mirror of a real server); datasets have only units' `has_suggestion`. */
export interface SuggestionRow {
  id: number;
  unitId: number;
  target: string[];
  /** Its author's username; null when the account is gone. */
  user: string | null;
  timestamp: string;
  votes: number;
}

export interface NotificationRow {
  id: number;
  username: string;
  notification: string;
  scope: number;
  frequency: number;
  projectId: number | null;
  componentId: number | null;
}

/**
 * What the HTTP layer reads. Small collections come whole; units and changes come in
 * windows so that a lazily generated million-unit instance never has to exist in memory.
 */
export interface Model {
  languages(): readonly LanguageRow[];
  projects(): readonly ProjectRow[];
  components(): readonly ComponentRow[];
  /** 5.5+ categories; absent or empty: none (the 2026 profile then shows one per project). */
  categories?(): readonly CategoryRow[];
  translations(): readonly TranslationRow[];
  users(): readonly UserRow[];
  notifications(): readonly NotificationRow[];
  /** 2026 announcements; absent or empty: none (every `announcements/` list is empty). */
  announcements?(): readonly AnnouncementRow[];
  /**
   * 2026 suggestions as recorded; absent or undefined: none recorded, and `/api/suggestions/`
   * makes one of each unit with `has_suggestion` (routes/recent.ts).
   */
  suggestions?(): readonly SuggestionRow[] | undefined;

  /** Number of units in a translation. */
  unitCount(translationId: number): number;
  /** Units of one translation ordered by id, `limit` of them from `offset`. */
  units(translationId: number, offset: number, limit: number): UnitRow[];
  unit(id: number): UnitRow | undefined;
  /**
   * Unit and word counts of a translation by state, equal to counting its rows; optional, for
   * models that can answer without building every row (the lazy synthetic one).
   */
  unitCounts?(translationId: number): Counts;

  /**
   * The newest change of a translation; optional, for models that know it without reading the
   * log backwards (the lazy synthetic one, whose source translations' changes come first).
   */
  newestChange?(translationId: number): ChangeRow | undefined;

  /**
   * What each user translated (the changes 2 and 5 they authored, and in which languages);
   * optional, for models that count it without building the log (the lazy synthetic one).
   */
  translators?(): Map<string, { translated: number; languages: Set<string> }>;

  /**
   * True when every unit's `changed ?? timestamp` is that of a change to it in the log (its newest), so
   * the units changed since a time are found by reading the log from that time on instead of
   * every unit (`q=changed:`); the lazy synthetic model, where each unit has one change.
   */
  unitTimesInLog?: boolean;

  /**
   * Number of changes, and a window of them in ascending id order. Ids are handed out as
   * things happen, so timestamps never decrease with the id: the HTTP layer bisects on them.
   */
  changeCount(): number;
  changes(offset: number, limit: number): ChangeRow[];

  /** The component repository's last commit, for models that record commits (the in-memory one after a commit). */
  lastCommit?(componentId: number): CommitRow | undefined;

  /**
   * A number that changes whenever the data does, so the HTTP layer can cache indexes and
   * statistics; read-only models leave it out and are cached once.
   */
  revision?(): number;
}

/** Unit and word counts of a set of units, by state (state values: docs/weblate-api.md). */
export interface Counts {
  total: number;
  totalWords: number;
  translated: number;
  translatedWords: number;
  fuzzy: number;
  fuzzyWords: number;
  approved: number;
  approvedWords: number;
  readonly: number;
  readonlyWords: number;
  failing: number;
  failingWords: number;
  /** Characters (and plural separators) of the sources with a failing check: 2026's `metrics/` sends them. */
  failingChars: number;
  failingSeparators: number;
  suggestions: number;
  comments: number;
  /** Characters of the source strings, by the same states (5.4's `*_chars` statistics). */
  totalChars: number;
  translatedChars: number;
  fuzzyChars: number;
  approvedChars: number;
  readonlyChars: number;
  /**
   * Characters of the plural separators (two per form after the first) by the same states:
   * Weblate 5.14 stores a plural source joined by "\x1e\x1e" and counts its characters so.
   */
  totalSeparators: number;
  translatedSeparators: number;
  fuzzySeparators: number;
  approvedSeparators: number;
  readonlySeparators: number;
}
