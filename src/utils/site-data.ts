/**
 * The site's one seam to the snapshot (I/O lives here, pages only render). `tmsnap build`
 * passes the snapshot through the environment because Astro renders the pages in its own
 * module graph, in the same process. Small collections (projects, components, translations,
 * languages) are held whole; units are read one translation at a time, on demand.
 */
import { openSnapshot } from '../../snapshot/reader.ts';
import { decodeLink } from '../../snapshot/links.ts';
import { storedChange, storedFile, type StoredChange, type StoredComponent, type StoredLanguage, type StoredProject, type StoredTranslation, type StoredUnit } from '../../snapshot/schemas.ts';
import { sitePaths, type TranslationKey } from './links.ts';

export type Snapshot = Awaited<ReturnType<typeof openSnapshot>>;

export const siteEnv = {
  content: 'TMSNAP_CONTENT',
  snapshot: 'TMSNAP_SNAPSHOT',
  hideAuthors: 'TMSNAP_HIDE_AUTHORS',
  siteUrl: 'TMSNAP_SITE_URL',
} as const;

/** Units per unit page: see docs/site.md ("Why units are grouped"). */
export const unitsPerPage = 100;
export const changesPerPage = 100;
export const feedEntries = 50;

export interface Totals {
  total: number;
  translated: number;
  fuzzy: number;
  total_words: number;
  translated_words: number;
  fuzzy_words: number;
}

export interface ProjectEntry {
  path: string;
  record: StoredProject;
  slug: string;
  components: ComponentEntry[];
  totals: Totals;
}

export interface ComponentEntry {
  path: string;
  record: StoredComponent;
  project: ProjectEntry;
  /** The component's own path segment: unique within the project even for components in categories. */
  slug: string;
  sourceLanguage: string;
  translations: TranslationEntry[];
  totals: Totals;
}

export interface TranslationEntry {
  path: string;
  record: StoredTranslation;
  component: ComponentEntry;
  language: LanguageEntry;
  key: TranslationKey;
  unitPages: number;
}

export interface LanguageEntry {
  code: string;
  /** Absent when the snapshot holds no record for a code a translation uses. */
  record: StoredLanguage | undefined;
  name: string;
  direction: 'ltr' | 'rtl';
  translations: TranslationEntry[];
}

export interface Catalog {
  snapshot: Snapshot;
  projects: ProjectEntry[];
  components: ComponentEntry[];
  translations: TranslationEntry[];
  languages: LanguageEntry[];
  languageByCode: Map<string, LanguageEntry>;
  totals: Totals;
  hideAuthors: boolean;
  siteUrl: string | undefined;
}

export const emptyTotals = (): Totals => ({ total: 0, translated: 0, fuzzy: 0, total_words: 0, translated_words: 0, fuzzy_words: 0 });

export function addTotals(into: Totals, record: Totals): void {
  into.total += record.total;
  into.translated += record.translated;
  into.fuzzy += record.fuzzy;
  into.total_words += record.total_words;
  into.translated_words += record.translated_words;
  into.fuzzy_words += record.fuzzy_words;
}

/** `api/components/p/c/` → `c` (as the server spells it, `cat%252Fcomp` for categories). */
function lastSegment(path: string): string {
  return path.replace(/\/$/, '').split('/').at(-1) ?? path;
}

/** A translation list entry may lack its `component`; its own path names it. */
function componentPathOf(translation: StoredTranslation, path: string): string {
  if (translation.component) return translation.component;
  const parts = path.replace(/\/$/, '').split('/');
  return `api/components/${parts.slice(2, -1).join('/')}/`;
}

function compareBy<T>(key: (item: T) => string) {
  return (a: T, b: T) => key(a).localeCompare(key(b), 'en');
}

export function unitPageCount(total: number): number {
  return Math.max(1, Math.ceil(total / unitsPerPage));
}

/** Units beyond what `total` promised stay on the last page, so no unit is ever left out. */
export function unitPageOf(index: number, pages: number): number {
  return Math.min(Math.floor(index / unitsPerPage) + 1, pages);
}

let catalogPromise: Promise<Catalog> | undefined;

export function catalog(): Promise<Catalog> {
  catalogPromise ??= loadCatalog();
  return catalogPromise;
}

