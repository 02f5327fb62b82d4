/**
 * The nights of `tmsnap demo --nights N` and of the guide's screenshots (docs/guide.md, "The
 * demo's nights"): the same server crawled on consecutive nights, with a reviewer's and a
 * translator's work and a reworded source string between them, the last two nights tagged as
 * releases. Each edit is an activity of the reference server (`POST /_activity/<action>`, its
 * body as here: packages/reference-server/README.md), run in the demo's own process.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ActivityModel, type UnitRow, runActivity } from '@tmsnap/reference-server';
import { parseJson } from '../api/index.ts';
import { readTags, withTag, writeTags } from '../archive/tags.ts';
import { canonicalJson, snapshotIdAt } from '../snapshot/index.ts';

/** The guide's story has three nights: as the data is, after a review, after the translator's answer. */
export const maxNights = 3;

export interface Scenario {
  /** The translation the nights follow (slugs and a language code). */
  subject: { project: string; component: string; language: string };
  /** How many of its translated strings the reviewer marks for editing before night 2. */
  marked: number;
  /** How many of those the translator saves again before night 3 (the rest still need editing). */
  saved: number;
  /** Who does that work: usernames of the data. */
  people: { reviewer: string; translator: string };
  /** A source string of the subject's component the repository rewords before night 3, as it was and as it becomes. */
  reword?: { before: string; after: string } | undefined;
  /** The releases tagged on the last two nights, older first. */
  releases: readonly [string, string];
}

/** The guide's scenario on the bundled data (its users: packages/reference-server/data/spec.ts). */
export const guideScenario: Scenario = {
  subject: { project: 'django', component: 'admin', language: 'de' },
  marked: 12,
  saved: 8,
  people: { reviewer: 'reviewer', translator: 'lena.vogel' },
  // British to American English; Weblate keeps the translations as they were: the drift page's case.
  reword: { before: 'Forgotten your password or username?', after: 'Forgot your password or username?' },
  releases: ['v1.0', 'v2.0'],
};

/** What a scenario cannot be played on, as one line; undefined when it can. */
export function scenarioProblem(model: ActivityModel, scenario: Scenario): string | undefined {
  for (const username of Object.values(scenario.people))
    if (!model.users().some((row) => row.username === username)) return `the data has no user "${username}"`;
  const { project, component, language } = scenario.subject;
  if (subjectTranslation(model, scenario) === undefined) return `the data has no translation ${project}/${component}/${language}`;
  if (subjectUnits(model, scenario).length < scenario.marked) return `${project}/${component}/${language} has fewer than ${scenario.marked} translated strings`;
  return undefined;
}

function subjectTranslation(model: ActivityModel, scenario: Scenario) {
  const { project, component, language } = scenario.subject;
  const projectRow = model.projects().find((row) => row.slug === project);
  const componentRow = model.components().find((row) => row.projectId === projectRow?.id && row.slug === component);
  return model.translations().find((row) => row.componentId === componentRow?.id && row.languageCode === language);
}

/** The strings the reviewer marks: the subject's first translated ones in file order, as they were before night 2. */
function subjectUnits(model: ActivityModel, scenario: Scenario): (UnitRow & { index: number })[] {
  const translation = subjectTranslation(model, scenario);
  if (translation === undefined) return [];
  return model
    .units(translation.id, 0, model.unitCount(translation.id))
    .map((unit, index) => ({ ...unit, target: [...unit.target], index }))
    .filter((unit) => unit.state === 20)
    .slice(0, scenario.marked);
}

/** Strings to a page of a translation's strings on the site (docs/guide.md, "Strings"). */
const unitsPerPage = 100;

/**
 * The nights' dates, oldest first, a day apart at 04:15 UTC like a nightly job: the last is the
 * newest 04:15 at least a minute before `now`, so no snapshot is dated after it was made.
 */
export function nightDates(now: Date, nights: number): Date[] {
  const at = (daysBack: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysBack, 4, 15));
  const last = at(0).getTime() <= now.getTime() - 60_000 ? 0 : 1;
  return Array.from({ length: nights }, (_, index) => at(last + nights - 1 - index));
}

export interface NightPlan {
  /** Changes the data as the night before crawl `night` (1-based) does; says what it did, a line per edit. */
  edit(night: number): string[];
  /** Whether crawl `night` must be full: a reworded source has no change an incremental crawl would follow. */
  full(night: number): boolean;
  /** The unit ids the reviewer marked (the string histories to look at). */
  unitIds: number[];
  /** Where the first of them is on the site: its page of strings, from the site's root. */
  firstUnitPath: string | undefined;
}

/**
 * The edits between nights on `model`, whose clock the caller sets to the night: before night 2
 * the reviewer marks the strings for editing, before night 3 the translator saves most of them
 * again with their text and the repository rewords a source string.
 */
