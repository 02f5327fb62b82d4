/**
 * Release levels (issue 26): named thresholds of the translated share, such as Mattermost's
 * "ships at 95%", a translation's level, the languages at each level of a project or component,
 * and the languages that crossed a level between two snapshots (for Atom entries). Pure: the
 * entries come from `translations.ts`. Rules and reasons: docs/decisions/2026-11-26-levels-drift-credits.md.
 */
import { weblatePercent } from '../api/statistics.ts';
import type { Snapshot } from '../snapshot/index.ts';
import type { Named, TranslationEntry } from './diff.ts';
import { addFigures, noFigures, type Figures } from './figures.ts';
import { noFilter, translationEntries, type EntryFilter, type RecordCache } from './translations.ts';

/** What a share is counted in: strings (Weblate's `translated_percent`) or words (`translated_words_percent`). */
export type LevelMeasure = 'strings' | 'words';

export interface Level {
  name: string;
  /** The lowest translated share (0–100) that reaches the level. */
  percent: number;
}

/** Levels parsed from `--levels`: highest threshold first. */
export interface Levels {
  measure: LevelMeasure;
  levels: readonly Level[];
}

export const defaultLevels = 'ship=95,beta=90,alpha=80';

const levelName = /^[a-z][a-z0-9_-]*$/;

/**
 * `--levels [strings:|words:]NAME=PERCENT,…`: the levels, highest first, or a one-line error
 * naming the flag, the part and what was expected. Names are lower-case words (they become
 * parts of page names later); each name and each percent appears once.
 */
export function parseLevels(text: string = defaultLevels): Levels | string {
  const colon = text.indexOf(':');
  const prefix = colon === -1 ? undefined : text.slice(0, colon).trim();
  if (prefix !== undefined && prefix !== 'strings' && prefix !== 'words')
    return `--levels: '${prefix}:' is not a measure; expected strings: or words: before the levels`;
  const measure: LevelMeasure = prefix ?? 'strings';
  const parts = text
    .slice(colon + 1)
    .split(',')
    .map((part) => part.trim());
  if (parts.every((part) => part === '')) return `--levels: no levels given; expected NAME=PERCENT, comma-separated (e.g. ${defaultLevels})`;
  const levels: Level[] = [];
  for (const part of parts) {
    const match = /^([^=]*)=(.*)$/.exec(part);
    const name = match?.[1]?.trim() ?? '';
    const value = match?.[2]?.trim() ?? '';
    const percent = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
    if (!match || !(percent >= 0 && percent <= 100)) return `--levels: '${part}' is not NAME=PERCENT (a number from 0 to 100)`;
    if (!levelName.test(name)) return `--levels: '${part}' has no valid NAME (lower-case letters, digits, - and _, starting with a letter)`;
    if (levels.some((level) => level.name === name)) return `--levels: '${name}' is named twice; expected each level once`;
    if (levels.some((level) => level.percent === percent)) return `--levels: '${part}' repeats ${percent}%; expected each level at its own percent`;
    levels.push({ name, percent });
  }
  return { measure, levels: levels.sort((a, b) => b.percent - a.percent) };
}

/**
 * The translated share the server shows for these figures, in the levels' measure: rounded
 * down to one decimal as Weblate does (api/statistics.ts), an empty translation counting as
 * complete as the site shows it (src/utils/format.ts).
 */
export function levelPercent(figures: Figures, measure: LevelMeasure): number {
  return measure === 'words' ? weblatePercent(figures.translated_words, figures.total_words, true) : weblatePercent(figures.translated, figures.total, true);
}

/** The highest level whose threshold the figures meet, or `undefined` below every level. */
export function levelOf(figures: Figures, levels: Levels): Level | undefined {
  const percent = levelPercent(figures, levels.measure);
  return levels.levels.find((level) => percent >= level.percent);
}

/** One language of a project or component, with its figures there and its level. */
export interface LanguageLevel {
  language: Named;
  figures: Figures;
  percent: number;
  /** `undefined`: below every level. */
  level: string | undefined;
}

/** A project or component and the level of each of its languages. */
export interface GroupLevels {
  /** Project slug, or `<project>/<component>` for a component. */
  key: string;
  name: string;
  /** By language code. */
  languages: LanguageLevel[];
}

export type LevelGrouping = 'project' | 'component';

const groupKey = (entry: TranslationEntry, grouping: LevelGrouping) =>
  grouping === 'project'
    ? { key: entry.project.slug, name: entry.project.name }
    : { key: `${entry.project.slug}/${entry.component.slug}`, name: entry.component.name };

