/**
 * The badges, written outside Astro with the bulk pages (site/bulk-pages.ts): one SVG per project,
 * component and translation (`badges/<project>[/<component>[/<language>]].svg`), and next to each
 * the shields.io "endpoint" JSON (`….json`) for https://img.shields.io/endpoint?url=…. Two files
 * per translation were a third of the files Astro wrote at 1M units (docs/site.md, "Pages written
 * outside Astro").
 */
import type { ComponentEntry, ProjectEntry, TranslationEntry } from '../data/tree.ts';
import type { PageUi } from '../i18n/page.ts';
import { badgeColor, badgeSvg, formatPercent } from '../utils/badge.ts';
import { translatedPercent, type Progress } from '../utils/progress.ts';
import { sitePaths, type BadgeFormat, type SitePath } from '../../site-model/paths.ts';

/** The SVG and JSON of one badge: `path(format)` names each file. */
function badgeFiles(path: (format: BadgeFormat) => SitePath, totals: Progress, title: string, pageUi: PageUi): Array<[SitePath, string]> {
  const value = translatedPercent(totals);
  const label = pageUi.t('badge.translated');
  // https://shields.io/badges/endpoint-badge: schemaVersion 1, label, message, color (hex without '#').
  const json = { schemaVersion: 1, label, message: formatPercent(value), color: badgeColor(value).slice(1) };
  return [
    [path('svg'), badgeSvg(label, value, `${title} ${value}%`)],
    [path('json'), `${JSON.stringify(json)}\n`],
  ];
}

export function projectBadges(project: ProjectEntry, pageUi: PageUi): Array<[SitePath, string]> {
  return badgeFiles((f) => sitePaths.projectBadge(project.slug, f), project.totals, pageUi.t('badge.title', { name: project.record.name }), pageUi);
}

export function componentBadges(component: ComponentEntry, pageUi: PageUi): Array<[SitePath, string]> {
  const name = `${component.project.record.name} / ${component.record.name}`;
  return badgeFiles((f) => sitePaths.componentBadge(component.project.slug, component.slug, f), component.totals, pageUi.t('badge.title', { name }), pageUi);
}

export function translationBadges(translation: TranslationEntry, pageUi: PageUi): Array<[SitePath, string]> {
  const name = `${translation.component.record.name} (${translation.language.code})`;
  return badgeFiles((f) => sitePaths.translationBadge(translation.key, f), translation.record, pageUi.t('badge.title', { name }), pageUi);
}
