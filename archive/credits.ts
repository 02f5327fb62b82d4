/**
 * Credits (issue 26): who did the translation work of each project and language in a period,
 * counted from the archived change records, as Markdown and JSON for release notes. Pure, but
 * for `readCredits` at the edge. Rules and reasons: docs/decisions/2026-11-26-levels-drift-credits.md.
 *
 * Only what an anonymous visitor could see is named: a user's `full_name`, else `username`
 * (what Weblate shows anonymous clients of `/api/users/`, docs/weblate-api.md), never a field
 * a key reads. Changes should come from the site's published view of the snapshot
 * (site-model/published-snapshot.ts), which leaves out projects the public cannot see; e-mail
 * addresses are removed by the `redact` the caller passes, the site's own (site-model/privacy.ts
 * `redactEmails`), which archive/ may not import.
 */
import { action } from '../api/change.ts';
import type { Snapshot, StoredChange, StoredUser } from '../snapshot/index.ts';
import type { Named } from './diff.ts';
import type { Tag } from './tags.ts';

/**
 * The actions that are a person's translation work: writing, uploading, suggesting, reverting,
 * replacing and reviewing strings. Automatic translation, bulk edits, repository and
 * administrative actions are not.
 */
export const creditedActions: ReadonlySet<number> = new Set([
  action.translationChanged,
  action.translationAdded,
  action.suggestionAdded,
  action.suggestionAccepted,
  action.translationReverted,
  action.translationUploaded,
  action.translationReplaced,
  action.translationApproved,
  action.markedForEdit,
]);

/** A period of change timestamps, `since` inclusive and `until` exclusive; either may be open. */
export interface Period {
  since?: Date;
  until?: Date;
}

export const allTime: Period = {};

/** The twelve (or `months`) months before `now`, same day of the month. */
export function lastMonths(now: Date, months = 12): Period {
  const since = new Date(now);
  since.setUTCMonth(since.getUTCMonth() - months);
  return { since, until: now };
}

/** From a snapshot's crawl on: the work done since then (its `manifest.started`). */
export function sinceSnapshot(snapshot: { manifest: { started: string } }): Period {
  return { since: new Date(snapshot.manifest.started) };
}

/**
 * Where `--since` starts: a release tag (its snapshot's crawl start), a snapshot id (the same),
 * or a UTC date `YYYY-MM-DD` (or a full ISO time). A one-line message when it is none of these.
 */
export function sinceOf(text: string, tags: readonly Tag[], snapshots: ReadonlyArray<{ id: string; manifest?: { started: string } }>): Date | string {
  const id = tags.find((tag) => tag.name === text)?.snapshot ?? text;
  const started = snapshots.find((snapshot) => snapshot.id === id)?.manifest?.started;
  if (started !== undefined) return new Date(started);
  if (/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/.test(text) && !Number.isNaN(Date.parse(text))) return new Date(text);
  return `--since "${text}" is not a release tag, a finished snapshot or a date (YYYY-MM-DD, UTC): \`tmsnap tag\` lists the tags`;
}

/** A period the site publishes credits for, and the file name part it is known by. */
export interface NamedPeriod {
  /** `all`, `12-months` or `since-<tag>`. */
  key: string;
  period: Period;
  /** The release tag a `since-` period starts at. */
  tag?: Tag;
}

/**
 * The site's periods at snapshot `built`: all time, the twelve months before its crawl, and
 * since each release tag pinned at or before it (a later release did not exist then).
 */
export function creditPeriods(built: { id: string; manifest: { started: string } }, tags: readonly Tag[], started: ReadonlyMap<string, string>): NamedPeriod[] {
  const periods: NamedPeriod[] = [
    { key: 'all', period: allTime },
    { key: '12-months', period: lastMonths(new Date(built.manifest.started)) },
  ];
  for (const tag of tags) {
    const at = started.get(tag.snapshot);
    if (at === undefined || tag.snapshot > built.id) continue;
    periods.push({ key: `since-${tag.name}`, period: { since: new Date(at), until: new Date(built.manifest.started) }, tag });
  }
  return periods;
}

export function inPeriod(timestamp: string, period: Period): boolean {
  const time = Date.parse(timestamp);
  if (Number.isNaN(time)) return false;
  return (period.since === undefined || time >= period.since.getTime()) && (period.until === undefined || time < period.until.getTime());
}

/** Removes e-mail addresses from a text (site-model/privacy.ts `redactEmails`). */
export type Redact = (text: string) => string;

/** One contributor of a language, and how many changes of theirs the period holds. */
export interface Contributor {
  name: string;
  changes: number;
}

export interface LanguageCredits {
  language: Named;
  /** Most changes first, then by name. */
  contributors: Contributor[];
}

export interface ProjectCredits {
  project: Named;
  /** By language code. */
  languages: LanguageCredits[];
}