const byKey = <T extends { key: string }>(a: T, b: T) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const byCode = (a: LanguageLevel, b: LanguageLevel) => (a.language.slug < b.language.slug ? -1 : a.language.slug > b.language.slug ? 1 : 0);

/**
 * The level of each language in each project (its figures summed over the project's
 * components, as Weblate's project-language statistics count them) or component. Entries
 * should leave out source-language translations, which are complete by definition.
 */
export function groupLevels(entries: readonly TranslationEntry[], levels: Levels, grouping: LevelGrouping): GroupLevels[] {
  const groups = new Map<string, { name: string; languages: Map<string, { language: Named; figures: Figures }> }>();
  for (const entry of entries) {
    const { key, name } = groupKey(entry, grouping);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { name, languages: new Map() }));
    const previous = group.languages.get(entry.language.slug);
    group.languages.set(entry.language.slug, { language: entry.language, figures: addFigures(previous?.figures ?? noFigures, entry.figures) });
  }
  return [...groups.entries()]
    .map(([key, group]) => ({
      key,
      name: group.name,
      languages: [...group.languages.values()]
        .map(({ language, figures }) => ({ language, figures, percent: levelPercent(figures, levels.measure), level: levelOf(figures, levels)?.name }))
        .sort(byCode),
    }))
    .sort(byKey);
}

/** How many languages a group has at each level, highest first, and below every level. */
export function countAtLevels(group: GroupLevels, levels: Levels): { level: string | undefined; count: number }[] {
  const counts: { level: string | undefined; count: number }[] = levels.levels.map((level) => ({ level: level.name, count: 0 }));
  counts.push({ level: undefined, count: 0 });
  for (const language of group.languages) counts.find((count) => count.level === language.level)!.count++;
  return counts;
}

/** "3 languages at level ship", "1 language below every level". */
export function describeCount(count: number, level: string | undefined): string {
  const languages = `${count} ${count === 1 ? 'language' : 'languages'}`;
  return level === undefined ? `${languages} below every level` : `${languages} at level ${level}`;
}

/** A language of a project or component whose level differs between two snapshots. */
export interface LevelCrossing {
  key: string;
  name: string;
  language: Named;
  /** `undefined`: below every level. */
  from: string | undefined;
  to: string | undefined;
  direction: 'up' | 'down';
  before: number;
  after: number;
}

/**
 * Languages whose level changed between two snapshots' entries, per project or component.
 * Only languages present on both sides cross: a language added or removed is the diff's news
 * (`diff.ts`), not a crossing.
 */
export function levelCrossings(
  before: readonly TranslationEntry[],
  after: readonly TranslationEntry[],
  levels: Levels,
  grouping: LevelGrouping,
): LevelCrossing[] {
  const rank = (level: string | undefined) => (level === undefined ? -1 : levels.levels.length - levels.levels.findIndex((each) => each.name === level));
  const old = new Map(
    groupLevels(before, levels, grouping).flatMap((group) => group.languages.map((language) => [`${group.key}\u0000${language.language.slug}`, language])),
  );
  const crossings: LevelCrossing[] = [];
  for (const group of groupLevels(after, levels, grouping)) {
    for (const language of group.languages) {
      const previous = old.get(`${group.key}\u0000${language.language.slug}`);
      if (!previous || previous.level === language.level) continue;
      crossings.push({
        key: group.key,
        name: group.name,
        language: language.language,
        from: previous.level,
        to: language.level,
        direction: rank(language.level) > rank(previous.level) ? 'up' : 'down',
        before: previous.percent,
        after: language.percent,
      });
    }
  }
  return crossings;
}

/** An Atom entry's title for a crossing: "Czech in Hello went up from beta to ship (89.9% → 95.0%)". */
export function crossingTitle(crossing: LevelCrossing): string {
  const level = (name: string | undefined) => name ?? 'below every level';
  return `${crossing.language.name} in ${crossing.name} went ${crossing.direction} from ${level(crossing.from)} to ${level(crossing.to)} (${crossing.before.toFixed(1)}% → ${crossing.after.toFixed(1)}%)`;
}

/**
 * The entries a snapshot's levels are counted from: every translation but those of a
 * component's source language, which Weblate counts as complete (read-only units).
 */
export async function levelEntries(snapshot: Snapshot, filter: EntryFilter = noFilter, cache: RecordCache = new Map()): Promise<TranslationEntry[]> {
  const sources = new Set((await snapshot.translations()).filter(({ record }) => record.is_source).map(({ path }) => path));
  return (await translationEntries(snapshot, filter, cache)).filter((entry) => !sources.has(entry.path));
}
