/** The change log as the changes pages and the Atom feeds show it, read chunk by chunk from the newest end. */
import { action } from '../../api/change.ts';
import { type ChangeChunk, type StoredChange, type StoredUnit } from '../../snapshot/index.ts';
import { positionOf, unitPositions, type UnitPositions } from '../../site-model/positions.ts';
import { unitHref } from '../../site-model/paths.ts';
import { publicationOfView } from '../../site-model/published-snapshot.ts';
import { authorLabel, siteUsers } from './authors.ts';
import { perBuild } from './build-input.ts';
import { allConsistency } from './consistency.ts';
import { siteTree, type ComponentEntry, type Snapshot, type TranslationEntry } from './tree.ts';

export const changesPerPage = 100;
export const feedEntries = 50;
/** Changes kept per project and per language: their changes page; their feed shows the first `feedEntries`. */
export const subjectChanges = changesPerPage;
/**
 * Changes the site publishes as pages, newest first: 100 pages, whatever the log's length.
 * Older ones stay in the snapshot (`tmsnap export`, `tmsnap diff`); docs/site.md ("Changes
 * pages") gives the reason for the number, and the last page says where the rest is.
 */
export const publishedChanges = 100 * changesPerPage;

/** What the site-wide changes pages show of a log of `total` changes. */
export interface ChangesPages {
  total: number;
  /** How many of the newest are on pages: at most `publishedChanges`. */
  published: number;
  pages: number;
}

export function changesPages(total: number, cap: number = publishedChanges): ChangesPages {
  const published = Math.min(total, cap);
  return { total, published, pages: Math.max(1, Math.ceil(published / changesPerPage)) };
}

/** A change as the changes pages and the feed show it. */
export interface ChangeEntry {
  id: number;
  timestamp: string;
  action: number;
  user: string;
  /** The text the change set, shortened; a plural's forms split (Weblate joins them with `\x1e\x1e`). */
  target: string;
  forms: string[];
  translation: TranslationEntry | undefined;
  component: ComponentEntry | undefined;
  /** The unit's permalink (site path with `#unit-<id>`) when the change names a unit of this snapshot. */
  unitHref: string | undefined;
  /** The unit's source text, shortened: the name of its link. */
  unitName: string | undefined;
}

/** Weblate's separator of plural forms in a change's `target` (weblate/utils/state.py, PLURAL_SEPARATOR). */
export const pluralSeparator = '\x1e\x1e';

export async function changeCount(): Promise<number> {
  return (await changeLog()).total;
}

/**
 * The log's chunk offsets and the lookups every change needs, made once: the subject pages ask
 * for the log 100 changes at a time, and a subject with fewer than 100 changes makes them read
 * it to its oldest end (100,000 asks at 10M changes), so an ask must not walk every chunk or
 * rebuild these maps (docs/scale.md, "10M build").
 */
interface ChangeLog {
  total: number;
  /** `starts[i]`: the ascending position of chunk i's first change. */
  starts: number[];
  /** `counts[i]`: the changes of chunk i the site publishes (site-model/privacy.ts): all of them unless a project is left out. */
  counts: number[];
  translationByPath: Map<string, TranslationEntry>;
  componentByPath: Map<string, ComponentEntry>;
}

const changeLog: () => Promise<ChangeLog> = perBuild(() =>
  siteTree().then(async ({ snapshot, translations, components }) => {
    const starts: number[] = [];
    const counts: number[] = [];
    // When the publication leaves projects out, their changes are not counted either: each chunk
    // is read once to count what is left (a keyed crawl's site only).
    const filtered = (publicationOfView(snapshot)?.hiddenProjects.size ?? 0) > 0;
    let total = 0;
    for (const chunk of snapshot.index.changes) {
      starts.push(total);
      const count = filtered ? (await readChunk(snapshot, chunk)).length : chunk.count;
      counts.push(count);
      total += count;
    }
    return {
      total,
      starts,
      counts,
      translationByPath: new Map(translations.map((t) => [t.path, t])),
      componentByPath: new Map(components.map((c) => [c.path, c])),
    };
  }),
);