export function planNights(model: ActivityModel, scenario: Scenario): NightPlan {
  const units = subjectUnits(model, scenario);
  const { project, component, language } = scenario.subject;
  const where = `${project}/${component}/${language}`;
  return {
    unitIds: units.map((unit) => unit.id),
    firstUnitPath: units[0] && `projects/${where}/units/${Math.floor(units[0].index / unitsPerPage) + 1}/#unit-${units[0].id}`,
    full: (night) => night === 3 && scenario.reword !== undefined,
    edit(night) {
      if (night === 2) {
        for (const unit of units) runActivity(model, 'mark-for-edit', { unit: unit.id, user: scenario.people.reviewer });
        return [`${scenario.people.reviewer} marked ${units.length} strings of ${where} for editing`];
      }
      if (night !== 3) return [];
      for (const unit of units.slice(0, scenario.saved))
        runActivity(model, 'translate', { unit: unit.id, target: unit.target, user: scenario.people.translator });
      const lines = [`${scenario.people.translator} saved ${Math.min(scenario.saved, units.length)} of them again`];
      if (scenario.reword !== undefined && rewordSource(model, scenario, scenario.reword)) {
        lines.push(`the repository reworded "${scenario.reword.before}" to "${scenario.reword.after}" and kept its translations`);
      }
      return lines;
    },
  };
}

/**
 * The repository rewords a source string and Weblate keeps its translations as they were (the
 * drift page's case, docs/guide.md "Translated against an older source"): the rows change in
 * place, as after an update from the repository; no activity of the server does this.
 */
function rewordSource(model: ActivityModel, scenario: Scenario, reword: { before: string; after: string }): boolean {
  const translation = subjectTranslation(model, scenario);
  if (translation === undefined) return false;
  const unit = model.units(translation.id, 0, model.unitCount(translation.id)).find((each) => each.source[0] === reword.before);
  if (unit === undefined) return false;
  for (const each of model.translations())
    for (const row of model.units(each.id, 0, model.unitCount(each.id))) if (row.sourceUnitId === unit.sourceUnitId) row.source = [reword.after];
  return true;
}

/** Moves a finished snapshot to another date: its folder name and manifest say so, as if crawled then. */
export async function redateSnapshot(content: string, id: string, date: Date): Promise<string> {
  const newId = snapshotIdAt(date);
  const manifestFile = join(content, 'snapshots', id, 'manifest.json');
  const manifest = parseJson(await readFile(manifestFile, 'utf8')) as Record<string, unknown>;
  await writeFile(manifestFile, canonicalJson({ ...manifest, id: newId, started: date.toISOString(), finished: date.toISOString() }));
  await rename(join(content, 'snapshots', id), join(content, 'snapshots', newId));
  return newId;
}

export interface PlayedNights {
  /** The snapshots, oldest first, each dated its night. */
  ids: string[];
  /** The unit ids the reviewer marked: strings with a history. */
  unitIds: number[];
  /** The first of them on the site, from its root. */
  firstUnitPath: string | undefined;
}

/**
 * Plays `nights` nights on `model` into the archive `content`: for each, the clock set an hour
 * before the night, that night's edits, `crawlNight` (a complete snapshot's id, or undefined
 * when the crawl stopped: then nothing more is done), the snapshot moved to the night's date;
 * then the releases tagged on the last two nights. `say` hears a line per night.
 */
export async function playNights(options: {
  model: ActivityModel;
  scenario: Scenario;
  nights: number;
  content: string;
  now: Date;
  setClock: (date: Date) => void;
  crawlNight: (full: boolean) => Promise<string | undefined>;
  say?: (line: string) => void;
}): Promise<PlayedNights | undefined> {
  const { model, scenario, nights, content } = options;
  const plan = planNights(model, scenario);
  const dates = nightDates(options.now, nights);
  const ids: string[] = [];
  for (const [index, date] of dates.entries()) {
    const night = index + 1;
    options.setClock(new Date(date.getTime() - 3_600_000));
    const edits = plan.edit(night);
    const day = date.toISOString().slice(0, 10);
    options.say?.(`night ${night} of ${nights} (${day}): ${edits.length === 0 ? 'the data as it is' : edits.join('; ')}; crawling`);
    const id = await options.crawlNight(plan.full(night));
    if (id === undefined) return undefined;
    ids.push(await redateSnapshot(content, id, date));
  }
  if (nights >= 2) {
    let tags = await readTags(content);
    for (const [index, name] of scenario.releases.entries()) tags = withTag(tags, name, ids[nights - 2 + index]!, false);
    await writeTags(content, tags);
    options.say?.(`tagged night ${nights - 1} as ${scenario.releases[0]} and night ${nights} as ${scenario.releases[1]}`);
  }
  return { ids, unitIds: plan.unitIds, firstUnitPath: plan.firstUnitPath };
}
