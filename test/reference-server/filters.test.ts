import { describe, expect, it } from 'vitest';
import { change, page, unit } from '../../api/index.ts';
import type { UnitRow } from '../../packages/reference-server/model.ts';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { startTestServer, useReferenceServer } from '../helpers/reference-server.ts';
import { type Answer, get as anonymousGet } from './get.ts';

// A 5.4 server read with a token, so the private project's rows count too and the filters are
// checked against every row of the fixture.
const TOKEN = 'wlu_filters';
const behaviours = { tokens: [TOKEN], rateLimit: raisedRateLimit };
const server = useReferenceServer({ behaviours });
const rows = fixtureRows();

function get(url: string): Promise<Answer> {
  return anonymousGet(url, { headers: { Authorization: `Token ${TOKEN}` } });
}

/** The ids a changes list holds, ascending (a real server lists newest first: `changes newest first` checks the order). */
async function changeIds(path: string): Promise<number[]> {
  const answer = await get(`${server().url}${path}`);
  expect(answer.status, path).toBe(200);
  return page(change)
    .parse(answer.json)
    .results.map((row) => row.id)
    .sort((a, b) => a - b);
}

async function unitIds(path: string): Promise<number[]> {
  const answer = await get(`${server().url}${path}`);
  expect(answer.status, path).toBe(200);
  const list = page(unit).parse(answer.json);
  expect(list.count).toBe(list.results.length);
  return list.results.map((row) => row.id).sort((a, b) => a - b);
}

/** The fixture's own answer, computed from its rows, to compare the server's with. */
function expectedUnits(keep: (unit: UnitRow, place: { project: string; component: string; language: string }) => boolean): number[] {
  return rows.units
    .filter((row) => {
      const translation = rows.translations.find((entry) => entry.id === row.translationId)!;
      const component = rows.components.find((entry) => entry.id === translation.componentId)!;
      const project = rows.projects.find((entry) => entry.id === component.projectId)!;
      return keep(row, { project: project.slug, component: component.slug, language: translation.languageCode });
    })
    .map((row) => row.id)
    .sort((a, b) => a - b);
}

