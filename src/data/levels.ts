/**
 * Release levels on the site (issue 26, `--levels`): each project's and component's languages
 * at each level, read from the site tree (so only what the build publishes), and the languages
 * that crossed a level since the previous complete snapshot, for the Atom feeds. The rules are
 * archive/levels.ts's (docs/decisions/2026-11-26-levels-drift-credits.md).
 */
import {
  countAtLevels,
  groupLevels,
  levelCrossings,
  levelEntries,
  type GroupLevels,
  type LevelCrossing,
  type LevelGrouping,
  type Levels,
} from '../../archive/levels.ts';
import type { TranslationEntry as ArchiveEntry } from '../../archive/diff.ts';
import { translationFigures } from '../../archive/figures.ts';
import { sitePaths, type SitePath } from '../../site-model/paths.ts';
import type { StatusDocument, StatusLevel } from '../../site-model/status-schema.ts';
import { buildInput, perBuild } from './build-input.ts';
import { publishedArchiveSnapshot, timeline } from './archive.ts';
import { siteTree, type ComponentEntry, type ProjectEntry, type TranslationEntry } from './tree.ts';

export type { GroupLevels, LevelCrossing, Levels };

/** The build's levels, or `undefined` when `--levels` was not given. */
export function siteLevels(): Levels | undefined {
  return buildInput().levels;
}

/** A tree translation as the archive's level functions take it; source-language translations are left out, as `levelEntries` does. */
function archiveEntry(translation: TranslationEntry): ArchiveEntry | undefined {
  if (translation.record.is_source === true || translation.language.code === translation.component.sourceLanguage) return undefined;
  return {
    path: translation.path,
    project: { slug: translation.component.project.slug, name: translation.component.project.record.name },
    component: { slug: translation.component.slug, name: translation.component.record.name },
    language: { slug: translation.language.code, name: translation.language.name },
    figures: translationFigures(translation.record),
    unitsHash: undefined,
  };
}

const entriesOf = (translations: readonly TranslationEntry[]) => translations.flatMap((translation) => archiveEntry(translation) ?? []);

const emptyGroup = (key: string, name: string): GroupLevels => ({ key, name, languages: [] });

/** A project's languages and their levels (figures summed over its components). */
export function projectLevels(project: ProjectEntry, levels: Levels): GroupLevels {
  const translations = project.components.flatMap((component) => component.translations);
  return groupLevels(entriesOf(translations), levels, 'project')[0] ?? emptyGroup(project.slug, project.record.name);
}

/** A component's languages and their levels. */
export function componentLevels(component: ComponentEntry, levels: Levels): GroupLevels {
  const key = `${component.project.slug}/${component.slug}`;
  return groupLevels(entriesOf(component.translations), levels, 'component')[0] ?? emptyGroup(key, component.record.name);
}

export { countAtLevels };

/**
 * A level's badge beside the project's or component's own (`….level-<name>.svg`, `.json`): a
 * level's name is a lower-case word (archive/levels.ts) and a slug has no dot, so none collides.
 */
export function levelBadgePath(badge: SitePath, level: string): SitePath {
  return badge.replace(/\.(svg|json)$/, `.level-${level}.$1`);
}

/** The snapshot before the built one among those the site's history is drawn from, if any. */
async function previousSnapshot(): Promise<string | undefined> {
  const ids = await timeline();
  const built = (await siteTree()).snapshot.id;
  const at = ids.indexOf(built);
  return at > 0 ? ids[at - 1] : undefined;
}

export interface SiteCrossings {
  /** The snapshots compared; absent when the archive holds no earlier complete one. */
  from?: string;
  to: string;
  projects: LevelCrossing[];
  components: LevelCrossing[];
}

/** Languages that crossed a level between the previous complete snapshot and the built one. */
export const levelCrossingsOfBuild: () => Promise<SiteCrossings | undefined> = perBuild(async (input) => {
  const levels = input.levels;
  if (levels === undefined) return undefined;
  const tree = await siteTree();
  const from = await previousSnapshot();
  if (from === undefined) return { to: tree.snapshot.id, projects: [], components: [] };
  const before = await levelEntries(await publishedArchiveSnapshot(from));
  const after = entriesOf(tree.translations);
  const crossings = (grouping: LevelGrouping) => levelCrossings(before, after, levels, grouping);
  return { from, to: tree.snapshot.id, projects: crossings('project'), components: crossings('component') };
});

/**
 * What `data/status.json` adds with `--levels` (site-model/status-schema.ts, docs/status-json.md):
 * the thresholds, and each project's and component's languages per level; `undefined` without.
 */
export function statusLevels():
  | {
      document: Pick<StatusDocument, 'levels'>;
      project: (project: ProjectEntry) => { levels: StatusLevel[] };
      component: (component: ComponentEntry) => { levels: StatusLevel[] };
    }
  | undefined {
  const levels = siteLevels();
  if (levels === undefined) return undefined;
  const list = (group: GroupLevels, badge: SitePath): StatusLevel[] =>
    countAtLevels(group, levels).map(({ level, count }) => ({
      level: level ?? null,
      badge: level === undefined ? null : levelBadgePath(badge, level),
      count,
      languages: group.languages.filter((language) => language.level === level).map((language) => language.language.slug),
    }));
  return {
    document: { levels: { measure: levels.measure, thresholds: levels.levels.map(({ name, percent }) => ({ name, percent })) } },
    project: (project) => ({ levels: list(projectLevels(project, levels), sitePaths.projectBadge(project.slug)) }),
    component: (component) => ({ levels: list(componentLevels(component, levels), sitePaths.componentBadge(component.project.slug, component.slug)) }),
  };
}
