/**
 * What a list's own URL says about its items. Real servers leave the parent out of nested
 * lists (a project's `components/` items have no `project`, a component's `translations/`
 * items no `component`) and, for anonymous clients, the `url` out of `users/` items
 * (docs/crawl.md, "What a list's URL says"). Pure: decided with `parseApiPath`.
 */
import { type ApiPath, type ApiPathKind, formatApiPath, objectPath } from '../api/paths.ts';

/** Nested lists whose items leave out the object the list hangs off: object kind → sub-resource → field. */
const parentFields: Partial<Record<ApiPathKind, Readonly<Record<string, string>>>> = {
  project: { components: 'project' },
  component: { translations: 'component' },
};

export interface ListParent {
  /** The field of each item that names the parent. */
  field: string;
  /** The parent's path relative to the API root, e.g. `projects/foo/`. */
  path: string;
}

/** The parent that every item of the list at `parsed` (the list's path, parsed) belongs to. */
export function listParent(parsed: ApiPath | undefined): ListParent | undefined {
  if (parsed?.sub === undefined || parsed.rest !== undefined) return undefined;
  const field = parentFields[parsed.kind]?.[parsed.sub];
  return field === undefined ? undefined : { field, path: objectPath(parsed) };
}

/**
 * The path of a list item that carries no `url`, when its list and its own fields name it:
 * a user of `users/` lives at `users/<username>/`. Weblate builds that URL with Django's
 * `reverse`, which leaves `@`, `+`, `.`, `-` and `_` (all a username may hold besides letters
 * and digits) unescaped and percent-encodes the UTF-8 of anything else.
 */
export function itemPathWithoutUrl(parsed: ApiPath | undefined, item: unknown): string | undefined {
  const username = (item as { username?: unknown } | null)?.username;
  if (parsed?.kind !== 'collection' || parsed.collection !== 'users' || typeof username !== 'string' || username === '') return undefined;
  const id = encodeURIComponent(username).replaceAll('%40', '@').replaceAll('%2B', '+');
  return formatApiPath({ kind: 'user', collection: 'users', id });
}
