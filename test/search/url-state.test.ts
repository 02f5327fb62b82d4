/**
 * The URL's filters checked against the manifest before the page fills its lists: the first
 * search of a shared link must use the filters the lists will show.
 */
import { expect, test } from 'vitest';
import { knownState, readState } from '../../src/scripts/search/url-state.ts';

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
  // The manifest offers only the states its units are in.
  expect(state('state=approved').state).toBe('');
});

test('filters the lists would not show are cleared, the query and scope kept', () => {
  // Exact values only, as a list's options are matched: `PL` and a bare component slug are not offered.
  expect(state('q=plik&lang=PL&project=../app&component=guide&state=Translated&has=comment')).toEqual({
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
