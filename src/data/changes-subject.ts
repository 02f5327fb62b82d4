/**
 * A project or a language as the subject of a latest-changes page and an Atom feed
 * (docs/site.md): the two kinds differ only in the names and paths below, so one page
 * component (SubjectChanges.astro) and one feed function serve both.
 */
import { sitePaths, type SitePath } from '../../site-model/paths.ts';
import { type ChangeEntry, feedEntries, latestChangesBySubject } from './changes.ts';
import { changesFeed } from './feeds.ts';
import type { LanguageEntry, ProjectEntry } from './tree.ts';
import type { MessageKey } from '../i18n/index.ts';

export interface ChangesSubject {
  name: string;
  /** The subject's own page, and the list of its kind it is reached from (breadcrumbs). */
  home: SitePath;
  list: { label: MessageKey; path: SitePath };
  page: SitePath;
  feed: SitePath;
  /** Tells the feed apart from the others (its Atom id). */
  feedId: string;
  /** What the page says when the subject has no changes. */
  none: MessageKey;
  /** Its latest changes, newest first. */
  changes: readonly ChangeEntry[];
}

export async function projectSubject(project: ProjectEntry): Promise<ChangesSubject> {
  return {
    name: project.record.name,
    home: sitePaths.project(project.slug),
    list: { label: 'nav.projects', path: sitePaths.home() },
    page: sitePaths.projectChanges(project.slug),
    feed: sitePaths.projectFeed(project.slug),
    feedId: `project-${project.slug}`,
    none: 'changes.noneProject',
    changes: (await latestChangesBySubject()).byProject.get(project.slug) ?? [],
  };
}

export async function languageSubject(language: LanguageEntry): Promise<ChangesSubject> {
  return {
    name: language.name,
    home: sitePaths.language(language.code),
    list: { label: 'nav.languages', path: sitePaths.languages() },
    page: sitePaths.languageChanges(language.code),
    feed: sitePaths.languageFeed(language.code),
    feedId: `language-${language.code}`,
    none: 'changes.noneLanguage',
    changes: (await latestChangesBySubject()).byLanguage.get(language.code) ?? [],
  };
}

/** The subject's Atom feed: its newest `feedEntries` changes. */
export function subjectFeed(subject: ChangesSubject): Promise<Response> {
  return changesFeed(subject.feed, { id: subject.feedId, title: subject.name }, subject.changes.slice(0, feedEntries));
}
