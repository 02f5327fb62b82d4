import { apiPath, decodeLink, encodeLink, type LinkBase } from './links.ts';

/**
 * What a stored path holds, decided by the path alone so that the writer and every reader
 * agree without storing it. `units` is a translation's unit list, `file` a raw file's entry;
 * `announcements` and `suggestions` are lists Weblate 2026 added, validated item by item and
 * otherwise stored as `other` records are (their bytes are those older crawls stored).
 */
export type RecordKind =
  | 'root'
  | 'language'
  | 'project'
  | 'component'
  | 'translation'
  | 'units'
  | 'file'
  | 'unit'
  | 'change'
  | 'user'
  | 'notifications'
  | 'statistics'
  | 'announcements'
  | 'suggestions'
  | 'other';

const pathKinds: [RegExp, RecordKind][] = [
  [/^api\/$/, 'root'],
  [/^api\/languages\/[^/]+\/$/, 'language'],
  [/^api\/projects\/[^/]+\/$/, 'project'],
  [/^api\/components\/[^/]+\/[^/]+\/$/, 'component'],
  [/^api\/translations\/[^/]+\/[^/]+\/[^/]+\/$/, 'translation'],
  [/^api\/translations\/[^/]+\/[^/]+\/[^/]+\/units\/$/, 'units'],
  [/^api\/translations\/[^/]+\/[^/]+\/[^/]+\/file\/$/, 'file'],
  [/^api\/units\/\d+\/$/, 'unit'],
  [/^api\/changes\/\d+\/$/, 'change'],
  [/^api\/users\/[^/]+\/$/, 'user'],
  [/^api\/users\/[^/]+\/notifications\/$/, 'notifications'],
  [/^api\/.*\/statistics\/$/, 'statistics'],
  [/^api\/(?:projects\/[^/]+|components\/[^/]+\/[^/]+|translations\/[^/]+\/[^/]+\/[^/]+|categories\/[^/]+)\/announcements\/$/, 'announcements'],
  [/^api\/suggestions\/$/, 'suggestions'],
];

export function kindOfPath(path: string): RecordKind {
  for (const [pattern, kind] of pathKinds) if (pattern.test(path)) return kind;
  return 'other';
}

/** Fields holding an object that has its own record, by the kind that embeds it. */
const embeddedFields: Partial<Record<RecordKind, Record<string, RecordKind>>> = {
  component: { project: 'project', source_language: 'language' },
  translation: { language: 'language', component: 'component' },
  notifications: { project: 'project', component: 'component' },
};

/** Whether records of this kind may embed others the writer stores on their own (`embeddedRecords`). */
export function embedsRecords(kind: RecordKind): boolean {
  return embeddedFields[kind] !== undefined;
}

/** Top-level link fields whose names do not say so (beyond `url`, `*_url`, `next`, `previous`). */
const extraLinkFields: Partial<Record<RecordKind, ReadonlySet<string>>> = {
  unit: new Set(['translation', 'source_unit']),
  change: new Set(['unit', 'component', 'translation', 'user', 'author']),
  user: new Set(['notifications']),
};

function isLinkKey(key: string): boolean {
  return key === 'url' || key.endsWith('_url') || key === 'next' || key === 'previous';
}

type Json = unknown;
type JsonObject = Record<string, Json>;

function isObject(value: Json): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Applies `link` to every link-field string at any depth; `topLevel` names extra link fields of the record itself. */
function mapLinks(value: Json, link: (text: string) => string, topLevel: (key: string) => boolean): Json {
  if (Array.isArray(value)) return value.map((item) => mapLinks(item, link, () => false));
  if (!isObject(value)) return value;
  // fromEntries defines own properties, so a hostile `__proto__` key stays data.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      typeof item === 'string' && (isLinkKey(key) || topLevel(key)) ? link(item) : mapLinks(item, link, () => false),
    ]),
  );
}

/** A record that cannot be normalized reversibly: the writer keeps it raw and reports it. */
export class NormalizeError extends Error {
  override name = 'NormalizeError';
  readonly field: string;

  constructor(field: string, reason: string) {
    super(`${field}: ${reason}`);
    this.field = field;
  }
}

function topLevelLinks(kind: RecordKind): (key: string) => boolean {
  if (kind === 'root') return () => true;
  const extra = extraLinkFields[kind];
  return extra === undefined ? () => false : (key) => extra.has(key);
}

/** The elements of a record that are single API objects (a notifications list holds several). */
function recordObjects(kind: RecordKind, record: Json): JsonObject[] {
  if (kind === 'notifications') {
    const items = Array.isArray(record) ? record : isObject(record) && Array.isArray(record.results) ? record.results : [];
    return items.filter(isObject);
  }
  return isObject(record) ? [record] : [];
}

export interface EmbeddedRecord {
  kind: RecordKind;
  url: string;
  record: Json;
}

/**
 * Whether an embedded object (by its URL) becomes a record of its own. The crawler says no to
 * objects outside its scope (a user's notification subscriptions embed projects of the whole
 * server, docs/crawl.md): those stay embedded, as the server sent them, in the record that holds them.
 */
export type OwnRecord = (url: string) => boolean;

const everyObject: OwnRecord = () => true;

/** Every object embedded in a record (recursively: a translation's component embeds a project), innermost first. */
export function embeddedRecords(kind: RecordKind, record: Json, own: OwnRecord = everyObject): EmbeddedRecord[] {
  const fields = embeddedFields[kind];
  if (fields === undefined) return [];
  const found: EmbeddedRecord[] = [];
  for (const object of recordObjects(kind, record)) {
    for (const [field, embeddedKind] of Object.entries(fields)) {
      const embedded = object[field];
      if (!isObject(embedded) || typeof embedded.url !== 'string' || !own(embedded.url)) continue;
      found.push(...embeddedRecords(embeddedKind, embedded, own), { kind: embeddedKind, url: embedded.url, record: embedded });
    }
  }
  return found;
}

