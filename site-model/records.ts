/**
 * The records the site and its search index show: every project, component, language and
 * translation of a snapshot, including those the crawl kept raw because they failed their
 * schema, read leniently where the fields the site needs can be made out. A translation page
 * from a raw translation record is better than none (docs/site.md, "Raw records").
 */
import type { z } from 'zod';
import {
  type Snapshot,
  type StoredEntry,
  storedComponent,
  storedLanguage,
  storedProject,
  storedTranslation,
  type StoredComponent,
  type StoredLanguage,
  type StoredProject,
  type StoredTranslation,
} from '../snapshot/index.ts';
import { lastSegment, registerSegments } from './paths.ts';

export interface SiteRecords {
  projects: StoredEntry<StoredProject>[];
  components: StoredEntry<StoredComponent>[];
  languages: StoredEntry<StoredLanguage>[];
  translations: StoredEntry<StoredTranslation>[];
  /** Paths of the raw records read leniently, and of those that could not be. */
  lenient: { read: string[]; skipped: string[] };
}

/** What is read from a snapshot (the search index takes the same subset). */
export type RecordSource = Pick<Snapshot, 'projects' | 'components' | 'languages' | 'translations' | 'rawRecords' | 'toPath' | 'manifest'>;

/**
 * A translation stored from its component's list may carry no component link; its own path
 * names it: `api/translations/<project>/<component>/<language>/` ⇒ `api/components/<project>/<component>/`.
 */
export function componentPathOf(translationPath: string): string {
  const parts = translationPath.replace(/\/$/, '').split('/');
  return parts.length >= 5 && parts[1] === 'translations' ? `api/components/${parts.slice(2, -1).join('/')}/` : '';
}

/** `api/components/<project>/<component>/` ⇒ `api/projects/<project>/`. */
export function projectPathOf(componentPath: string): string {
  const parts = componentPath.replace(/\/$/, '').split('/');
  return parts.length === 4 && parts[1] === 'components' ? `api/projects/${parts[2]}/` : '';
}

export async function siteRecords(snapshot: RecordSource): Promise<SiteRecords> {
  const [projects, components, languages, translations, rawProjects, rawComponents, rawLanguages, rawTranslations] = await Promise.all([
    snapshot.projects(),
    snapshot.components(),
    snapshot.languages(),
    snapshot.translations(),
    snapshot.rawRecords('project'),
    snapshot.rawRecords('component'),
    snapshot.rawRecords('language'),
    snapshot.rawRecords('translation'),
  ]);
  const lenient: SiteRecords['lenient'] = { read: [], skipped: [] };
  const add = <T>(into: StoredEntry<T>[], raw: StoredEntry<unknown>[], read: (path: string, record: Record<string, unknown>) => T | undefined) => {
    for (const { path, record } of raw) {
      const parsed = isObject(record) ? read(path, record) : undefined;
      if (parsed === undefined) {
        lenient.skipped.push(path);
      } else {
        into.push({ path, record: parsed });
        lenient.read.push(path);
      }
    }
  };
  const reference = (value: unknown): string | undefined => {
    const url = isObject(value) ? value.url : value;
    if (typeof url !== 'string' || url === '') return undefined;
    try {
      return snapshot.toPath(url);
    } catch {
      return undefined;
    }
  };
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

  add(projects, rawProjects, (path, raw) => {
    const slug = text(raw.slug) ?? decoded(lastSegment(path));
    return lenientParse(storedProject, raw, { slug, name: text(raw.name) ?? slug });
  });
  add(components, rawComponents, (path, raw) => {
    const slug = text(raw.slug) ?? decoded(lastSegment(path));
    const project = reference(raw.project) ?? projectPathOf(path);
    if (project === '') return undefined;
    return lenientParse(storedComponent, raw, { slug, name: text(raw.name) ?? slug, project, source_language: reference(raw.source_language) ?? '' });
  });
  add(languages, rawLanguages, (path, raw) => {
    const code = text(raw.code) ?? decoded(lastSegment(path));
    return lenientParse(storedLanguage, raw, { code, name: text(raw.name) ?? code });
  });
  add(translations, rawTranslations, (path, raw) => {
    const component = reference(raw.component) ?? componentPathOf(path);
    const code = text(raw.language_code) ?? text(isObject(raw.language) ? raw.language.code : undefined) ?? decoded(lastSegment(path));
    if (component === '') return undefined;
    return lenientParse(storedTranslation, raw, { component, language_code: code, language: reference(raw.language) ?? `api/languages/${code}/` });
  });
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  for (const list of [projects, components, languages, translations]) list.sort(byPath);
  const scoped = withinScope({ projects, components, translations }, snapshot.manifest.scope.projects);
  projects.splice(0, projects.length, ...scoped.projects);
  components.splice(0, components.length, ...scoped.components);
  translations.splice(0, translations.length, ...scoped.translations);
  registerSegments([
    ...projects.map((p) => p.record.slug),
    ...components.map((c) => lastSegment(c.path)),
    ...languages.map((l) => l.record.code),
    ...translations.map((t) => t.record.language_code),
  ]);
  return { projects, components, languages, translations, lenient };
}

/**
 * The projects a `--project` crawl asked for (by slug), their components and their
 * translations; all of them for a whole-instance crawl (`projects` undefined or empty). Older
 * crawls stored the projects and components that users' notification subscriptions embed as
 * records of their own, whatever the scope: they are no part of the site (docs/crawl.md, "Scope").
 */
export function withinScope(
  records: Pick<SiteRecords, 'projects' | 'components' | 'translations'>,
  projects: readonly string[] | undefined,
): Pick<SiteRecords, 'projects' | 'components' | 'translations'> {
  if (projects === undefined || projects.length === 0) return records;
  const asked = new Set(projects);
  const keptProjects = records.projects.filter(({ record }) => asked.has(record.slug));
  const projectPaths = new Set(keptProjects.map(({ path }) => path));
  const keptComponents = records.components.filter(({ record }) => projectPaths.has(record.project));
  const componentPaths = new Set(keptComponents.map(({ path }) => path));
  const keptTranslations = records.translations.filter(({ path, record }) => componentPaths.has(record.component ?? componentPathOf(path)));
  return { projects: keptProjects, components: keptComponents, translations: keptTranslations };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Stand-ins for a field the record lacks or holds in another shape, tried in this order. */
const standIns: unknown[] = [undefined, null, '', 0, false, [], {}];

/**
 * The record with every field that fits the schema kept, `known` fields put in, and every
 * other field replaced by the first stand-in its schema accepts (absent, null, empty, zero):
 * a page then shows what the server sent and blanks for the rest. Undefined when even that
 * does not fit.
 */
export function lenientParse<S extends z.ZodObject>(schema: S, raw: Record<string, unknown>, known: Record<string, unknown>): z.infer<S> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const value = Object.hasOwn(known, key) ? known[key] : raw[key];
    const chosen = field.safeParse(value).success ? value : standIns.find((candidate) => field.safeParse(candidate).success);
    if (chosen === undefined && !field.safeParse(undefined).success) return undefined;
    if (chosen !== undefined) out[key] = structuredClone(chosen);
  }
  const parsed = schema.safeParse(out);
  return parsed.success ? parsed.data : undefined;
}
