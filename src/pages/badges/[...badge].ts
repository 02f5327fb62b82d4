import type { APIRoute, GetStaticPaths } from 'astro';
import { badgeColor, badgeSvg, formatPercent } from '../../utils/badge.ts';
import { sitePaths, type BadgeFormat } from '../../../site/paths.ts';
import { siteTree } from '../../data/tree.ts';
import { type Totals } from '../../data/totals.ts';
import { percent } from '../../utils/format.ts';
import { ui } from '../../i18n/page.ts';

/**
 * One SVG per project, component and translation (`badges/<project>[/<component>[/<language>]].svg`),
 * and next to each the shields.io "endpoint" JSON (`….json`) for https://img.shields.io/endpoint?url=….
 */
export const getStaticPaths = (async () => {
  const { projects, components, translations } = await siteTree();
  const { t } = ui();
  const badge = (path: (format: BadgeFormat) => string, totals: Pick<Totals, 'translated' | 'total'>, title: string) =>
    (['svg', 'json'] as const).map((format) => ({
      params: { badge: path(format).slice('badges/'.length) },
      props: { percent: percent(totals.translated, totals.total), title, format },
    }));
  return [
    ...projects.flatMap((p) => badge((f) => sitePaths.projectBadge(p.slug, f), p.totals, t('badge.title', { name: p.record.name }))),
    ...components.flatMap((c) =>
      badge((f) => sitePaths.componentBadge(c.project.slug, c.slug, f), c.totals, t('badge.title', { name: `${c.project.record.name} / ${c.record.name}` })),
    ),
    ...translations.flatMap((tr) =>
      badge((f) => sitePaths.translationBadge(tr.key, f), tr.record, t('badge.title', { name: `${tr.component.record.name} (${tr.language.code})` })),
    ),
  ];
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => {
  const value = props.percent as number;
  if (props.format === 'json') {
    // https://shields.io/badges/endpoint-badge: schemaVersion 1, label, message, color (hex without '#').
    const body = { schemaVersion: 1, label: ui().t('badge.translated'), message: formatPercent(value), color: badgeColor(value).slice(1) };
    return new Response(`${JSON.stringify(body)}\n`, { headers: { 'Content-Type': 'application/json' } });
  }
  return new Response(badgeSvg(ui().t('badge.translated'), value, `${props.title as string} ${value}%`), { headers: { 'Content-Type': 'image/svg+xml' } });
};
