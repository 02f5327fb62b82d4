import type { APIRoute } from 'astro';
import { sitePaths } from '../../../site-model/paths.ts';
import { feedEntries, newestChanges } from '../../data/changes.ts';
import { changesFeed } from '../../data/feeds.ts';
import { withLevelEntries } from '../../data/level-feeds.ts';

export const GET: APIRoute = async () => withLevelEntries(changesFeed(sitePaths.feed(), undefined, await newestChanges(0, feedEntries)), sitePaths.feed());
