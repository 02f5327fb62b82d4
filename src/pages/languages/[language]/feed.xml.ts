import type { APIRoute, GetStaticPaths } from 'astro';
import { languageSubject, subjectFeed } from '../../../data/changes-subject.ts';
import { languageStaticPaths, type LanguageEntry } from '../../../data/tree.ts';

/** The latest changes in one language: `languages/<code>/feed.xml`. */
export const getStaticPaths = languageStaticPaths satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => subjectFeed(await languageSubject(props.language as LanguageEntry));
