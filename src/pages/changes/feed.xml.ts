import type { APIRoute } from 'astro';
import { sitePaths } from '../../../site-model/paths.ts';
import { feedEntries, newestChanges } from '../../data/changes.ts';
import { changesFeed } from '../../data/feeds.ts';

export const GET: APIRoute = async () => changesFeed(sitePaths.feed(), undefined, await newestChanges(0, feedEntries));