// Pages are rendered newest first, so consecutive pages fall in the same or the previous
// chunk: two cached chunks mean each chunk is read once, and the log is never held whole.
const chunkCache = perBuild(() => new Map<string, Promise<StoredChange[]>>());

function readChunk(snapshot: Snapshot, chunk: ChangeChunk): Promise<StoredChange[]> {
  const cache = chunkCache();
  let changes = cache.get(chunk.hash);
  if (!changes) {
    // The published view's chunk (CRC-checked): only the changes the site publishes, their
    // addresses removed (site-model/published-snapshot.ts).
    changes = snapshot.changesIn(chunk);
    if (cache.size >= 2) cache.delete(cache.keys().next().value ?? '');
    cache.set(chunk.hash, changes);
  }
  return changes;
}

// Change targets can be whole source strings; the list shows the start of them.
const maxTargetLength = 200;

/** The index of the chunk holding ascending position `position` (the last chunk whose start is ≤ it). */
function chunkAt(starts: readonly number[], position: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Stored changes `from … from+count-1` counted from the newest (0 = the newest change), newest first. */
async function newestStored(from: number, count: number): Promise<StoredChange[]> {
  const { snapshot } = await siteTree();
  const { total, starts, counts } = await changeLog();
  // Ascending positions [low, high) of the changes wanted.
  const high = Math.max(total - from, 0);
  const low = Math.max(high - count, 0);
  const picked: StoredChange[] = [];
  if (high <= low) return picked;
  const chunks = snapshot.index.changes;
  for (let at = chunkAt(starts, low); at < chunks.length && starts[at]! < high; at += 1) {
    const offset = starts[at]!;
    const changes = await readChunk(snapshot, chunks[at]!);
    picked.push(...changes.slice(Math.max(low - offset, 0), Math.min(high - offset, counts[at]!)));
  }
  return picked.reverse();
}

/** A stored change as the pages show it. */
async function changeEntry(change: StoredChange): Promise<ChangeEntry> {
  const { hideAuthors } = await siteTree();
  const { componentByPath } = await changeLog();
  const translation = await translationOf(change);
  const unitId = change.unit ? unitIdOf(change.unit) : undefined;
  const index = translation && unitId !== undefined ? positionOf(await positionsOf(translation), unitId) : undefined;
  const unit = translation && index !== undefined && unitId !== undefined ? await unitAt(translation, index, unitId) : undefined;
  // Weblate records an approval without its text: the approved text is the unit's, while the unit stays approved.
  const approved = change.action === action.translationApproved && change.target === '' && unit?.state === approvedState;
  const forms = approved ? unit.target : change.target.split(pluralSeparator);
  return {
    id: change.id,
    timestamp: change.timestamp,
    action: change.action,
    user: authorLabel(change.user ?? change.author, hideAuthors, true, await siteUsers()),
    target: shorten(forms.join(' | ')),
    forms: forms.map((form) => shorten(form)),
    translation,
    component: change.component === null ? undefined : componentByPath.get(change.component),
    unitHref: translation && index !== undefined && unitId !== undefined ? unitHref(translation.key, translation.record.total, index, unitId) : undefined,
    unitName: unit && shorten(unit.source.join(' | '), maxNameLength),
  };
}

/** Weblate's state of an approved unit (api/unit.ts). */
const approvedState = 30;
/** A unit link's name: the start of its source text. */
const maxNameLength = 60;

interface UnitText {
  source: string[];
  target: string[];
  state: number;
}

// A change page reads the one chunk of units holding a change's unit, not the translation's
// every unit: a few chunks serve a page, as the change log's chunks do.
const unitChunkCache = perBuild((): { path: string; first: number; units: StoredUnit[] }[] => []);

/** The texts of the unit at position `index` of `translation`, or undefined when the snapshot does not hold it. */
async function unitAt(translation: TranslationEntry, index: number, unitId: number): Promise<UnitText | undefined> {
  const kept = unitsSeen().texts.get(translation.path)?.get(unitId);
  if (kept) return kept;
  const { snapshot } = await siteTree();
  // The published view's chunk, its addresses removed (site-model/published-snapshot.ts).
  const cache = unitChunkCache();
  let part = cache.find((held) => held.path === translation.path && index >= held.first && index < held.first + held.units.length);
  if (!part) {
    const read = await snapshot.unitsAt(translation.path, index);
    if (read) cache.push((part = { path: translation.path, ...read }));
    if (cache.length > 4) cache.shift();
  }
  const unit = part?.units[index - part.first] as Partial<UnitText> | undefined;
  if (!unit || !Array.isArray(unit.source) || !Array.isArray(unit.target)) return undefined;
  return { source: unit.source, target: unit.target, state: typeof unit.state === 'number' ? unit.state : -1 };
}

async function translationOf(change: StoredChange): Promise<TranslationEntry | undefined> {
  return change.translation === null ? undefined : (await changeLog()).translationByPath.get(change.translation);
}

/** Changes `from … from+count-1` counted from the newest (0 = the newest change). */
export async function newestChanges(from: number, count: number): Promise<ChangeEntry[]> {
  const stored = await newestStored(from, count);
  const entries: ChangeEntry[] = [];
  for (const change of stored) entries.push(await changeEntry(change));
  return entries;
}

const shorten = (text: string, max = maxTargetLength) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** `api/units/123/` → 123. */
function unitIdOf(link: string): number | undefined {
  const match = /units\/(\d+)\/?$/.exec(link);
  return match ? Number(match[1]) : undefined;
}

/**
 * What Astro's thread keeps of each translation's units as the consistency pages read them all,
 * once a build (src/data/consistency.ts calls `unitsRead`): their positions, and the texts of
 * the units the changes pages and feeds show. Those pages then read no unit of their own (a
 * chunk of units per change, 7 × the archive's units on the bundled demo) and wait for no bulk
 * writer (docs/site.md, "Changes pages' unit links"; issue 36). Texts are the published ones:
 * the consistency pages read the published view (site-model/published-snapshot.ts).
 */
const unitsSeen = perBuild(() => ({ positions: new Map<string, UnitPositions>(), texts: new Map<string, Map<number, UnitText>>() }));

/** Per translation path, the ids of the units the published changes and the subjects' changes name. */
const wantedUnits = perBuild(async (): Promise<Map<string, Set<number>>> => {
  const wanted = new Map<string, Set<number>>();
  const add = (change: StoredChange) => {
    const id = change.unit ? unitIdOf(change.unit) : undefined;
    if (change.translation === null || id === undefined) return;
    const ids = wanted.get(change.translation) ?? new Set<number>();
    wanted.set(change.translation, ids.add(id));
  };
  for (const change of await newestStored(0, publishedChanges)) add(change);
  for (const { change } of await subjectKept()) add(change);
  return wanted;
});

/** A translation's units in position order, as the consistency pages read them: what the changes pages need of them is kept. */
export async function unitsRead(translationPath: string, units: readonly StoredUnit[]): Promise<void> {
  const seen = unitsSeen();
  if (seen.positions.has(translationPath)) return;
  seen.positions.set(translationPath, unitPositions(units));
  const wanted = (await wantedUnits()).get(translationPath);
  if (wanted === undefined) return;
  const texts = new Map<number, UnitText>();
  for (const unit of units) {
    const { source, target, state } = unit as Partial<UnitText>;
    if (!wanted.has(unit.id) || !Array.isArray(source) || !Array.isArray(target)) continue;
    texts.set(unit.id, { source, target, state: typeof state === 'number' ? state : -1 });
  }
  seen.texts.set(translationPath, texts);
}

/**
 * Where no consistency page read them (a translation of no component, the pages rendered
 * outside a build): each translation's units read here, once, kept as positions (a few bytes per unit).
 */
const readPositions = perBuild(() => new Map<string, Promise<UnitPositions>>());

async function positionsOf(translation: TranslationEntry): Promise<UnitPositions> {
  // Every translation's units, read once for the consistency pages, give the positions.
  await allConsistency();
  const seen = unitsSeen().positions.get(translation.path);
  if (seen) return seen;
  const read = readPositions();
  let positions = read.get(translation.path);
  if (!positions) {
    positions = siteTree().then(async ({ snapshot }) => unitPositions(await snapshot.units(translation.path)));
    read.set(translation.path, positions);
  }
  return positions;
}

/** The permalink of a unit of a translation, or undefined when this snapshot does not hold it. */
export async function unitPermalink(translation: TranslationEntry, unitId: number | undefined): Promise<string | undefined> {
  if (unitId === undefined) return undefined;
  const index = positionOf(await positionsOf(translation), unitId);
  return index === undefined ? undefined : unitHref(translation.key, translation.record.total, index, unitId);
}

/** Changes of one project or one language, newest first. */
export interface ChangeBuckets {
  byProject: Map<string, ChangeEntry[]>;
  byLanguage: Map<string, ChangeEntry[]>;
}

/** The changes each project's and language's bucket keeps, newest first, from the log alone. */
const subjectKept = perBuild(async (): Promise<Array<{ change: StoredChange; project?: string; language?: string }>> => {
  const { projects, languages } = await siteTree();
  const total = await changeCount();
  const { translationByPath, componentByPath } = await changeLog();
  const keptCount = new Map<string, number>(); // by `p:<slug>` or `l:<code>`
  let open = 0;
  const kept: Array<{ change: StoredChange; project?: string; language?: string }> = [];
  const take = (key: string) => {
    const count = keptCount.get(key) ?? 0;
    if (count >= subjectChanges) return false;
    keptCount.set(key, count + 1);
    if (count + 1 === subjectChanges) open -= 1;
    return true;
  };
  const projectSlugs = new Set(projects.map((p) => p.slug));
  const languageCodes = new Set(languages.map((l) => l.code));
  open = projectSlugs.size + languageCodes.size;
  for (let from = 0; from < total && open > 0; from += changesPerPage) {
    for (const change of await newestStored(from, changesPerPage)) {
      const project = change.component === null ? undefined : componentByPath.get(change.component)?.project.slug;
      const language = change.translation === null ? undefined : translationByPath.get(change.translation)?.language.code;
      const inProject = project !== undefined && projectSlugs.has(project) && take(`p:${project}`);
      const inLanguage = language !== undefined && languageCodes.has(language) && take(`l:${language}`);
      if (inProject || inLanguage) kept.push({ change, ...(inProject ? { project } : {}), ...(inLanguage ? { language } : {}) });
    }
  }
  return kept;
});

/**
 * The latest `subjectChanges` changes of every project and every language, in one pass from the
 * newest end of the log that stops once every bucket is full: the per-project and
 * per-language changes pages and feeds. Which changes each bucket keeps is known from the log
 * alone (`subjectKept`); the entries, whose permalinks need their translations' unit positions, are made after.
 */
export const latestChangesBySubject: () => Promise<ChangeBuckets> = perBuild(async () => {
  const { projects, languages } = await siteTree();
  const byProject = new Map(projects.map((p) => [p.slug, [] as ChangeEntry[]]));
  const byLanguage = new Map(languages.map((l) => [l.code, [] as ChangeEntry[]]));
  for (const { change, project, language } of await subjectKept()) {
    const entry = await changeEntry(change);
    if (project !== undefined) byProject.get(project)!.push(entry);
    if (language !== undefined) byLanguage.get(language)!.push(entry);
  }
  return { byProject, byLanguage };
});
