import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { change, page, unit } from '../../api/index.ts';
import { type ModelRows, MemoryModel } from '../../packages/reference-server/memory-model.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { useReferenceServer } from '../helpers/reference-server.ts';
import { type Answer, get as anonymousGet } from './get.ts';

// 5.4 servers read with a token, so every row of the fixture (the private project's too) is listed.
const TOKEN = 'wlu_pages';
const behaviours = { tokens: [TOKEN], rateLimit: raisedRateLimit };

function get(url: string): Promise<Answer> {
  return anonymousGet(url, { headers: { Authorization: `Token ${TOKEN}` } });
}

const EXTRA_UNITS = 10_050;
const EXTRA_CHANGES = 1_191;

/** The fixture plus enough units and changes to reach both page-size limits. */
function largeRows(): ModelRows {
  const rows = fixtureRows();
  const template = rows.units.find((row) => row.id === 7)!;
  for (let i = 0; i < EXTRA_UNITS; i++) {
    rows.units.push({ ...template, id: 1000 + i, position: 100 + i, source: [`String ${i}`], target: [`Řetězec ${i}`] });
  }
  for (let i = 0; i < EXTRA_CHANGES; i++) {
    const time = new Date(Date.UTC(2024, 5, 1) + i * 1000).toISOString().replace('Z', '000Z');
    rows.changes.push({
      id: 11 + i,
      action: 2,
      timestamp: time,
      user: 'bob',
      author: 'bob',
      unitId: 1000 + i,
      translationId: 2,
      componentId: 1,
      target: `Řetězec ${i}`,
    });
  }
  return rows;
}

const TOTAL_CHANGES = 10 + EXTRA_CHANGES;
const TOTAL_UNITS = 26 + EXTRA_UNITS;

const server = useReferenceServer({ data: new MemoryModel(largeRows()), behaviours });
const legacy = useReferenceServer({ profile: 'weblate-4.15', behaviours });

const changePage = page(change);
const unitPage = page(unit);

async function changes(query: string) {
  const answer = await get(`${server().url}changes/${query}`);
  expect(answer.status).toBe(200);
  return changePage.parse(answer.json);
}

describe('page sizes', () => {
  it("defaults to 50 on standard lists and a translation's units, 100 on /api/units/", async () => {
    expect((await changes('')).results).toHaveLength(50);
    const units = unitPage.parse((await get(`${server().url}units/`)).json);
    expect(units.count).toBe(TOTAL_UNITS);
    expect(units.results).toHaveLength(100);
    const translationUnits = unitPage.parse((await get(`${server().url}translations/hello/po/cs/units/`)).json);
    expect(translationUnits.results).toHaveLength(50);
  });

  it('honours page_size and clamps it silently to 1000 on standard lists', async () => {
    expect((await changes('?page_size=7')).results).toHaveLength(7);
    const clamped = await changes('?page_size=5000');
    expect(clamped.count).toBe(TOTAL_CHANGES);
    expect(clamped.results).toHaveLength(1000);
    expect(new URL(clamped.next!).searchParams.get('page')).toBe('2');
  });

  it("clamps /api/units/ to 10000 and a translation's units to 1000", async () => {
    const units = unitPage.parse((await get(`${server().url}units/?page_size=20000`)).json);
    expect(units.count).toBe(TOTAL_UNITS);
    expect(units.results).toHaveLength(10_000);
    const translationUnits = unitPage.parse((await get(`${server().url}translations/hello/po/cs/units/?page_size=20000`)).json);
    expect(translationUnits.count).toBe(6 + EXTRA_UNITS);
    expect(translationUnits.results).toHaveLength(1000);
  });

  it.each(['0', '-5', 'abc', '1.5'])('falls back to the default for page_size=%s', async (size) => {
    expect((await changes(`?page_size=${size}`)).results).toHaveLength(50);
  });
});

describe('next and previous', () => {
  it('chains every change exactly once forward and back', async () => {
    const forward: number[] = [];
    let url: string | null = `${server().url}changes/?page_size=300`;
    let last = '';
    let pages = 0;
    while (url) {
      const answer = changePage.parse((await get(url)).json);
      forward.push(...answer.results.map((row) => row.id));
      last = url;
      url = answer.next;
      pages++;
    }
    expect(pages).toBe(Math.ceil(TOTAL_CHANGES / 300));
    // Newest first, as a real server lists changes.
    expect(forward).toEqual(Array.from({ length: TOTAL_CHANGES }, (_, i) => TOTAL_CHANGES - i));
    const backward: number[][] = [];
    let back: string | null = last;
    while (back) {
      const answer = changePage.parse((await get(back)).json);
      backward.unshift(answer.results.map((row) => row.id));
      back = answer.previous;
    }
    expect(backward.flat()).toEqual(forward);
  });

  it('keeps the other query parameters and drops page=1 from previous', async () => {
    const second = await changes('?page_size=10&action=2&page=2');
    const next = new URL(second.next!);
    // Sorted by key, as Django REST framework writes them.
    expect([...next.searchParams]).toEqual([
      ['action', '2'],
      ['page', '3'],
      ['page_size', '10'],
    ]);
    const previous = new URL(second.previous!);
    expect(Object.fromEntries(previous.searchParams)).toEqual({ page_size: '10', action: '2' });
    expect(previous.origin).toBe(server().origin);
  });

  it('serves page=last as the last page', async () => {
    const last = await changes('?page_size=100&page=last');
    expect(last.next).toBeNull();
    expect(last.results.at(-1)?.id).toBe(1);
    expect(last.results).toHaveLength(TOTAL_CHANGES % 100);
  });
});

describe('invalid pages', () => {
  const pages = Math.ceil(TOTAL_CHANGES / 50);
  it.each([String(pages + 1), '0', '-1', 'abc'])('answers 404 "Invalid page." for page=%s', async (number) => {
    const answer = await get(`${server().url}changes/?page=${number}`);
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ detail: 'Invalid page.' });
  });

  it('serves the last real page and an empty first page', async () => {
    expect((await changes(`?page=${pages}`)).results.length).toBeGreaterThan(0);
    const empty = await get(`${server().url}screenshots/`);
    expect(empty.json).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect((await get(`${server().url}screenshots/?page=2`)).status).toBe(404);
  });
});

describe('legacy pagination (servers up to 4.15)', () => {
  it('serves 20 per page and ignores page_size', async () => {
    const units = unitPage.parse((await get(`${legacy().url}units/?page_size=5`)).json);
    expect(units.count).toBe(26);
    expect(units.results).toHaveLength(20);
    expect(new URL(units.next!).searchParams.get('page')).toBe('2');
    const second = unitPage.parse((await get(units.next!)).json);
    expect(second.results).toHaveLength(6);
    expect(second.next).toBeNull();
    const list = page(z.unknown()).parse((await get(`${legacy().url}changes/?page_size=1000`)).json);
    expect(list.results).toHaveLength(10);
  });
});