async function loadCatalog(): Promise<Catalog> {
  const content = process.env[siteEnv.content];
  if (!content) throw new Error(`${siteEnv.content} is not set: build the site with \`tmsnap build --content DIR\`, which sets it.`);
  const snapshot = await openSnapshot(content, process.env[siteEnv.snapshot] || undefined);

  const languageByCode = new Map<string, LanguageEntry>();
  const languageEntry = (code: string): LanguageEntry => {
    let entry = languageByCode.get(code);
    if (!entry) {
      entry = { code, record: undefined, name: code, direction: 'ltr', translations: [] };
      languageByCode.set(code, entry);
    }
    return entry;
  };
  for (const { record } of await snapshot.languages()) {
    const entry = languageEntry(record.code);
    entry.record = record;
    entry.name = record.name;
    entry.direction = record.direction === 'rtl' ? 'rtl' : 'ltr';
  }

  const projects = new Map<string, ProjectEntry>();
  for (const { path, record } of await snapshot.projects()) {
    projects.set(path, { path, record, slug: record.slug, components: [], totals: emptyTotals() });
  }
  const components = new Map<string, ComponentEntry>();
  for (const { path, record } of await snapshot.components()) {
    const project = projects.get(record.project);
    if (!project) continue;
    const entry: ComponentEntry = { path, record, project, slug: lastSegment(path), sourceLanguage: lastSegment(record.source_language), translations: [], totals: emptyTotals() };
    components.set(path, entry);
    project.components.push(entry);
  }
  const translations: TranslationEntry[] = [];
  for (const { path, record } of await snapshot.translations()) {
    const component = components.get(componentPathOf(record, path));
    if (!component) continue;
    const language = languageEntry(record.language_code);
    const entry: TranslationEntry = {
      path,
      record,
      component,
      language,
      key: { project: component.project.slug, component: component.slug, language: record.language_code },
      unitPages: unitPageCount(record.total),
    };
    translations.push(entry);
    component.translations.push(entry);
    language.translations.push(entry);
    addTotals(component.totals, record);
    addTotals(component.project.totals, record);
  }

  const totals = emptyTotals();
  for (const project of projects.values()) {
    project.components.sort(compareBy((c) => c.record.name));
    for (const component of project.components) component.translations.sort(compareBy((t) => t.language.name));
    addTotals(totals, project.totals);
  }
  const languages = [...languageByCode.values()].filter((language) => language.record || language.translations.length > 0).sort(compareBy((l) => l.name));
  for (const language of languages) language.translations.sort(compareBy((t) => `${t.component.project.record.name}\u0000${t.component.record.name}`));
  const projectList = [...projects.values()].sort(compareBy((p) => p.record.name));
  return {
    snapshot,
    projects: projectList,
    components: projectList.flatMap((p) => p.components),
    translations: projectList.flatMap((p) => p.components.flatMap((c) => c.translations)),
    languages,
    languageByCode,
    totals,
    hideAuthors: process.env[siteEnv.hideAuthors] === '1',
    siteUrl: process.env[siteEnv.siteUrl] || undefined,
  };
}

// Unit pages render translation by translation, component by component, so a cache bounded
// by unit count holds a whole ordinary component: its lists are read once for the
// same-string index and reused by its pages. Bounded so that a huge component cannot exhaust memory.
const unitCache = new Map<string, { units: Promise<StoredUnit[]>; count: number }>();
const unitCacheLimit = 200_000;
let cachedUnits = 0;

export function units(translation: TranslationEntry): Promise<StoredUnit[]> {
  const hit = unitCache.get(translation.path);
  if (hit) {
    unitCache.delete(translation.path);
    unitCache.set(translation.path, hit);
    return hit.units;
  }
  const entry = { units: catalog().then(({ snapshot }) => snapshot.units(translation.path)), count: Math.max(translation.record.total, 1) };
  cachedUnits += entry.count;
  unitCache.set(translation.path, entry);
  for (const [path, old] of unitCache) {
    if (cachedUnits <= unitCacheLimit || path === translation.path) break;
    unitCache.delete(path);
    cachedUnits -= old.count;
  }
  return entry.units;
}

export interface UnitLocation {
  translation: TranslationEntry;
  page: number;
  id: number;
}

