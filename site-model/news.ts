/**
 * What Weblate 2026's lists give the site (docs/site.md, "Announcements and suggestions"): the
 * announcements current at the snapshot's time, and the pending suggestions by unit. Pure: the
 * records come from the published view (site-model/published-snapshot.ts), which holds none of
 * a project an anonymous visitor cannot see.
 */
import { announcement, type Announcement } from '../api/announcement.ts';
import { suggestion } from '../api/suggestion.ts';

/** The items of a stored list record: a page's `results`, or a plain list; none for anything else. */
function listItems(record: unknown): unknown[] {
  if (Array.isArray(record)) return record;
  const results = typeof record === 'object' && record !== null ? (record as { results?: unknown }).results : undefined;
  return Array.isArray(results) ? results : [];
}

/**
 * The announcements of a stored `announcements/` list that are current at `at` (an ISO time,
 * the snapshot's start), in the server's order (by id). The lists send expired ones too;
 * Weblate shows one through its `expiry` day (`expiry >= today`, a date, in UTC as tmsnap
 * counts days), so does the site. An item short of what the site reads is left out.
 */
export function currentAnnouncements(record: unknown, at: string): Announcement[] {
  const day = new Date(at).toISOString().slice(0, 10);
  return listItems(record).flatMap((item) => {
    const parsed = announcement.safeParse(item);
    if (!parsed.success) return [];
    const { expiry } = parsed.data;
    return expiry === null || expiry.slice(0, 10) >= day ? [parsed.data] : [];
  });
}

/** A pending suggestion as a string's row shows it. */
export interface PendingSuggestion {
  /** One element per plural form. */
  target: string[];
  /** Its author as a stored user path (`api/users/<username>/`, as history's links are), or null. */
  user: string | null;
  timestamp: string;
  votes: number;
}

/** The unit id a suggestion's `unit` link names (`…/api/units/<id>/`). */
export function unitIdOf(link: string): number | undefined {
  const id = /\/units\/(\d+)\/?$/.exec(link)?.[1];
  return id === undefined ? undefined : Number(id);
}

/**
 * The stored path of the user a link names: the list keeps the server's absolute links
 * (`https://host/api/users/jane/`); history and credits name people by `api/users/<username>/`.
 */
export function userPathOf(link: string): string {
  return /(?:^|\/)(api\/users\/[^/?#]+\/)$/.exec(link)?.[1] ?? link;
}

/**
 * The suggestions of a stored `/api/suggestions/` list by unit id, each unit's oldest first.
 * Pages join them to the units they list: a suggestion shows only beside a unit of a published
 * translation, whatever else the list holds.
 */
export function suggestionsByUnit(record: unknown): Map<number, PendingSuggestion[]> {
  const byUnit = new Map<number, PendingSuggestion[]>();
  for (const item of listItems(record)) {
    const parsed = suggestion.safeParse(item);
    if (!parsed.success) continue;
    const id = unitIdOf(parsed.data.unit);
    if (id === undefined) continue;
    const { target, user, timestamp, votes } = parsed.data;
    const list = byUnit.get(id) ?? [];
    list.push({ target, user: user === null ? null : userPathOf(user), timestamp, votes });
    byUnit.set(id, list);
  }
  for (const list of byUnit.values()) list.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  return byUnit;
}
