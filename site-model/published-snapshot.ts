/**
 * A snapshot as the site may publish it (site-model/privacy.ts): the same reader, but every record,
 * unit, change and raw record it returns has its e-mail addresses removed, and what the
 * publication leaves out (projects an anonymous visitor cannot see, with everything under them,
 * their suggestions in `/api/suggestions/` and, while any is left out, every category;
 * repository fields; languages nothing published uses) is not there at all. Every read the site
 * makes goes through one: the pages' tree (src/data/tree.ts), the string histories, the
 * archive's figures and the search index.
 */
import type { ChangeChunk, JsonScreen, ScreenedUnits, Snapshot, StoredChange, StoredEntry, StoredUnit } from '../snapshot/index.ts';
import { unitIdOf } from './news.ts';
import { decidePublication, jsonMayHoldEmail, projectOfPath, redactTranslationFile, redactValue, type Publication, type PublishKind } from './privacy.ts';

/** Where a crawl of Weblate 2026 stores the suggestions it may read (snapshot/normalize.ts). */
const suggestionsPath = 'api/suggestions/';

/** What the build publishes beyond the public view, and whether it hides authors. */
export interface PublishOptions {
  publish: readonly PublishKind[];
  hideAuthors: boolean;
}

/** The publication of `snapshot` with the build's opt-ins. */
export async function publicationOf(snapshot: Snapshot, publish: readonly PublishKind[]): Promise<Publication> {
  const projects: StoredEntry<unknown>[] = [...(await snapshot.projects()), ...(await snapshot.rawRecords('project'))];
  const heldMemory = [...snapshot.paths().keys()].some((path) => path.startsWith('api/memory/'));
  return decidePublication({ ...snapshot.manifest, heldMemory }, projects, publish);
}

const published = new WeakMap<Snapshot, Snapshot>();

/** `snapshot` as the build publishes it; the same view for the same snapshot. */
export async function publishedSnapshot(snapshot: Snapshot, options: PublishOptions): Promise<Snapshot> {
  if (isPublished(snapshot)) return snapshot;
  let view = published.get(snapshot);
  if (view === undefined) {
    view = publishedView(snapshot, await publicationOf(snapshot, options.publish), options.hideAuthors);
    published.set(snapshot, view);
  }
  return view;
}

const publishedMark = Symbol('tmsnap.published');

function isPublished(snapshot: Snapshot): boolean {
  return (snapshot as unknown as Record<symbol, unknown>)[publishedMark] === true;
}

/** Whether a change may be published: none of a hidden project, nor one whose project cannot be told while any is hidden. */
export function changeIsPublished(change: StoredChange, publication: Publication): boolean {
  if (publication.hiddenProjects.size === 0) return true;
  const of = change.translation ?? change.component;
  if (of === null) return false;
  const project = projectOfPath(of);
  return project !== undefined && !publication.hiddenProjects.has(project);
}