export interface CreditsInput {
  changes: Iterable<StoredChange>;
  /** Users by stored path (`api/users/<username>/`), as the snapshot holds them. */
  users: ReadonlyMap<string, StoredUser>;
  /** Display names of projects (by slug) and languages (by code); a slug or code without one is shown as it is. */
  projectNames: ReadonlyMap<string, string>;
  languageNames: ReadonlyMap<string, string>;
  period: Period;
  redact: Redact;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The name a contributor is credited by: the first of `full_name` and `username` that is not
 * empty and holds no e-mail address (Weblate allows an address as either), else the username
 * with its address removed. `userPath` is the change's stored `author` or `user` link.
 */
export function publicName(userPath: string, users: ReadonlyMap<string, StoredUser>, redact: Redact): string {
  const record = users.get(userPath);
  const username = record?.username ?? decoded(/^api\/users\/([^/]+)\/$/.exec(userPath)?.[1] ?? userPath);
  for (const candidate of [record?.full_name, username]) {
    const name = candidate?.trim() ?? '';
    if (name !== '' && redact(name) === name) return name;
  }
  return redact(username);
}

/** Who did a change's work: its author (whose words they are: a suggestion's author when accepted), else the user who saved it. */
export function creditedUser(change: StoredChange): string | undefined {
  return change.author ?? change.user ?? undefined;
}

/** Per project and language, the contributors of the period's translation work, projects by slug and languages by code. */
export function credits(input: CreditsInput): ProjectCredits[] {
  // project slug → language code → user path → count
  const counts = new Map<string, Map<string, Map<string, number>>>();
  for (const change of input.changes) {
    if (!creditedActions.has(change.action) || change.translation === null || !inPeriod(change.timestamp, input.period)) continue;
    const user = creditedUser(change);
    const match = /^api\/translations\/([^/]+)\/[^/]+\/([^/]+)\/$/.exec(change.translation);
    if (user === undefined || !match) continue;
    const [project, language] = [decoded(match[1]!), decoded(match[2]!)];
    let languages = counts.get(project);
    if (!languages) counts.set(project, (languages = new Map()));
    let users = languages.get(language);
    if (!users) languages.set(language, (users = new Map()));
    users.set(user, (users.get(user) ?? 0) + 1);
  }
  const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...counts.keys()].sort(byKey).map((project) => ({
    project: { slug: project, name: input.projectNames.get(project) ?? project },
    languages: [...counts.get(project)!.keys()].sort(byKey).map((language) => ({
      language: { slug: language, name: input.languageNames.get(language) ?? language },
      contributors: contributorsOf(counts.get(project)!.get(language)!, input),
    })),
  }));
}

/** Counts by user path as named contributors; two users shown by the same name stay two lines. */
function contributorsOf(users: ReadonlyMap<string, number>, input: CreditsInput): Contributor[] {
  return [...users.entries()]
    .map(([path, changes]) => ({ name: publicName(path, input.users, input.redact), changes }))
    .sort((a, b) => b.changes - a.changes || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A text safe inside a Markdown line: the characters that would start inline markup are escaped, line breaks become spaces. */
export function markdownText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_[\]<>|~&]/g, (character) => `\\${character}`);
}

/** The credits as Markdown for release notes: a heading per project, a line per language. */
export function creditsMarkdown(projects: readonly ProjectCredits[]): string {
  const lines: string[] = [];
  for (const { project, languages } of projects) {
    if (lines.length > 0) lines.push('');
    lines.push(`## ${markdownText(project.name)}`, '');
    for (const { language, contributors } of languages) {
      lines.push(`- **${markdownText(language.name)}**: ${contributors.map((contributor) => markdownText(contributor.name)).join(', ')}`);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The credits as JSON for release tooling: the same content, with the counts. */
export function creditsJson(projects: readonly ProjectCredits[], period: Period): string {
  const value = {
    period: { since: period.since?.toISOString() ?? null, until: period.until?.toISOString() ?? null },
    projects: projects.map(({ project, languages }) => ({
      project: project.slug,
      name: project.name,
      languages: languages.map(({ language, contributors }) => ({ language: language.slug, name: language.name, contributors })),
    })),
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The credits of one snapshot's change log (it holds every change crawled so far, de-duplicated,
 * snapshot-format.md "Index"). Pass the site's published view of the snapshot and its redaction.
 */
export async function readCredits(snapshot: Snapshot, period: Period, redact: Redact): Promise<ProjectCredits[]> {
  const users = new Map((await snapshot.users()).map(({ path, record }) => [path, record]));
  const projectNames = new Map((await snapshot.projects()).map(({ record }) => [record.slug, record.name]));
  const languageNames = new Map((await snapshot.languages()).map(({ record }) => [record.code, record.name]));
  const changes: StoredChange[] = [];
  for await (const change of snapshot.changes()) changes.push(change);
  return credits({ changes, users, projectNames, languageNames, period, redact });
}