/** A parent named by the URL of its own record where the API embeds it (see `putRecord` in writer.ts). */
export interface EmbeddedReference {
  field: string;
  kind: RecordKind;
  url: string;
}

/** The fields of a record that name an embedded object by URL instead of holding it. */
export function embeddedReferences(kind: RecordKind, record: Json): EmbeddedReference[] {
  const fields = embeddedFields[kind];
  if (fields === undefined || kind === 'notifications' || !isObject(record)) return [];
  return Object.entries(fields).flatMap(([field, embeddedKind]) => {
    const value = record[field];
    return typeof value === 'string' ? [{ field, kind: embeddedKind, url: value }] : [];
  });
}

/**
 * Replaces the embedded objects of one object by their stored links. Objects embedded in those
 * (a translation's component's project) are checked too: the writer stores each of them. An
 * object `own` refuses stays in place, whole; only its links are made relative (`mapLinks`).
 */
function replaceEmbedded(kind: RecordKind, object: JsonObject, base: LinkBase, where: string, own: OwnRecord): JsonObject {
  const fields = embeddedFields[kind];
  if (fields === undefined) return object;
  const out = { ...object };
  for (const [field, embeddedKind] of Object.entries(fields)) {
    const embedded = object[field];
    if (embedded === null || embedded === undefined) continue;
    if (!isObject(embedded) || typeof embedded.url !== 'string') {
      throw new NormalizeError(`${where}${field}`, 'expected an embedded object with a url');
    }
    if (!embedded.url.startsWith(base.baseUrl)) {
      throw new NormalizeError(`${where}${field}.url`, `the embedded object lives off the server (${embedded.url})`);
    }
    if (!own(embedded.url)) continue;
    replaceEmbedded(embeddedKind, embedded, base, `${where}${field}.`, own);
    out[field] = encodeLink(embedded.url, base);
  }
  return out;
}

/**
 * The stored form of an API record (pure): links relative to the server, `format=api` removed,
 * embedded objects replaced by their stored link (those `own` accepts). Keys are sorted when
 * written, not here. `expandRecord` reverses it exactly.
 */
export function normalizeRecord(kind: RecordKind, record: Json, base: LinkBase, own: OwnRecord = everyObject): Json {
  const links = (text: string) => encodeLink(text, base);
  if (kind === 'notifications') {
    const normalizeList = (items: Json[]) =>
      items.map((item, index) => (isObject(item) ? mapLinks(replaceEmbedded(kind, item, base, `[${index}].`, own), links, () => false) : item));
    if (Array.isArray(record)) return normalizeList(record);
    if (isObject(record) && Array.isArray(record.results)) {
      const outer = mapLinks({ ...record, results: [] }, links, () => false) as JsonObject;
      return { ...outer, results: normalizeList(record.results) };
    }
    return mapLinks(record, links, () => false);
  }
  const object = isObject(record) ? replaceEmbedded(kind, record, base, '', own) : record;
  return mapLinks(object, links, topLevelLinks(kind));
}

/** Stored records by relative API path, for restoring embedded objects. */
export type RecordLookup = (path: string) => Json | undefined;

function restoreEmbedded(kind: RecordKind, object: JsonObject, lookup: RecordLookup, base: LinkBase): JsonObject {
  const fields = embeddedFields[kind];
  if (fields === undefined) return object;
  const out = { ...object };
  for (const [field, embeddedKind] of Object.entries(fields)) {
    const reference = object[field];
    // An object kept embedded (outside the crawl's scope, `OwnRecord`) is already whole.
    if (typeof reference !== 'string') continue;
    const path = apiPath(decodeLink(reference, base), base.baseUrl);
    const stored = lookup(path);
    if (stored === undefined) throw new Error(`the snapshot lacks ${path}, embedded as ${field} of a ${kind} record`);
    out[field] = expandRecord(embeddedKind, stored, lookup, base);
  }
  return out;
}

/** The API record a stored record came from (pure): the exact inverse of `normalizeRecord`. */
export function expandRecord(kind: RecordKind, stored: Json, lookup: RecordLookup, base: LinkBase): Json {
  const links = (text: string) => decodeLink(text, base);
  if (kind === 'notifications') {
    const expandList = (items: Json[]) =>
      items.map((item) => (isObject(item) ? restoreEmbedded(kind, mapLinks(item, links, () => false) as JsonObject, lookup, base) : item));
    if (Array.isArray(stored)) return expandList(stored);
    if (isObject(stored) && Array.isArray(stored.results)) {
      const outer = mapLinks({ ...stored, results: [] }, links, () => false) as JsonObject;
      return { ...outer, results: expandList(stored.results) };
    }
    return mapLinks(stored, links, () => false);
  }
  const expanded = mapLinks(stored, links, topLevelLinks(kind));
  return isObject(expanded) ? restoreEmbedded(kind, expanded, lookup, base) : expanded;
}

/** Every string at a link position of a record, embedded objects included. */
export function* linkStrings(kind: RecordKind, record: Json): Generator<string> {
  const topLevel = topLevelLinks(kind);
  function* walk(value: Json, top: boolean): Generator<string> {
    if (Array.isArray(value)) {
      for (const item of value) yield* walk(item, false);
      return;
    }
    if (!isObject(value)) return;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' && (isLinkKey(key) || (top && topLevel(key)))) yield item;
      else yield* walk(item, false);
    }
  }
  yield* walk(record, true);
}