/** The view itself (exported for tests): a proxy over the reader, its methods bound to it. */
export function publishedView(snapshot: Snapshot, publication: Publication, hideAuthors = false): Snapshot {
  const hidden = (pathOrUrl: string): boolean => {
    if (publication.hiddenProjects.size === 0) return false;
    const path = snapshot.toPath(pathOrUrl);
    // A category names its project only in its record; the site shows none: all go while any project is hidden.
    if (path.startsWith('api/categories/')) return true;
    const project = projectOfPath(path);
    return project !== undefined && publication.hiddenProjects.has(project);
  };
  // `/api/suggestions/` lists every project's: those on units of a hidden project go (their ids read once, when asked).
  let hiddenUnits: Promise<Set<number>> | undefined;
  const hiddenUnitIds = () =>
    (hiddenUnits ??= (async () => {
      const ids = new Set<number>();
      for (const path of snapshot.paths().keys()) if (path.endsWith('/units/') && hidden(path)) for (const unit of await snapshot.units(path)) ids.add(unit.id);
      return ids;
    })());
  const withoutHiddenSuggestions = async (path: string, record: unknown): Promise<unknown> => {
    if (publication.hiddenProjects.size === 0 || snapshot.toPath(path) !== suggestionsPath) return record;
    // Kept raw, it cannot be told apart by unit: none of it is published.
    if (snapshot.isRaw(path)) return undefined;
    const ids = await hiddenUnitIds();
    const published = (item: unknown) => {
      const unit = typeof item === 'object' && item !== null ? (item as { unit?: unknown }).unit : undefined;
      const id = typeof unit === 'string' ? unitIdOf(unit) : undefined;
      return id !== undefined && !ids.has(id);
    };
    if (Array.isArray(record)) return record.filter(published);
    const page = record as { results?: unknown } | null | undefined;
    return page && Array.isArray(page.results) ? { ...page, results: page.results.filter(published) } : undefined;
  };
  const redact = <T>(value: T): T => (publication.emails ? value : redactValue(value));
  const entries = <T>(list: StoredEntry<T>[]): StoredEntry<T>[] =>
    list.filter((entry) => !hidden(entry.path)).map((entry) => ({ path: entry.path, record: redact(entry.record) }));
  const withoutFields = <T>(record: T): T => {
    if (publication.hiddenComponentFields.length === 0 || typeof record !== 'object' || record === null) return record;
    const copy = { ...(record as Record<string, unknown>) };
    for (const field of publication.hiddenComponentFields) if (field in copy) copy[field] = null;
    return copy as T;
  };
  const component = <T>(path: string, record: T): T => (/^api\/components\/[^/]+\/[^/]+\/$/.test(snapshot.toPath(path)) ? withoutFields(record) : record);
  let usedLanguages: Promise<Set<string>> | undefined;
  const used = () =>
    (usedLanguages ??= (async () => {
      const codes = new Set<string>();
      for (const { record } of entries(await snapshot.translations())) codes.add(record.language_code);
      for (const { path } of entries(await snapshot.rawRecords('translation'))) codes.add(decodeURIComponent(path.split('/').at(-2) ?? ''));
      for (const { record } of entries(await snapshot.components())) codes.add(snapshot.toPath(record.source_language).split('/').at(-2) ?? '');
      return codes;
    })());
  // A chunk's changes as published; as with units, only a chunk whose bytes may hold an address is walked.
  const changesIn = async (chunk: ChangeChunk): Promise<StoredChange[]> => {
    if (publication.emails) return (await snapshot.changesIn(chunk)).filter((change) => changeIsPublished(change, publication));
    const { changes, flagged } = await snapshot.screenedChangesIn(chunk, jsonMayHoldEmail);
    const kept = changes.filter((change) => changeIsPublished(change, publication));
    return flagged ? kept.map((change) => redactValue(change)) : kept;
  };
  let paths: ReadonlyMap<string, string> | undefined;
  const methods: Record<string, unknown> = {
    [publishedMark]: true,
    paths: () => (paths ??= publication.hiddenProjects.size === 0 ? snapshot.paths() : new Map([...snapshot.paths()].filter(([path]) => !hidden(path)))),
    record: async (path: string) => (hidden(path) ? undefined : redact(component(path, await withoutHiddenSuggestions(path, await snapshot.record(path))))),
    rawRecord: async (path: string) =>
      hidden(path) ? undefined : redact(component(path, await withoutHiddenSuggestions(path, await snapshot.rawRecord(path)))),
    rawPaths: (kind: string) => snapshot.rawPaths(kind).filter((path) => !hidden(path)),
    rawRecords: async (kind: string) =>
      entries(await snapshot.rawRecords(kind)).map((entry) => (kind === 'component' ? { ...entry, record: withoutFields(entry.record) } : entry)),
    projects: async () => entries(await snapshot.projects()),
    components: async () => entries(await snapshot.components()).map((entry) => ({ ...entry, record: withoutFields(entry.record) })),
    translations: async () => entries(await snapshot.translations()),
    languages: async () => {
      const languages = entries(await snapshot.languages());
      if (!publication.onlyUsedLanguages) return languages;
      const codes = await used();
      return languages.filter((entry) => codes.has(entry.record.code));
    },
    users: async () => entries(await snapshot.users()),
    units: async (path: string) => {
      if (hidden(path)) return [];
      if (publication.emails) return snapshot.units(path);
      // Every unit of a build comes through here, and few hold an address: only the units of a
      // stored part whose bytes may hold one are walked (`jsonMayHoldEmail`).
      const units: StoredUnit[] = [];
      for (const part of await snapshot.screenedUnits(path, jsonMayHoldEmail))
        for (const unit of part.units) units.push(part.flagged ? redactValue(unit) : unit);
      return units;
    },
    unitsAt: async (path: string, position: number) => {
      if (hidden(path)) return undefined;
      if (publication.emails) return snapshot.unitsAt(path, position);
      const part = await snapshot.screenedUnitsAt(path, position, jsonMayHoldEmail);
      return part && { first: part.first, units: part.flagged ? redactValue(part.units) : part.units };
    },
    screenedUnitsAt: async (path: string, position: number, screen: JsonScreen) => {
      const part = hidden(path) ? undefined : await snapshot.screenedUnitsAt(path, position, screen);
      return part && { ...part, units: redact(part.units) };
    },
    // Stored chunks name their objects by hash: units redacted under that hash would misstate
    // them, so the view offers none and callers read `units` (snapshot/reader.ts `unitChunks`).
    unitChunks: async () => undefined,
    // The reader's parts as published: every unit redacted, whatever `screen` says of the stored bytes.
    screenedUnits: async (path: string, screen: JsonScreen): Promise<ScreenedUnits[]> =>
      hidden(path) ? [] : (await snapshot.screenedUnits(path, screen)).map((part) => ({ units: redact(part.units), flagged: part.flagged })),
    statistics: async (path: string) => (hidden(path) ? undefined : redact(await snapshot.statistics(path))),
    notifications: async (path: string) =>
      redact(await snapshot.notifications(path)).filter((item) => !(typeof item.project === 'string' && hidden(item.project))),
    changesIn,
    screenedChangesIn: async (chunk: ChangeChunk, screen: JsonScreen) => {
      const { changes, flagged } = await snapshot.screenedChangesIn(chunk, screen);
      return { changes: redact(changes.filter((change) => changeIsPublished(change, publication))), flagged };
    },
    changes: async function* () {
      for (const chunk of snapshot.index.changes) yield* await changesIn(chunk);
    },
    // The raw file with its addresses (and with --hide-authors its translators) removed: the site publishes these bytes.
    file: async (path: string) => {
      if (hidden(path)) return undefined;
      const file = await snapshot.file(path);
      if (file === undefined) return undefined;
      const bytes = redactTranslationFile(file.bytes, snapshot.toPath(path), file.contentType, { emails: publication.emails, hideAuthors });
      return { contentType: file.contentType, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    },
    publication,
  };
  return new Proxy(snapshot, {
    get(target, property) {
      if (Object.hasOwn(methods, property)) return methods[property as string];
      // The reader's own methods run on the reader itself: its private fields are not the proxy's.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' && property !== 'constructor' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The publication a published view was made with. */
export function publicationOfView(snapshot: Snapshot): Publication | undefined {
  return isPublished(snapshot) ? ((snapshot as unknown as { publication: Publication }).publication ?? undefined) : undefined;
}

/** The projects a comparison of published snapshots shows (`sharedProjects`). */
export interface SharedProjects {
  /** Whether every project of every snapshot is published: no filter needed. */
  every: boolean;
  /** Slugs of the projects every snapshot publishes (a project either side leaves out stays out). */
  shown: string[];
  /** Slugs of the projects some snapshot leaves out: what an anonymous visitor of the server cannot see. */
  hidden: string[];
  /** Whether every snapshot publishes e-mail addresses. */
  emails: boolean;
}

const slugOfProjectPath = (path: string) => {
  const segment = /^api\/projects\/([^/]+)\/$/.exec(path)?.[1] ?? path;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * What the site's what-changed pages and `tmsnap diff` compare of published views (issue 35:
 * one scope for both): the projects published from each, a project hidden on either side left
 * out of both.
 */
export async function sharedProjects(views: readonly Snapshot[]): Promise<SharedProjects> {
  const publications = views.map((view) => publicationOfView(view));
  const emails = publications.every((publication) => publication?.emails === true);
  const hiddenPaths = new Set(publications.flatMap((publication) => [...(publication?.hiddenProjects ?? [])]));
  const every = publications.every((publication) => publication !== undefined && publication.hiddenProjects.size === 0);
  const shown = new Set<string>();
  for (const view of views) for (const { path, record } of await view.projects()) if (!hiddenPaths.has(path)) shown.add(record.slug);
  const hidden = [...new Set([...hiddenPaths].map(slugOfProjectPath))].filter((slug) => !shown.has(slug)).sort();
  return { every, shown: [...shown].sort(), hidden, emails };
}
