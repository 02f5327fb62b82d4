/**
 * The "at <tag>" badges of a release (issue 26): the share translated at the release, over the
 * whole site (`all.svg`) and per project (`project-<slug>.svg`), each with its shields.io JSON,
 * drawn like the site's other badges (src/templates/badges.ts).
 */
import type { APIRoute } from 'astro';
import { percent } from '../../../../utils/format.ts';
import { badgeColor, badgeSvg, formatPercent } from '../../../../utils/badge.ts';
import { ui } from '../../../../i18n/page.ts';
import { releaseProjects, releases, type Release } from '../../../../data/releases.ts';
import { releasePaths } from '../../../../../site-model/release-paths.ts';
import type { Figures } from '../../../../../archive/figures.ts';

interface Badge {
  release: Release;
  name: string;
  figures: Figures;
  format: 'svg' | 'json';
}

export async function getStaticPaths() {
  const paths = [];
  for (const release of await releases()) {
    const { all, projects } = await releaseProjects(release);
    const badges: Array<[string | undefined, string, Figures]> = [
      [undefined, ui().t('release.allProjects'), all],
      ...[...projects].map(([slug, { name, figures }]): [string, string, Figures] => [slug, name, figures]),
    ];
    for (const [slug, name, figures] of badges) {
      for (const format of ['svg', 'json'] as const) {
        const [, tag, , file] = releasePaths.badge(release.tag.name, slug, format).split('/');
        paths.push({ params: { tag, file }, props: { release, name, figures, format } satisfies Badge });
      }
    }
  }
  return paths;
}

export const GET: APIRoute<Badge> = ({ props }) => {
  const { t } = ui();
  const value = percent(props.figures.translated, props.figures.total);
  const label = t('release.badgeLabel', { tag: props.release.tag.name });
  if (props.format === 'json') {
    // https://shields.io/badges/endpoint-badge: schemaVersion 1, label, message, color (hex without '#').
    return new Response(`${JSON.stringify({ schemaVersion: 1, label, message: formatPercent(value), color: badgeColor(value).slice(1) })}\n`);
  }
  return new Response(badgeSvg(label, value, t('release.badgeTitle', { name: props.name, tag: props.release.tag.name, percent: formatPercent(value) })));
};
