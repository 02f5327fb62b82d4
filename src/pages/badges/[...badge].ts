import type { APIRoute, GetStaticPaths } from 'astro';
import { badgeSvg } from '../../utils/badge.ts';
import { sitePaths } from '../../../site/paths.ts';
import { siteTree } from '../../data/tree.ts';
import { type Totals } from '../../data/totals.ts';
import { percent } from '../../utils/format.ts';

/** One SVG per project, component and translation: `badges/<project>[/<component>[/<language>]].svg`. */
export const getStaticPaths = (async () => {
  const { projects, components, translations } = await siteTree();
  const badge = (path: string, totals: Pick<Totals, 'translated' | 'total'>, title: string) => ({
    params: { badge: path.slice('badges/'.length) },
    props: { percent: percent(totals.translated, totals.total), title },
  });
  return [
    ...projects.map((p) => badge(sitePaths.projectBadge(p.slug), p.totals, `${p.record.name}: translated`)),
    ...components.map((c) => badge(sitePaths.componentBadge(c.project.slug, c.slug), c.totals, `${c.project.record.name} / ${c.record.name}: translated`)),
    ...translations.map((t) => badge(sitePaths.translationBadge(t.key), t.record, `${t.component.record.name} (${t.language.code}): translated`)),
  ];
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(badgeSvg('translated', props.percent as number, `${props.title as string} ${props.percent as number}%`), { headers: { 'Content-Type': 'image/svg+xml' } });
