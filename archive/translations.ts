/**
 * Reads what the diff and the history need of each translation in a snapshot (names, figures,
 * the hash of its unit list) through the snapshot reader. Records are content-addressed, so a
 * cache keyed by object hash reads each distinct record once across all snapshots.
 */
import { kindOfPath, type Snapshot, storedComponent, storedLanguage, storedProject, storedTranslation } from '../snapshot/index.ts';
import type { Named, TranslationEntry } from './diff.ts';
import { translationFigures } from './figures.ts';

export interface EntryFilter {
  /** Project slugs; empty: every project. */
  projects: readonly string[];
  /** Language codes; empty: every language. */
  languages: readonly string[];
}

export const noFilter: EntryFilter = { projects: [], languages: [] };

/** Parsed records by object hash, shared between snapshots. */
export type RecordCache = Map<string, unknown>;

async function cachedRecord<T>(snapshot: Snapshot, path: string, parse: (value: unknown) => T, cache: RecordCache): Promise<T | undefined> {
  const hash = snapshot.paths().get(path);
  if (hash === undefined || snapshot.isRaw(path)) return undefined;
  if (!cache.has(hash)) cache.set(hash, parse(await snapshot.record(path)));
  return cache.get(hash) as T;
}

/** The slug a path segment stands for (`cat%252Fcomp` → `cat%2Fcomp`), when no record names it. */
function segment(path: string, index: number): string {
  const raw = path.split('/')[index] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Every translation of a snapshot that passes the filter, as the diff and history see it. */
export async function translationEntries(snapshot: Snapshot, filter: EntryFilter = noFilter, cache: RecordCache = new Map()): Promise<TranslationEntry[]> {
  const entries: TranslationEntry[] = [];
  for (const path of snapshot.paths().keys()) {
    if (kindOfPath(path) !== 'translation') continue;
    const translation = await cachedRecord(snapshot, path, (value) => storedTranslation.parse(value), cache);
    if (translation === undefined) continue;
    // api/translations/<project>/<component>/<language>/
    const componentPath = translation.component ?? `api/components/${path.split('/')[2]}/${path.split('/')[3]}/`;
    const component = await cachedRecord(snapshot, componentPath, (value) => storedComponent.parse(value), cache);
    const project = component ? await cachedRecord(snapshot, component.project, (value) => storedProject.parse(value), cache) : undefined;
    const language = await cachedRecord(snapshot, translation.language, (value) => storedLanguage.parse(value), cache);
    const projectNamed: Named = project ? { slug: project.slug, name: project.name } : { slug: segment(path, 2), name: segment(path, 2) };
    const languageNamed: Named = { slug: translation.language_code, name: language?.name ?? translation.language_code };
    if (filter.projects.length > 0 && !filter.projects.includes(projectNamed.slug)) continue;
    if (filter.languages.length > 0 && !filter.languages.includes(languageNamed.slug)) continue;
    entries.push({
      path,
      project: projectNamed,
      component: component ? { slug: component.slug, name: component.name } : { slug: segment(path, 3), name: segment(path, 3) },
      language: languageNamed,
      figures: translationFigures(translation),
      unitsHash: snapshot.paths().get(`${path}units/`),
    });
  }
  return entries;
}