describe('changes filters', () => {
  it('keeps timestamp_after inclusive to the microsecond', async () => {
    expect(await changeIds('changes/?timestamp_after=2024-05-01T12:20:00.123456Z')).toEqual([5, 6, 7, 8, 9, 10]);
    expect(await changeIds('changes/?timestamp_after=2024-05-01T12:20:00.123457Z')).toEqual([6, 7, 8, 9, 10]);
  });

  it('keeps timestamp_before inclusive and reads time zone offsets', async () => {
    expect(await changeIds('changes/?timestamp_before=2024-05-01T12:03:00Z')).toEqual([1, 2, 3]);
    expect(await changeIds('changes/?timestamp_before=2024-05-01T13:03:00.123456%2B01:00')).toEqual([1, 2, 3, 4]);
    expect(await changeIds('changes/?timestamp_after=2024-05-01T12:20:00Z&timestamp_before=2024-05-01T12:30:00.123456Z')).toEqual([5, 6, 7, 8]);
  });

  it('filters by one or several actions', async () => {
    expect(await changeIds('changes/?action=5')).toEqual([5, 6, 9]);
    expect(await changeIds('changes/?action=5&action=2')).toEqual([5, 6, 8, 9]);
  });

  it('applies the same filters to project, component and translation changes', async () => {
    expect(await changeIds('projects/hello/changes/')).toEqual([2, 3, 5, 6, 7, 8, 10]);
    expect(await changeIds('projects/hello/changes/?action=5')).toEqual([5, 6]);
    expect(await changeIds('components/hello/po/changes/?timestamp_after=2024-05-01T12:21:00Z')).toEqual([6, 7, 8, 10]);
    expect(await changeIds('translations/hello/po/cs/changes/')).toEqual([5, 8]);
    expect(await changeIds('translations/hello/po/cs/changes/?action=2')).toEqual([8]);
  });

  it('answers a time-bounded object list the same before and after the change log is indexed', async () => {
    const own = await startTestServer({ behaviours });
    try {
      const ids = async (path: string) =>
        page(change)
          .parse((await get(`${own.url}${path}`)).json)
          .results.map((row) => row.id);
      const bounded = [
        'projects/hello/changes/?timestamp_after=2024-05-01T12:02:00Z&timestamp_before=2024-05-01T12:30:00.123456Z',
        'components/hello/po/changes/?timestamp_after=2024-05-01T12:21:00Z',
        'translations/hello/po/cs/changes/?timestamp_before=2024-05-01T12:30:00Z',
      ];
      const before = await Promise.all(bounded.map(ids));
      expect(before).toEqual([[8, 7, 6, 5, 3], [10, 8, 7, 6], [5]]);
      await ids('projects/hello/changes/');
      expect(await Promise.all(bounded.map(ids))).toEqual(before);
    } finally {
      await own.close();
    }
  });

  // Keyed by field as 5.4 answers (both bounds report as `timestamp`, docs/weblate-api.md).
  it.each([
    ['timestamp_after=yesterday', { timestamp: ['Enter a valid date/time.'] }],
    ['timestamp_before=2024-13-45', { timestamp: ['Enter a valid date/time.'] }],
    ['action=abc', { action: ['Select a valid choice. abc is not one of the available choices.'] }],
  ])('answers 400 keyed by the parameter for %s', async (query, body) => {
    const answer = await get(`${server().url}changes/?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(body);
  });
});

describe('units search (q)', () => {
  const cases: [string, Parameters<typeof expectedUnits>[0]][] = [
    ['project:hello', (_, place) => place.project === 'hello'],
    ['component:glossary', (_, place) => place.component === 'glossary'],
    ['language:cs', (_, place) => place.language === 'cs'],
    ['project:hello language:cs', (_, place) => place.project === 'hello' && place.language === 'cs'],
    ['state:20', (row) => row.state === 20],
    ['state:>=20', (row) => row.state >= 20],
    ['state:<20', (row) => row.state < 20],
    ['state:>10', (row) => row.state > 10],
    ['state:<=10', (row) => row.state <= 10],
    ['state:translated', (row) => row.state === 20],
    ['state:empty language:ar', (row, place) => row.state === 0 && place.language === 'ar'],
    // Weblate's other names for states (`STATE_NAMES`), and `is:fuzzy` (docs/weblate-api.md, "States 11 and 12").
    ['state:untranslated language:ar', (row, place) => row.state === 0 && place.language === 'ar'],
    ['state:fuzzy', (row) => row.state === 10],
    ['is:fuzzy', (row) => row.state === 10],
    ['changed:>=2024-05-01T12:30:00Z', (row) => row.timestamp >= '2024-05-01T12:30:00'],
    ['changed:<2024-05-01T12:30:00.123456Z', (row) => row.timestamp < '2024-05-01T12:30:00.123456Z'],
    [
      'language:cs state:>=20 changed:>=2024-05-01T12:20:00Z',
      (row, place) => place.language === 'cs' && row.state >= 20 && row.timestamp >= '2024-05-01T12:20:00',
    ],
    ['banana', (row) => [...row.source, ...row.target, row.context].some((text) => text.toLowerCase().includes('banana'))],
    ['"Hello, world"', (row) => row.source.some((text) => text.includes('Hello, world'))],
  ];

  it.each(cases)('q=%s finds exactly the matching units', async (q, keep) => {
    const expected = expectedUnits(keep);
    expect(expected.length).toBeGreaterThan(0);
    expect(await unitIds(`units/?page_size=1000&q=${encodeURIComponent(q)}`)).toEqual(expected);
  });

  it('searches within one translation too', async () => {
    const expected = expectedUnits((row, place) => place.project === 'hello' && place.component === 'po' && place.language === 'cs' && row.state === 0);
    expect(await unitIds(`translations/hello/po/cs/units/?q=${encodeURIComponent('state:0')}`)).toEqual(expected);
  });

  it('pages a filtered result and keeps q in the next link', async () => {
    const first = page(unit).parse((await get(`${server().url}units/?page_size=2&q=${encodeURIComponent('state:>=20')}`)).json);
    expect(first.count).toBe(expectedUnits((row) => row.state >= 20).length);
    expect(new URL(first.next!).searchParams.get('q')).toBe('state:>=20');
    const second = page(unit).parse((await get(first.next!)).json);
    expect(second.results.every((row) => row.state >= 20)).toBe(true);
    expect(second.results[0]!.id).not.toBe(first.results[0]!.id);
  });

  it.each(['nosuch:field', 'state:shiny', 'changed:>=not-a-date'])('answers 400 for q=%s', async (q) => {
    const answer = await get(`${server().url}units/?q=${encodeURIComponent(q)}`);
    expect(answer.status).toBe(400);
    const { q: errors } = answer.json as { q: string[] };
    expect(errors).toHaveLength(1);
    expect(errors[0]).toEqual(expect.any(String));
  });
});

describe('units search (q) over states 11 and 12', () => {
  it('names them as Weblate 5.15 does; state:needs-editing is 10 alone, is:needs-editing 10–12', async () => {
    const withNew = fixtureRows();
    const czechMessages = withNew.translations.find((translation) => translation.componentId === 1 && translation.languageCode === 'cs')!;
    const czech = withNew.units.filter((row) => row.translationId === czechMessages.id);
    czech.find((row) => row.position === 3)!.state = 11;
    czech.find((row) => row.position === 5)!.state = 12;
    const [fuzzy, rewriting, checking] = [10, 11, 12].map((state) => czech.find((row) => row.state === state)!.id);
    const other = await startTestServer({ profile: 'weblate-2026', data: new MemoryModel(withNew), behaviours: { ...behaviours, botChallenge: null } });
    try {
      const ids = async (q: string) => {
        const answer = await get(`${other.url}units/?page_size=1000&q=${encodeURIComponent(q)}`);
        expect(answer.status, q).toBe(200);
        return (answer.json as { results: { id: number }[] }).results.map((row) => row.id).sort((a, b) => a - b);
      };
      expect(await ids('state:needs-rewriting')).toEqual([rewriting]);
      expect(await ids('state:needs-checking')).toEqual([checking]);
      expect(await ids('state:needs-editing')).toEqual([fuzzy]);
      expect(await ids('is:needs-editing')).toEqual([fuzzy, rewriting, checking]);
      expect(await ids('is:fuzzy')).toEqual([fuzzy, rewriting, checking]);
    } finally {
      await other.close();
    }
  });
});
