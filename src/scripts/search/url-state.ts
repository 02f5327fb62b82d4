/**
 * A search as URL parameters, so it can be shared: `?q=save+as&lang=pl&project=app&
 * component=app/ui&state=20&in=both`. Slugs and codes, never positions: a link keeps working
 * when the next snapshot adds a project.
 */
import type { SearchManifest } from '../../../search/format.ts';
import { searchScopes, type SearchScope } from '../../../search/query.ts';

export interface SearchState {
  q: string;
  lang: string;
  project: string;
  /** `<project slug>/<component slug>`. */
  component: string;
  state: string;
  in: SearchScope;
}

export function readState(params: URLSearchParams): SearchState {
  const scope = params.get('in') ?? '';
  return {
    q: params.get('q') ?? '',
    lang: params.get('lang') ?? '',
    project: params.get('project') ?? '',
    component: params.get('component') ?? '',
    state: params.get('state') ?? '',
    in: (searchScopes as readonly string[]).includes(scope) ? (scope as SearchScope) : 'both',
  };
}

/** Only the parameters that differ from the defaults, in a fixed order. */
export function writeState(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['q', 'lang', 'project', 'component', 'state'] as const) if (state[key] !== '') params.set(key, state[key]);
  if (state.in !== 'both') params.set('in', state.in);
  return params;
}

/**
 * The state with each filter the manifest does not offer cleared, as the form's lists would
 * clear it: the page searches the URL's query before it fills those lists.
 */
export function knownState(manifest: Pick<SearchManifest, 'languages' | 'projects' | 'components' | 'states'>, state: SearchState): SearchState {
  const offered = {
    lang: manifest.languages.map((language) => language.code),
    project: manifest.projects.map((project) => project.slug),
    component: manifest.components.map((component) => `${manifest.projects[component.project]?.slug}/${component.slug}`),
    state: manifest.states.map(([code]) => String(code)),
  };
  const known = (key: keyof typeof offered) => (offered[key].includes(state[key]) ? state[key] : '');
  return { ...state, lang: known('lang'), project: known('project'), component: known('component'), state: known('state') };
}
