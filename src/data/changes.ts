/** The change log as the changes pages and the Atom feeds show it, read chunk by chunk from the newest end. */
import { storedChange, type StoredChange } from '../../snapshot/schemas.ts';
import { unitHref } from '../../site/paths.ts';
import { authorLabel } from './authors.ts';
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
  translationByPath: Map<string, TranslationEntry>;
  componentByPath: Map<string, ComponentEntry>;
}

let changeLogPromise: Promise<ChangeLog> | undefined;

function changeLog(): Promise<ChangeLog> {
  changeLogPromise ??= siteTree().then(({ snapshot, translations, components }) => {
    const starts: number[] = [];
    let total = 0;
    for (const chunk of snapshot.index.changes) {
      starts.push(total);
      total += chunk.count;
    }
    return {
      total,
      starts,
      translationByPath: new Map(translations.map((t) => [t.path, t])),
      componentByPath: new Map(components.map((c) => [c.path, c])),
    };
  });
  return changeLogPromise;
}

// Pages are rendered newest first, so consecutive pages fall in the same or the previous
// chunk: two cached chunks mean each chunk is read once, and the log is never held whole.
const chunkCache = new Map<string, Promise<StoredChange[]>>();

function readChunk(snapshot: Snapshot, hash: string): Promise<StoredChange[]> {
  let chunk = chunkCache.get(hash);
  if (!chunk) {
    chunk = snapshot.store.readJson(hash).then((stored) => {
      if (!Array.isArray(stored)) throw new Error(`snapshot ${snapshot.id}: change chunk ${hash} is not a list`);
      return stored.map((change) => storedChange.parse(change));
    });
    if (chunkCache.size >= 2) chunkCache.delete(chunkCache.keys().next().value ?? '');
    chunkCache.set(hash, chunk);
  }
  return chunk;
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
  const { total, starts } = await changeLog();
  // Ascending positions [low, high) of the changes wanted.
  const high = Math.max(total - from, 0);
  const low = Math.max(high - count, 0);
  const picked: StoredChange[] = [];
  if (high <= low) return picked;
  const chunks = snapshot.index.changes;
  for (let at = chunkAt(starts, low); at < chunks.length && starts[at]! < high; at += 1) {
    const offset = starts[at]!;
    const changes = await readChunk(snapshot, chunks[at]!.hash);
    picked.push(...changes.slice(Math.max(low - offset, 0), Math.min(high - offset, chunks[at]!.count)));
  }
  return picked.reverse();
}

/** A stored change as the pages show it. */
async function changeEntry(change: StoredChange): Promise<ChangeEntry> {
  const { hideAuthors } = await siteTree();
  const { translationByPath, componentByPath } = await changeLog();
  const translation = change.translation === null ? undefined : translationByPath.get(change.translation);
  return {
    id: change.id,
    timestamp: change.timestamp,
    action: change.action,
    user: authorLabel(change.user ?? change.author, hideAuthors, true),
    target: shorten(change.target.split(pluralSeparator).join(' | ')),
    forms: change.target.split(pluralSeparator).map(shorten),
    translation,
    component: change.component === null ? undefined : componentByPath.get(change.component),
    unitHref: translation && change.unit ? await unitPermalink(translation, unitIdOf(change.unit)) : undefined,
  };
}

/** Changes `from … from+count-1` counted from the newest (0 = the newest change). */
export async function newestChanges(from: number, count: number): Promise<ChangeEntry[]> {
  const entries: ChangeEntry[] = [];
  for (const change of await newestStored(from, count)) entries.push(await changeEntry(change));
  return entries;
}

const shorten = (text: string) => (text.length > maxTargetLength ? `${text.slice(0, maxTargetLength)}…` : text);

/** `api/units/123/` → 123. */
function unitIdOf(link: string): number | undefined {
  const match = /units\/(\d+)\/?$/.exec(link);
  return match ? Number(match[1]) : undefined;
}

/**
 * Where each unit of a translation sits: unit ids sorted, with their index in position order.
 * Two typed arrays per translation instead of the unit list, so that linking a million
 * changes to their strings holds a few bytes per unit, each list read once.
 */
const unitIndexes = new Map<string, Promise<{ ids: Int32Array; indexes: Int32Array }>>();

function unitIndex(translation: TranslationEntry) {
  let index = unitIndexes.get(translation.path);
  if (!index) {
    index = siteTree().then(async ({ snapshot }) => {
      const list = await snapshot.units(translation.path);
      const order = list.map((unit, at) => [unit.id, at] as const).sort((a, b) => a[0] - b[0]);
      return { ids: Int32Array.from(order, ([id]) => id), indexes: Int32Array.from(order, ([, at]) => at) };
    });
    unitIndexes.set(translation.path, index);
  }
  return index;
}

/** The permalink of a unit of a translation, or undefined when this snapshot does not hold it. */
export async function unitPermalink(translation: TranslationEntry, unitId: number | undefined): Promise<string | undefined> {
  if (unitId === undefined) return undefined;
  const { ids, indexes } = await unitIndex(translation);
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const id = ids[middle]!;
    if (id === unitId) return unitHref(translation.key, translation.record.total, indexes[middle]!, unitId);
    if (id < unitId) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/** Changes of one project or one language, newest first. */
export interface ChangeBuckets {
  byProject: Map<string, ChangeEntry[]>;
  byLanguage: Map<string, ChangeEntry[]>;
}

let bucketsPromise: Promise<ChangeBuckets> | undefined;

/**
 * The latest `subjectChanges` changes of every project and every language, in one pass from the
 * newest end of the log that stops once every bucket is full: the per-project and
 * per-language changes pages and feeds.
 */
export function latestChangesBySubject(): Promise<ChangeBuckets> {
  bucketsPromise ??= (async () => {
    const { projects, languages } = await siteTree();
    const byProject = new Map(projects.map((p) => [p.slug, [] as ChangeEntry[]]));
    const byLanguage = new Map(languages.map((l) => [l.code, [] as ChangeEntry[]]));
    const total = await changeCount();
    let open = byProject.size + byLanguage.size;
    const { translationByPath, componentByPath } = await changeLog();
    // Entries are made only for the changes a bucket keeps: most of a long scan keeps none, and
    // an entry's permalink reads its translation's units.
    for (let from = 0; from < total && open > 0; from += changesPerPage) {
      for (const change of await newestStored(from, changesPerPage)) {
        const project = change.component === null ? undefined : componentByPath.get(change.component)?.project.slug;
        const language = change.translation === null ? undefined : translationByPath.get(change.translation)?.language.code;
        let entry: ChangeEntry | undefined;
        for (const [bucket, key] of [
          [byProject, project],
          [byLanguage, language],
        ] as const) {
          const list = key === undefined ? undefined : bucket.get(key);
          if (!list || list.length >= subjectChanges) continue;
          entry ??= await changeEntry(change);
          list.push(entry);
          if (list.length === subjectChanges) open -= 1;
        }
      }
    }
    return { byProject, byLanguage };
  })();
  return bucketsPromise;
}
