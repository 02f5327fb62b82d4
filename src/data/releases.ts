/**
 * The release manager's data on the site (issue 26): the release tags of the archive pinned at
 * or before the built snapshot, on its timeline (so `build --snapshot` of an older snapshot shows
 * only the releases that existed then), what changed per language from each release to the next
 * (archive/releases.ts), source drift per language (archive/drift.ts) and, with `--credits`, the
 * credits (archive/credits.ts). All read through the build's published views.
 */
import { creditPeriods, readCredits, type NamedPeriod, type ProjectCredits } from '../../archive/credits.ts';
import { readDrift, type LanguageDrift } from '../../archive/drift.ts';
import { levelEntries } from '../../archive/levels.ts';
import { releaseByLanguage, type LanguageRelease } from '../../archive/releases.ts';
import { pinnedSnapshots, readTags, type Tag } from '../../archive/tags.ts';
import { addFigures, noFigures, type Figures } from '../../archive/figures.ts';
import type { TranslationEntry } from '../../archive/diff.ts';
import { redactEmails } from '../../site-model/privacy.ts';
import { buildInput, perBuild } from './build-input.ts';
import { diffOf, publishedArchiveSnapshot, timeline } from './archive.ts';
import { siteTree } from './tree.ts';

export interface Release {
  tag: Tag;
  /** When the tagged snapshot's crawl started. */
  date: string;
  /** The release before it on the timeline, if any. */
  previous?: Tag;
}

/** The releases of the site, oldest first: tags whose snapshot is on the built snapshot's timeline. */
export const releases: () => Promise<Release[]> = perBuild(async (input) => {
  const onTimeline = new Set(await timeline());
  const tags = (await readTags(input.content)).filter((tag) => onTimeline.has(tag.snapshot));
  const out: Release[] = [];
  for (const [at, tag] of tags.entries()) {
    const snapshot = await publishedArchiveSnapshot(tag.snapshot);
    out.push({ tag, date: snapshot.manifest.started, ...(at > 0 ? { previous: tags[at - 1] } : {}) });
  }
  return out;
});

/** The site's release tags by the snapshot each pins: the what-changed pages name them (issue 35). */
export const tagsBySnapshot: () => Promise<Map<string, string[]>> = perBuild(async () => pinnedSnapshots((await releases()).map((release) => release.tag)));

/** A tagged snapshot's translations other than the source language's, as the site publishes them. */
const entriesAt = perBuild(() => new Map<string, Promise<TranslationEntry[]>>());
function releaseEntries(snapshot: string): Promise<TranslationEntry[]> {
  let entries = entriesAt().get(snapshot);
  if (!entries) entriesAt().set(snapshot, (entries = publishedArchiveSnapshot(snapshot).then((view) => levelEntries(view))));
  return entries;
}

/** Per language, what changed from the previous release to this one (figures only for the first release). */
export async function releaseLanguages(release: Release): Promise<LanguageRelease[]> {
  const after = await releaseEntries(release.tag.snapshot);
  if (release.previous === undefined || release.previous.snapshot === release.tag.snapshot) return releaseByLanguage([], after, undefined);
  const diff = await diffOf({ from: release.previous.snapshot, to: release.tag.snapshot });
  return releaseByLanguage(await releaseEntries(release.previous.snapshot), after, diff);
}

/** Figures per project slug at a release (the badges "at v2.3"), and over the whole site. */
export async function releaseProjects(release: Release): Promise<{ all: Figures; projects: Map<string, { name: string; figures: Figures }> }> {
  const projects = new Map<string, { name: string; figures: Figures }>();
  let all = noFigures;
  for (const entry of await releaseEntries(release.tag.snapshot)) {
    projects.set(entry.project.slug, { name: entry.project.name, figures: addFigures(projects.get(entry.project.slug)?.figures ?? noFigures, entry.figures) });
    all = addFigures(all, entry.figures);
  }
  return { all, projects };
}

/** Source drift per language over the timeline's snapshots; none with a single snapshot (drift is a change between two). */
export const drift: () => Promise<Map<string, LanguageDrift>> = perBuild(async () => {
  const ids = await timeline();
  if (ids.length < 2) return new Map();
  const views = await Promise.all(ids.map((id) => publishedArchiveSnapshot(id)));
  const languages = await readDrift(views);
  const published = new Set((await siteTree()).translations.map((translation) => translation.path));
  return new Map(
    languages
      .map((language) => ({ ...language, units: language.units.filter((unit) => published.has(unit.translation)) }))
      .filter((language) => language.units.length > 0)
      .map((language) => [language.language.slug, language]),
  );
});

export interface PeriodCredits extends NamedPeriod {
  projects: ProjectCredits[];
}

/** With `--credits`: the credits of each period, from the built snapshot's change log; none without. */
export const siteCredits: () => Promise<PeriodCredits[]> = perBuild(async (input) => {
  if (input.credits !== true) return [];
  const built = await publishedArchiveSnapshot(buildInput().snapshot);
  const started = new Map((await releases()).map((release) => [release.tag.snapshot, release.date]));
  const out: PeriodCredits[] = [];
  for (const period of creditPeriods(
    built,
    (await releases()).map((release) => release.tag),
    started,
  )) {
    out.push({ ...period, projects: await readCredits(built, period.period, redactEmails) });
  }
  return out;
});
