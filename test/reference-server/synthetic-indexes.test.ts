/**
 * Answers the reference server computes without reading every unit (issue 14): the translation
 * memory paged from each translation's cached `translated` count, and `q=changed:` found from the
 * change log's tail. Each is checked against what a scan of every unit gives, over real sockets.
 */
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../api/json.ts';
import type { Model } from '../../packages/reference-server/model.ts';
import { createSyntheticModel, parseSyntheticSpec } from '../../packages/reference-server/synthetic/index.ts';
import { fixtureModel, withTestServer } from '../helpers/reference-server.ts';
import { get } from './get.ts';

const token = 'wlu_indexes';
const auth = { headers: { Authorization: `Token ${token}` } };

function synthetic(): Model {
  return createSyntheticModel(parseSyntheticSpec('synthetic:projects=2,components=3,languages=4,units=600,seed=7'));
}

/** The memory as a scan of every unit lists it: translated units (state 20 and up) of every target translation, in id order. */
function scannedMemoryIds(model: Model): number[] {
  const components = new Map(model.components().map((row) => [row.id, row]));
  return [...model.translations()]
    .sort((a, b) => a.id - b.id)
    .filter((translation) => translation.languageCode !== components.get(translation.componentId)?.sourceLanguage)
    .flatMap((translation) => model.units(translation.id, 0, model.unitCount(translation.id)))
    .filter((unit) => unit.state >= 20)
    .map((unit) => unit.id);
}

interface Page {
  count: number;
  next: string | null;
  results: { id: number }[];
}

async function pageOf(url: string): Promise<Page> {
  const answer = await get(url, auth);
  expect(answer.status).toBe(200);
  return answer.json as Page;
}

/** Every page of a list, following `next`. */
async function allPages(url: string): Promise<Page[]> {
  const pages: Page[] = [];
  for (let next: string | null = url; next !== null; next = pages.at(-1)!.next) pages.push(await pageOf(next));
  return pages;
}

describe('the translation memory', () => {
  it.each([
    ['a synthetic instance', synthetic],
    ['the fixture, with its private project', () => fixtureModel()],
  ])('pages %s as a scan of every translated unit does, pages cutting through translations', async (_, make) => {
    const model = make();
    const expected = scannedMemoryIds(model);
    expect(expected.length).toBeGreaterThan(7);
    await withTestServer({ data: model, behaviours: { tokens: [token] } }, async (server) => {
      for (const size of [7, 50, 1000]) {
        const pages = await allPages(`${server.url}memory/?page_size=${size}`);
        expect(pages.every((page) => page.count === expected.length)).toBe(true);
        expect(pages.flatMap((page) => page.results.map((entry) => entry.id))).toEqual(expected);
      }
      const last = await pageOf(`${server.url}memory/?page_size=7&page=last`);
      expect(last.results.map((entry) => entry.id)).toEqual(expected.slice(Math.floor((expected.length - 1) / 7) * 7));
    });
  });

  it('renders each entry from its unit', async () => {
    const model = synthetic();
    await withTestServer({ data: model, behaviours: { tokens: [token] } }, async (server) => {
      const [entry] = (await pageOf(`${server.url}memory/?page_size=1&page=3`)).results as unknown as Record<string, unknown>[];
      const unit = model.unit(Number(entry?.id))!;
      expect(entry).toMatchObject({ source: unit.source[0], target: unit.target[0], from_file: false, shared: false });
    });
  });
});

describe('units/?q=changed:', () => {
  /** The same model without its promise that unit times are in the log: the server scans every unit. */
  const scanned = (model: Model): Model => ({ ...model, unitTimesInLog: false });

  it('answers from the change log what a scan of every unit answers, byte for byte', async () => {
    const model = synthetic();
    const times = model
      .changes(0, model.changeCount())
      .map((change) => change.timestamp)
      .sort();
    const at = (share: number) => times[Math.floor(times.length * share)]!;
    const queries = [
      `changed:>=${at(0.9)}`,
      `changed:>${at(0.5)}`,
      `last_changed:>=${at(0.2)} language:${model.translations()[1]!.languageCode}`,
      `changed:>=${at(0.3)} changed:<${at(0.6)} state:>=20`,
      `changed:=${at(0.7)}`,
      `changed:>=${at(0.8)} project:${model.projects()[1]!.slug}`,
      `changed:>=2100-01-01`,
    ];
    await withTestServer({ data: model }, async (fast) => {
      await withTestServer({ data: scanned(model) }, async (slow) => {
        for (const q of queries) {
          for (const page of ['', '&page=2', '&page=last']) {
            const path = `units/?page_size=20&q=${encodeURIComponent(q)}${page}`;
            const [quick, full] = await Promise.all([get(`${fast.url}${path}`, auth), get(`${slow.url}${path}`, auth)]);
            expect({ q, page, status: quick.status, text: quick.text.replaceAll(new URL(fast.url).origin, '') }).toEqual({
              q,
              page,
              status: full.status,
              text: full.text.replaceAll(new URL(slow.url).origin, ''),
            });
          }
        }
        const some = parseJson((await get(`${fast.url}units/?q=${encodeURIComponent(queries[0]!)}`, auth)).text) as Page;
        expect(some.count).toBeGreaterThan(20);
      });
    });
  });
});
