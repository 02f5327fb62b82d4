import type { APIRoute } from 'astro';
import { decodeLink } from '../../../snapshot/links.ts';
import { atomFeed } from '../../utils/atom.ts';
import { relativeHref, sitePaths } from '../../../site/paths.ts';
import { actionName } from '../../utils/names.ts';
import { siteTree } from '../../data/tree.ts';
import { feedEntries, newestChanges } from '../../data/changes.ts';

export const GET: APIRoute = async () => {
  const { snapshot, siteUrl } = await siteTree();
  const { base_url, format_api_links } = snapshot.manifest.server;
  const self = sitePaths.feed();
  // Feed readers need absolute links; without `--site-url` they are relative to the feed file.
  const href = (to: string) => (siteUrl ? new URL(to, siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`).href : relativeHref(self, to));
  const latest = await newestChanges(0, feedEntries);
  const body = atomFeed({
    id: `${base_url}#tmsnap-changes`,
    title: `Changes on ${new URL(base_url).host}`,
    updated: latest[0]?.timestamp ?? snapshot.manifest.finished,
    self: href(self),
    entries: latest.map((change) => {
      const where = change.translation
        ? `${change.translation.component.record.name} — ${change.translation.language.name}`
        : change.component?.record.name;
      const page = change.translation ? sitePaths.translation(change.translation.key) : change.component ? sitePaths.component(change.component.project.slug, change.component.slug) : undefined;
      return {
        id: decodeLink(`api/changes/${change.id}/`, { baseUrl: base_url, formatApi: format_api_links }),
        title: where ? `${actionName(change.action)}: ${where}` : actionName(change.action),
        updated: change.timestamp,
        href: page && href(page),
        author: change.user,
        summary: change.target,
      };
    }),
  });
  return new Response(body, { headers: { 'Content-Type': 'application/atom+xml' } });
};
