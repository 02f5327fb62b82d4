import type { APIRoute, GetStaticPaths } from 'astro';
import { withLevelEntries } from '../../../data/level-feeds.ts';
import { languageSubject, subjectFeed } from '../../../data/changes-subject.ts';
import { languageStaticPaths, type LanguageEntry } from '../../../data/tree.ts';

/** The latest changes in one language: `languages/<code>/feed.xml`. */
export const getStaticPaths = languageStaticPaths satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const language = props.language as LanguageEntry;
  const subject = await languageSubject(language);
  return withLevelEntries(subjectFeed(subject), subject.feed, { language: language.code });
};
