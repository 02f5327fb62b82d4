/**
 * The grammar of API paths, in one place: every stage that needs to know what a path names
 * (the crawler's plan and scope, the snapshot's record kinds, the incremental crawl) asks
 * `parseApiPath` instead of splitting on `/` itself. Pure.
 *
 * A path is relative to the API root (`projects/foo/components/`, no leading `api/`, no
 * query) and always ends in `/`, as Weblate's URLs do (docs/weblate-api.md, "Paths").
 * Segments stay as the server wrote them, percent-encoding included: a component inside a
 * category appears as `cat%252Fcomp`, and links are compared in that spelling. `slugOf`
 * decodes one for display or file names.
 */

/** What a path names: an object, a collection of them, or a sub-resource of an object. */
export type ApiPathKind =
  | 'root'
  | 'collection'
  | 'language'
  | 'project'
  | 'component'
  | 'translation'
  | 'unit'
  | 'change'
  | 'user'
  /** An item of a collection the description does not detail (groups, roles, screenshots…). */
  | 'item';

export interface ApiPath {
  kind: ApiPathKind;
  /** The first segment: `projects`, `components`, `translations`, `units`, `groups`…; empty for the root. */
  collection: string;
  project?: string;
  component?: string;
  /** A translation's language code, or a language's own code. */
  language?: string;
  /** A unit's or change's id, a user's name, or an item's key. */
  id?: string;
  /** The sub-resource after the object, e.g. `components`, `units`, `file`, `statistics`, `repository`. */
  sub?: string;
  /** Segments after `sub` (none on any path Weblate documents; kept so nothing is lost). */
  rest?: string[];
}

/** How many segments name the object of each collection (`translations/p/c/l/` has three). */
interface ObjectShape {
  kind: ApiPathKind;
  keys: readonly ('project' | 'component' | 'language' | 'id')[];
}

/** A Map, not an object literal: a collection named `valueOf` or `__proto__` is just another name. */
const objectSegments = new Map<string, ObjectShape>([
  ['languages', { kind: 'language', keys: ['language'] }],
  ['projects', { kind: 'project', keys: ['project'] }],
  ['components', { kind: 'component', keys: ['project', 'component'] }],
  ['translations', { kind: 'translation', keys: ['project', 'component', 'language'] }],
  ['units', { kind: 'unit', keys: ['id'] }],
  ['changes', { kind: 'change', keys: ['id'] }],
  ['users', { kind: 'user', keys: ['id'] }],
]);

const otherObject: ObjectShape = { kind: 'item', keys: ['id'] };

/**
 * What an API path names, or `undefined` when it is not one (no trailing slash, an empty
 * segment, a collection cut short such as `components/p/`).
 */
export function parseApiPath(path: string): ApiPath | undefined {
  if (path === '') return { kind: 'root', collection: '' };
  if (!path.endsWith('/')) return undefined;
  const segments = path.slice(0, -1).split('/');
  if (segments.some((segment) => segment === '')) return undefined;
  const [collection, ...after] = segments as [string, ...string[]];
  if (after.length === 0) return { kind: 'collection', collection };
  const shape = objectSegments.get(collection) ?? otherObject;
  if (after.length < shape.keys.length) return undefined;
  const parsed: ApiPath = { kind: shape.kind, collection };
  shape.keys.forEach((key, index) => {
    parsed[key] = after[index]!;
  });
  const [sub, ...rest] = after.slice(shape.keys.length);
  if (sub !== undefined) parsed.sub = sub;
  if (rest.length > 0) parsed.rest = rest;
  return parsed;
}

/** The inverse of `parseApiPath`: `formatApiPath(parseApiPath(p)!) === p` for every API path. */
export function formatApiPath(path: ApiPath): string {
  if (path.kind === 'root') return '';
  const shape = path.kind === 'collection' ? { keys: [] } : (objectSegments.get(path.collection) ?? otherObject);
  const segments = [path.collection, ...shape.keys.map((key) => path[key] ?? ''), ...(path.sub === undefined ? [] : [path.sub]), ...(path.rest ?? [])];
  return `${segments.join('/')}/`;
}

/** The path of the object a path belongs to: `translations/p/c/de/units/` → `translations/p/c/de/`. */
export function objectPath(path: ApiPath): string {
  const { sub: _sub, rest: _rest, ...object } = path;
  return formatApiPath(object);
}

/** Path builders, the segments already encoded as the server writes them. */
export const apiPaths = {
  project: (project: string) => `projects/${project}/`,
  component: (project: string, component: string) => `components/${project}/${component}/`,
  translation: (project: string, component: string, language: string) => `translations/${project}/${component}/${language}/`,
  language: (code: string) => `languages/${code}/`,
} as const;

/**
 * A slug from a path segment. Weblate writes a `/` inside a slug (components in categories) as
 * `%2F`, which URL reversing escapes again: `cat%252Fcomp` is the slug `cat/comp`.
 */
export function slugOf(segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return segment;
  }
  return decoded.replaceAll('%2F', '/');
}

/** A slug as a path segment: the inverse of `slugOf`. */
export function segmentOf(slug: string): string {
  return encodeURIComponent(slug.replaceAll('/', '%2F'));
}
