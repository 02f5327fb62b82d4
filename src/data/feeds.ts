/** Atom feeds of changes: the whole log's, and one per project and per language (docs/site.md). */
import { decodeLink } from '../../snapshot/index.ts';
import { relativeHref, sitePaths, type SitePath } from '../../site-model/paths.ts';
import { publicUrl } from '../../site-model/web.ts';
import { atomFeed } from '../utils/atom.ts';
import { serverHost } from './settings.ts';
import { ui } from '../i18n/page.ts';
import type { ChangeEntry } from './changes.ts';
import { siteTree } from './tree.ts';

/** An Atom response for `changes`, the feed living at `self`; `subject` tells the feeds apart (id and title). */
export async function changesFeed(self: SitePath, subject: { id: string; title: string } | undefined, changes: readonly ChangeEntry[]): Promise<Response> {
  const { snapshot, siteUrl } = await siteTree();
  const { base_url, format_api_links } = snapshot.manifest.server;
  // Feed readers need absolute links; without `--site-url` they are relative to the feed file.
  const href = (to: string) => (siteUrl ? publicUrl(siteUrl, to) : relativeHref(self, to));
  const host = serverHost(base_url);
  const body = atomFeed({
    id: `${base_url}#tmsnap-changes${subject ? `-${subject.id}` : ''}`,
    title: subject ? ui().t('feed.changesInOn', { name: subject.title, host }) : ui().t('feed.changesOn', { host }),
    updated: changes[0]?.timestamp ?? snapshot.manifest.finished,
    self: href(self),
    entries: changes.map((change) => {
      const where = change.translation ? `${change.translation.component.record.name} — ${change.translation.language.name}` : change.component?.record.name;
      const page =
        change.unitHref ??
        (change.translation
          ? sitePaths.translation(change.translation.key)
          : change.component
            ? sitePaths.component(change.component.project.slug, change.component.slug)
            : undefined);
      return {
        id: decodeLink(`api/changes/${change.id}/`, { baseUrl: base_url, formatApi: format_api_links }),
        title: where ? `${ui().actionName(change.action)}: ${where}` : ui().actionName(change.action),
        updated: change.timestamp,
        href: page && href(page),
        author: change.user,
        summary: changeSummary(change, where),
      };
    }),
  });
  return new Response(body, { headers: { 'Content-Type': 'application/atom+xml' } });
}

/** What happened, for an entry's summary: the action, who, where, the string and the text it set. */
export function changeSummary(change: ChangeEntry, where: string | undefined): string {
  const { t, actionName } = ui();
  const parts = [
    where
      ? t('feed.summaryIn', { action: actionName(change.action), user: change.user, where })
      : t('feed.summary', { action: actionName(change.action), user: change.user }),
  ];
  if (change.unitName) parts.push(t('feed.summaryString', { name: change.unitName }));
  if (change.target) parts.push(t('feed.summaryText', { text: change.target }));
  return parts.join(' ');
}
