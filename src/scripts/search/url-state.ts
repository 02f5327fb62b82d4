/**
 * A search as URL parameters, so it can be shared: `?q=save+as&lang=pl&project=app&
 * component=app/ui&state=20&has=check&in=both`. Slugs and codes, never positions: a link keeps
 * working when the next snapshot adds a project. A state may be named in Weblate's words or the
 * site's (`state=needs-editing`, `state=untranslated`), so a link can say "needs editing in
 * German" in words.
 */
import { stateOf } from '../../../api/states.ts';
import { hasFilters, type SearchManifest } from '../../../search/format.ts';
import { searchScopes, type SearchScope } from '../../../search/query.ts';

export interface SearchState {
  q: string;
  lang: string;
  project: string;
  /** `<project slug>/<component slug>`. */
  component: string;
  /** A state's number, or its word (api/states.ts). */
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

type ManifestLists = Pick<SearchManifest, 'languages' | 'projects' | 'components' | 'states'>;

/**
 * The state with each filter the manifest does not offer cleared, as the form's lists would
 * clear it, and a state's word, Weblate's or the site's (api/states.ts: `needs-editing`,
 * `untranslated`), turned into its number: the page searches the URL's query before it fills
 * those lists. A state the snapshot holds no string in stays: it lists none.
 */
export function knownState(manifest: ManifestLists, state: SearchState): SearchState {
  const offered = {
    lang: manifest.languages.map((language) => language.code),
    project: manifest.projects.map((project) => project.slug),
    component: manifest.components.map((component) => `${manifest.projects[component.project]?.slug}/${component.slug}`),
    has: [...hasFilters] as string[],
  };
  const code = state.state === '' ? undefined : stateOf(state.state);
  const known = (key: keyof typeof offered) => (offered[key].includes(state[key]) ? state[key] : '');
  return {
    ...state,
    lang: known('lang'),
    project: known('project'),
    component: known('component'),
    state: code === undefined ? '' : String(code),
    has: known('has'),
  };
}

/** The filters of the URL's query that `knownState` had to clear, each as [key, value]: the page says so rather than list without them (issue 35). */
export function unknownFilters(manifest: ManifestLists, state: SearchState): [Exclude<keyof SearchState, 'q' | 'in'>, string][] {
  const known = knownState(manifest, state);
  return (['lang', 'project', 'component', 'state', 'has'] as const).filter((key) => state[key] !== '' && known[key] === '').map((key) => [key, state[key]]);
}
