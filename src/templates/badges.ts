/**
 * The badges, written outside Astro with the bulk pages (site/bulk-pages.ts): one SVG per project,
 * component and translation (`badges/<project>[/<component>[/<language>]].svg`), and next to each
 * the shields.io "endpoint" JSON (`….json`) for https://img.shields.io/endpoint?url=…. Two files
 * per translation were a third of the files Astro wrote at 1M units (docs/site.md, "Pages written
 * outside Astro").
 */
import type { ComponentEntry, ProjectEntry, TranslationEntry } from '../data/tree.ts';
import type { PageUi } from '../i18n/page.ts';
import { badgeColor, badgeSvg, flatBadgeSvg, formatPercent } from '../utils/badge.ts';
import { componentLevels, countAtLevels, levelBadgePath, projectLevels, siteLevels, type GroupLevels, type Levels } from '../data/levels.ts';
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
  return [
    ...badgeFiles((f) => sitePaths.projectBadge(project.slug, f), project.totals, pageUi.t('badge.title', { name: project.record.name }), pageUi),
    ...projectLevelBadges(project, pageUi),
  ];
}

export function componentBadges(component: ComponentEntry, pageUi: PageUi): Array<[SitePath, string]> {
  const name = `${component.project.record.name} / ${component.record.name}`;
  return [
    ...badgeFiles((f) => sitePaths.componentBadge(component.project.slug, component.slug, f), component.totals, pageUi.t('badge.title', { name }), pageUi),
    ...componentLevelBadges(component, pageUi),
  ];
}

export function translationBadges(translation: TranslationEntry, pageUi: PageUi): Array<[SitePath, string]> {
  const name = `${translation.component.record.name} (${translation.language.code})`;
  return badgeFiles((f) => sitePaths.translationBadge(translation.key, f), translation.record, pageUi.t('badge.title', { name }), pageUi);
}

/**
 * The release-level badges (`--levels`, src/data/levels.ts): per level, "ship | 3 languages",
 * next to the project's or component's own badge (`levelBadgePath`).
 */
const levelColor = (count: number) => (count > 0 ? '#007ec6' : '#9f9f9f');

function levelBadgeFiles(
  badge: (format: BadgeFormat) => SitePath,
  group: GroupLevels,
  levels: Levels,
  name: string,
  pageUi: PageUi,
): Array<[SitePath, string]> {
  return countAtLevels(group, levels).flatMap(({ level, count }): Array<[SitePath, string]> => {
    if (level === undefined) return [];
    const message = pageUi.t('levels.count', { count }, count);
    const title = pageUi.t('levels.badgeTitle', { name, count, level }, count);
    const json = { schemaVersion: 1, label: level, message, color: levelColor(count).slice(1) };
    return [
      [levelBadgePath(badge('svg'), level), flatBadgeSvg(level, message, levelColor(count), title)],
      [levelBadgePath(badge('json'), level), `${JSON.stringify(json)}\n`],
    ];
  });
}

/** A project's level badges, none without `--levels`. */
export function projectLevelBadges(project: ProjectEntry, pageUi: PageUi): Array<[SitePath, string]> {
  const levels = siteLevels();
  if (levels === undefined) return [];
  return levelBadgeFiles((f) => sitePaths.projectBadge(project.slug, f), projectLevels(project, levels), levels, project.record.name, pageUi);
}

/** A component's level badges, none without `--levels`. */
export function componentLevelBadges(component: ComponentEntry, pageUi: PageUi): Array<[SitePath, string]> {
  const levels = siteLevels();
  if (levels === undefined) return [];
  const name = `${component.project.record.name} / ${component.record.name}`;
  return levelBadgeFiles((f) => sitePaths.componentBadge(component.project.slug, component.slug, f), componentLevels(component, levels), levels, name, pageUi);
}