let componentIndex: { path: string; index: Promise<Map<string, UnitLocation[]>> } | undefined;

/** Where each string (by `id_hash`) of a component sits in each of its languages. */
export function sameStringIndex(component: ComponentEntry): Promise<Map<string, UnitLocation[]>> {
  if (componentIndex?.path !== component.path) {
    componentIndex = { path: component.path, index: buildSameStringIndex(component) };
  }
  return componentIndex.index;
}

async function buildSameStringIndex(component: ComponentEntry): Promise<Map<string, UnitLocation[]>> {
  const index = new Map<string, UnitLocation[]>();
  for (const translation of component.translations) {
    const list = await units(translation);
    list.forEach((unit, position) => {
      const key = unit.id_hash.toString();
      const locations = index.get(key) ?? [];
      locations.push({ translation, page: unitPageOf(position, translation.unitPages), id: unit.id });
      index.set(key, locations);
    });
  }
  return index;
}

/** The live page on the server: only an http(s) URL on the snapshot's own server. */
export function liveUrl(stored: string, snapshot: Snapshot): string | undefined {
  const { base_url, format_api_links } = snapshot.manifest.server;
  const absolute = decodeLink(stored, { baseUrl: base_url, formatApi: format_api_links });
  try {
    const url = new URL(absolute);
    return (url.protocol === 'http:' || url.protocol === 'https:') && absolute.startsWith(base_url) ? absolute : undefined;
  } catch {
    return undefined;
  }
}

const neutralAuthor = 'a contributor';

/** The name shown for a user link (`api/users/jane/`) or a last-author name; `--hide-authors` hides it. */
export function authorLabel(user: string | null | undefined, hideAuthors: boolean, isLink: boolean): string {
  if (user === null || user === undefined || user === '') return isLink ? 'system' : 'unknown';
  if (hideAuthors) return neutralAuthor;
  if (!isLink) return user;
  return decodeURIComponent(lastSegment(user.replace(/^tmsnap-raw:/, '')));
}

/** A change as the changes pages and the feed show it. */
export interface ChangeEntry {
  id: number;
  timestamp: string;
  action: number;
  user: string;
  target: string;
  translation: TranslationEntry | undefined;
  component: ComponentEntry | undefined;
}

export async function changeCount(): Promise<number> {
  const { snapshot } = await catalog();
  return snapshot.index.changes.reduce((sum, chunk) => sum + chunk.count, 0);
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

/** Changes `from … from+count-1` counted from the newest (0 = the newest change). */
export async function newestChanges(from: number, count: number): Promise<ChangeEntry[]> {
  const { snapshot, translations, components, hideAuthors } = await catalog();
  const total = await changeCount();
  // Ascending positions [low, high) of the changes wanted.
  const high = Math.max(total - from, 0);
  const low = Math.max(high - count, 0);
  const picked: StoredChange[] = [];
  let offset = 0;
  for (const chunk of snapshot.index.changes) {
    const chunkEnd = offset + chunk.count;
    if (chunkEnd > low && offset < high) {
      const changes = await readChunk(snapshot, chunk.hash);
      picked.push(...changes.slice(Math.max(low - offset, 0), Math.min(high - offset, chunk.count)));
    }
    offset = chunkEnd;
  }
  const translationByPath = new Map(translations.map((t) => [t.path, t]));
  const componentByPath = new Map(components.map((c) => [c.path, c]));
  return picked.reverse().map((change) => ({
    id: change.id,
    timestamp: change.timestamp,
    action: change.action,
    user: authorLabel(change.user ?? change.author, hideAuthors, true),
    target: change.target.length > maxTargetLength ? `${change.target.slice(0, maxTargetLength)}…` : change.target,
    translation: change.translation === null ? undefined : translationByPath.get(change.translation),
    component: change.component === null ? undefined : componentByPath.get(change.component),
  }));
}

/** The archived raw file of a translation, if the crawl stored one. */
export async function rawFile(translation: TranslationEntry): Promise<{ sitePath: string; size: number } | undefined> {
  const { snapshot } = await catalog();
  const record = await snapshot.record(`${translation.path}file/`);
  const parsed = storedFile.safeParse(record);
  if (!parsed.success) return undefined;
  return { sitePath: sitePaths.file(translation.key, translation.record.filename), size: parsed.data.size };
}
