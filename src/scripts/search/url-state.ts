/**
 * A search as URL parameters, so it can be shared: `?q=save+as&lang=pl&project=app&
 * component=app/ui&state=20&has=check&in=both`. Slugs and codes, never positions: a link keeps
 * working when the next snapshot adds a project. A state may be named as Weblate names it
 * (`state=needs-editing`), so a link can say "needs editing in German" in words.
 */
import { hasFilters, type SearchManifest } from '../../../search/format.ts';
import { searchScopes, type SearchScope } from '../../../search/query.ts';

export interface SearchState {
  q: string;
  lang: string;
  project: string;
  /** `<project slug>/<component slug>`. */
  component: string;
  /** A state's number, or its name with dashes. */
  state: string;
  /** `check` (a failing check) or `suggestion`: what every string listed has. */
  has: string;
  in: SearchScope;
}

const filterKeys = ['q', 'lang', 'project', 'component', 'state', 'has'] as const;

export function readState(params: URLSearchParams): SearchState {
  const scope = params.get('in') ?? '';
  const state = Object.fromEntries(filterKeys.map((key) => [key, params.get(key) ?? ''])) as Omit<SearchState, 'in'>;
  return { ...state, in: (searchScopes as readonly string[]).includes(scope) ? (scope as SearchScope) : 'both' };
}

/** Only the parameters that differ from the defaults, in a fixed order. */
export function writeState(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of filterKeys) if (state[key] !== '') params.set(key, state[key]);
  if (state.in !== 'both') params.set('in', state.in);
  return params;
}

/** Whether the state asks for a listing when it has no text: a filter other than the language is set. */
export function listsStrings(state: SearchState): boolean {
  return state.project !== '' || state.component !== '' || state.state !== '' || state.has !== '';
}

/**
 * The state with each filter the manifest does not offer cleared, as the form's lists would
 * clear it, and a state's name turned into its number: the page searches the URL's query
 * before it fills those lists.
 */
export function knownState(manifest: Pick<SearchManifest, 'languages' | 'projects' | 'components' | 'states'>, state: SearchState): SearchState {
  const offered = {
    lang: manifest.languages.map((language) => language.code),
    project: manifest.projects.map((project) => project.slug),
    component: manifest.components.map((component) => `${manifest.projects[component.project]?.slug}/${component.slug}`),
    state: manifest.states.map(([code]) => String(code)),
    has: [...hasFilters] as string[],
  };
  const named = manifest.states.find(([, name]) => name.replace(/ /g, '-') === state.state);
  const given = { ...state, state: named ? String(named[0]) : state.state };
  const known = (key: keyof typeof offered) => (offered[key].includes(given[key]) ? given[key] : '');
  return { ...given, lang: known('lang'), project: known('project'), component: known('component'), state: known('state'), has: known('has') };
}
