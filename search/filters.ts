/**
 * Filters as people write them (language codes, project and component slugs, state names or
 * numbers) turned into manifest positions. The CLI reports what it cannot resolve; the page
 * only offers values that resolve.
 */
import { knownStateWords, stateOf } from '../api/states.ts';
import { hasFilters, type HasFilter, type SearchManifest } from './format.ts';

export interface FilterInput {
  languages?: readonly string[];
  projects?: readonly string[];
  /** `<project>/<component>`, or a bare component slug (within the chosen projects, if any). */
  components?: readonly string[];
  /** A state number (`20`, any, as newer servers add states) or word, Weblate's or the site's (`empty`, `untranslated`, `needs-editing`). */
  states?: readonly string[];
  /** What every unit found has, in Weblate's words: `check` (a failing check), `suggestion`. */
  has?: readonly string[];
}

export interface ResolvedFilters {
  languages?: Set<number>;
  components?: Set<number>;
  states?: Set<number>;
  has?: Set<HasFilter>;
  /** One message per value that matched nothing. */
  problems: string[];
}

type ManifestLists = Pick<SearchManifest, 'projects' | 'components' | 'languages' | 'states'>;

export function resolveFilters(manifest: ManifestLists, input: FilterInput): ResolvedFilters {
  const problems: string[] = [];
  const resolved: ResolvedFilters = { problems };
  const pick = (values: readonly string[] | undefined, kind: string, known: string[], find: (value: string) => number[]) => {
    if (!values || values.length === 0) return undefined;
    const found = new Set<number>();
    for (const value of values) {
      const matches = find(value);
      if (matches.length === 0)
        problems.push(`no ${kind} "${value}" in this snapshot (known: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''})`);
      for (const match of matches) found.add(match);
    }
    return found;
  };

  const languages = pick(
    input.languages,
    'language',
    manifest.languages.map((language) => language.code),
    (code) => positions(manifest.languages, (language) => language.code.toLowerCase() === code.toLowerCase()),
  );
  if (languages) resolved.languages = languages;

  const projects = pick(
    input.projects,
    'project',
    manifest.projects.map((project) => project.slug),
    (slug) => positions(manifest.projects, (project) => project.slug === slug),
  );
  const componentNames = manifest.components.map((component) => `${manifest.projects[component.project]?.slug}/${component.slug}`);
  const components = pick(input.components, 'component', componentNames, (value) => {
    const slash = value.indexOf('/');
    return positions(manifest.components, (component, position) =>
      slash === -1 ? component.slug === value && (!projects || projects.has(component.project)) : componentNames[position] === value,
    );
  });
  if (components) resolved.components = components;
  else if (projects) resolved.components = new Set(positions(manifest.components, (component) => projects.has(component.project)));

  // Weblate's words or the site's, one table for the page and the CLI (api/states.ts).
  const states = pick(input.states, 'state', knownStateWords(), (value) => {
    const state = stateOf(value);
    return state === undefined ? [] : [state];
  });
  if (states) resolved.states = states;

  const has = pick(input.has, 'flag', [...hasFilters], (value) => positions(hasFilters, (flag) => flag === value.trim().toLowerCase()));
  if (has) resolved.has = new Set([...has].map((position) => hasFilters[position]!));
  return resolved;
}

function positions<T>(list: readonly T[], test: (item: T, position: number) => boolean): number[] {
  return list.flatMap((item, position) => (test(item, position) ? [position] : []));
}
