/**
 * The URL's filters checked against the manifest before the page fills its lists: the first
 * search of a shared link must use the filters the lists will show.
 */
import { expect, test } from 'vitest';
import { knownState, readState, unknownFilters } from '../../src/scripts/search/url-state.ts';

const manifest = {
  languages: [
    { code: 'pl', name: 'Polish' },
    { code: 'pt_BR', name: 'Portuguese (Brazil)' },
  ],
  projects: [
    { slug: 'app', name: 'App' },
    { slug: 'docs', name: 'Docs' },
  ],
  components: [
    { slug: 'ui', name: 'UI', project: 0 },
    { slug: 'guide', name: 'Guide', project: 1 },
  ],
  states: [
    [20, 'translated'],
    [10, 'needs editing'],
  ],
} as unknown as Parameters<typeof knownState>[0];

const state = (query: string) => knownState(manifest, readState(new URLSearchParams(query)));

test('filters the manifest offers are kept', () => {
  expect(state('q=save+as&lang=pt_BR&project=docs&component=docs/guide&state=10&has=check&in=target')).toEqual({
    q: 'save as',
    lang: 'pt_BR',
    project: 'docs',
    component: 'docs/guide',
    state: '10',
    has: 'check',
    in: 'target',
  });
});

test('a state named as Weblate names it becomes its number: "needs editing in Polish" as a link', () => {
  expect(state('lang=pl&state=needs-editing')).toMatchObject({ lang: 'pl', state: '10', q: '' });
  expect(state('state=translated').state).toBe('20');
  // A state no string of the snapshot is in is still a state: it lists none, rather than every string.
  expect(state('state=approved').state).toBe('30');
});

test('a state in the site’s words or Weblate’s, however written, is taken (issue 35: ?state=untranslated was ignored)', () => {
  expect(['untranslated', 'empty', 'Translated', 'needs+editing', 'needs_rewriting', 'read-only'].map((word) => state(`state=${word}`).state)).toEqual([
    '0',
    '0',
    '20',
    '10',
    '11',
    '100',
  ]);
});

test('the filters the page cannot take are named, so that it says so instead of listing without them', () => {
  const asked = (query: string) => unknownFilters(manifest, readState(new URLSearchParams(query)));
  expect(asked('lang=pl&state=untranslated&project=app')).toEqual([]);
  expect(asked('project=app&state=untranslatd&lang=xx')).toEqual([
    ['lang', 'xx'],
    ['state', 'untranslatd'],
  ]);
});

test('filters the lists would not show are cleared, the query and scope kept', () => {
  // Exact values only, as a list's options are matched: `PL` and a bare component slug are not offered.
  expect(state('q=plik&lang=PL&project=../app&component=guide&state=Translatd&has=comment')).toEqual({
    q: 'plik',
    lang: '',
    project: '',
    component: '',
    state: '',
    has: '',
    in: 'both',
  });
  expect(state('q=x&lang=xx&component=app/guide').component).toBe('');
});
