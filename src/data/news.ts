/**
 * Announcements and pending suggestions as the pages show them (docs/site.md, "Announcements
 * and suggestions"), read through the published view: nothing of a project an anonymous visitor
 * cannot see. A snapshot of a server before 2026 holds neither: the pages show nothing.
 */
import type { Announcement } from '../../api/announcement.ts';
import { currentAnnouncements, suggestionsByUnit, type PendingSuggestion } from '../../site-model/news.ts';
import { authorLabel, siteUsers } from './authors.ts';
import { perBuild } from './build-input.ts';
import { siteTree } from './tree.ts';

export type { Announcement };

/** The announcements of a project or component (its API path) current at the snapshot's start. */
export async function announcementsOf(path: string): Promise<Announcement[]> {
  const { snapshot } = await siteTree();
  return currentAnnouncements(await snapshot.record(`${path}announcements/`), snapshot.manifest.started);
}

/** A suggestion with its author named as a string's history names people (`--hide-authors` too). */
export interface ShownSuggestion extends Omit<PendingSuggestion, 'user'> {
  author: string;
}

/** Every pending suggestion the snapshot holds, by unit id, read once per build. */
export const unitSuggestions: () => Promise<Map<number, ShownSuggestion[]>> = perBuild(async () => {
  const { snapshot, hideAuthors } = await siteTree();
  const users = await siteUsers();
  const shown = new Map<number, ShownSuggestion[]>();
  for (const [id, list] of suggestionsByUnit(await snapshot.record('api/suggestions/')))
    shown.set(
      id,
      // No user: its author's account is gone ("unknown"), not a change the system made.
      list.map(({ user, ...rest }) => ({
        ...rest,
        author: user === null ? authorLabel(undefined, hideAuthors, false) : authorLabel(user, hideAuthors, true, users),
      })),
    );
  return shown;
});
