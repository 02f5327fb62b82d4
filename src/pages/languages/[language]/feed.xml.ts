import type { APIRoute, GetStaticPaths } from 'astro';
import { sitePaths } from '../../../../site/paths.ts';
import { feedEntries, latestChangesBySubject } from '../../../data/changes.ts';
import { changesFeed } from '../../../data/feeds.ts';
import { languageStaticPaths, type LanguageEntry } from '../../../data/tree.ts';

/** The latest changes in one language: `languages/<code>/feed.xml`. */
export const getStaticPaths = languageStaticPaths satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const language = props.language as LanguageEntry;
  const { byLanguage } = await latestChangesBySubject();
  return changesFeed(
    sitePaths.languageFeed(language.code),
    { id: `language-${language.code}`, title: language.name },
    (byLanguage.get(language.code) ?? []).slice(0, feedEntries),
  );
};
