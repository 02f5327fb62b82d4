/**
 * Atom entries for release-level crossings (`--levels`, src/data/levels.ts): a language of a
 * project or component that went up or down a level between the previous complete snapshot
 * and the built one. They are merged into the changes feeds (src/data/feeds.ts renders those)
 * by the feed endpoints: every crossing in the whole log's feed, a project's in its feed, a
 * language's in its feed.
 */
import { relativeHref, sitePaths, type SitePath } from '../../site-model/paths.ts';
import { publicUrl } from '../../site-model/web.ts';
import { atomFeed, type FeedEntry } from '../utils/atom.ts';
import { ui } from '../i18n/page.ts';
import { levelCrossingsOfBuild, type LevelCrossing } from './levels.ts';
import { siteTree } from './tree.ts';

/** Which crossings a feed carries: all of them, a project's, or a language's. */
export interface CrossingFilter {
  project?: string;
  language?: string;
}

/** A crossing's Atom title, in the site's language: "Czech in Hello went up from beta to ship (89.9% → 95.0%)". */
export function crossingTitle(crossing: LevelCrossing): string {
  const { t, percent } = ui();
  return t(crossing.direction === 'up' ? 'levels.crossedUp' : 'levels.crossedDown', {
    language: crossing.language.name,
    name: crossing.name,
    from: crossing.from ?? t('levels.belowAll'),
    to: crossing.to ?? t('levels.belowAll'),
    before: percent(crossing.before),
    after: percent(crossing.after),
  });
}

/** The crossings' Atom entries for the feed at `self`, newest snapshot's first, projects before components. */
export async function levelFeedEntries(self: SitePath, filter: CrossingFilter): Promise<FeedEntry[]> {
  const crossings = await levelCrossingsOfBuild();
  if (crossings?.from === undefined) return [];
  const { snapshot, siteUrl, components } = await siteTree();
  const { finished } = snapshot.manifest;
  const { base_url } = snapshot.manifest.server;
  const href = (to: SitePath) => (siteUrl ? publicUrl(siteUrl, to) : relativeHref(self, to));
  const componentByKey = new Map(components.map((component) => [`${component.project.slug}/${component.slug}`, component]));
  const page = (crossing: LevelCrossing, grouping: 'project' | 'component'): SitePath | undefined => {
    if (grouping === 'project') return sitePaths.project(crossing.key);
    const component = componentByKey.get(crossing.key);
    return component && sitePaths.component(component.project.slug, component.slug);
  };
  const projectOf = (crossing: LevelCrossing) => crossing.key.split('/')[0];
  const entries = (list: readonly LevelCrossing[], grouping: 'project' | 'component'): FeedEntry[] =>
    list
      .filter((crossing) => filter.project === undefined || projectOf(crossing) === filter.project)
      .filter((crossing) => filter.language === undefined || crossing.language.slug === filter.language)
      .map((crossing) => {
        const to = page(crossing, grouping);
        const title = crossingTitle(crossing);
        return {
          id: `${base_url}#tmsnap-level-${grouping}-${crossing.key}-${crossing.language.slug}-${crossings.from}--${crossings.to}`,
          title,
          updated: finished,
          href: to && href(to),
          author: 'tmsnap',
          summary: title,
        };
      });
  return [...entries(crossings.projects, 'project'), ...entries(crossings.components, 'component')];
}

/**
 * The changes feed `feed` with the crossings' entries added before its own and its `<updated>`
 * moved to the newest of them. The feed is rendered by src/data/feeds.ts; the entries by the
 * same Atom writer (src/utils/atom.ts), so they are escaped the same way.
 */
export async function withLevelEntries(feed: Response | Promise<Response>, self: SitePath, filter: CrossingFilter = {}): Promise<Response> {
  const response = await feed;
  const entries = await levelFeedEntries(self, filter);
  if (entries.length === 0) return response;
  const text = await response.text();
  const rendered = atomFeed({ id: '', title: '', updated: '', self: '', entries });
  const added = rendered.slice(rendered.indexOf('  <entry>'), rendered.lastIndexOf('</feed>'));
  const firstEntry = text.indexOf('  <entry>');
  const at = firstEntry === -1 ? text.lastIndexOf('</feed>') : firstEntry;
  let merged = text.slice(0, at) + added + text.slice(at);
  const newest = entries[0]!.updated;
  merged = merged.replace(/<updated>([^<]*)<\/updated>/, (whole, updated: string) => (updated < newest ? `<updated>${newest}</updated>` : whole));
  return new Response(merged, { headers: response.headers });
}
