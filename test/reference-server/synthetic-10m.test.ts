/**
 * Issue 14's instance: 10M units in 100 languages (about 100,000 source strings), served
 * lazily. Pages at the start, middle and end of `/api/units/`, statistics that agree with the
 * units listed, and a heap that stays far below what the units would take if they existed.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRow, Model } from '../../packages/reference-server/model.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { type ReferenceServer, startReferenceServer } from '../../packages/reference-server/server.ts';
import { createSyntheticModel, parseSyntheticSpec } from '../../packages/reference-server/synthetic/index.ts';
import { get } from './get.ts';

const spec = 'projects=10,components=10,languages=100,units=10000000,seed=1';
/** Far below the 10M units as rows (several GB): the instance must not exist in memory. */
const HEAP_BOUND = 400 * 2 ** 20;

/** A full collection before reading the heap, so garbage left by earlier answers is not counted. */
function heapAfterCollection(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

interface Page {
  count: number;
  next: string | null;
  results: { id: number; state: number }[];
}

describe('newestChange of a synthetic model', () => {
  it('is the newest change the log holds for each translation', () => {
    const m: Model = createSyntheticModel(parseSyntheticSpec('projects=2,components=3,languages=6,units=3000,seed=5'));
    const newest = new Map<number, ChangeRow>();
    for (const change of m.changes(0, m.changeCount())) if (change.translationId !== null) newest.set(change.translationId, change);
    expect(newest.size).toBe(m.translations().length);
    for (const translation of m.translations()) expect(m.newestChange?.(translation.id)?.id, translation.languageCode).toBe(newest.get(translation.id)?.id);
  });
});

describe(`a synthetic:${spec} server`, () => {
  let server: ReferenceServer;
  let model: Model;

  beforeAll(async () => {
    model = createSyntheticModel(parseSyntheticSpec(spec));
    server = await startReferenceServer({ model, host: '127.0.0.1', port: 0, behaviours: { rateLimit: raisedRateLimit } });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function page(path: string): Promise<Page> {
    const answer = await get(`${server.url}${path}`);
    expect(answer.status, path).toBe(200);
    return answer.json as Page;
  }

  it('lists 10M units in 100 languages and answers pages at the start, middle and end', async () => {
    expect(model.translations()).toHaveLength(10 * 10 * 101);
    for (const pageNumber of [1, 500, 1000]) {
      const { count, results } = await page(`units/?page_size=10000&page=${pageNumber}`);
      expect(count).toBe(10_000_000);
      // Units are ordered by translation, then id, and ids run through translations in order.
      expect(results.map((unit) => unit.id)).toEqual(Array.from({ length: 10_000 }, (_, n) => (pageNumber - 1) * 10_000 + n + 1));
    }
  }, 300_000);

  it('gives statistics whose totals agree with the units listed', async () => {
    const [project] = model.projects();
    const component = model.components().find((row) => row.projectId === project?.id && row.is_glossary);
    if (!project || !component) throw new Error('no glossary in the first project');
    const ofComponent = model.translations().filter((row) => row.componentId === component.id);
    expect(ofComponent).toHaveLength(101);
    // The source, two of the first targets (six plural forms in Arabic) and the hundredth.
    const sample = [ofComponent[0], ofComponent[1], ofComponent[3], ofComponent[100]].filter((row) => row !== undefined);
    for (const translation of sample) {
      const path = `${project.slug}/${component.slug}/${translation.languageCode}`;
      const states: number[] = [];
      for (let url: string | null = `${server.url}translations/${path}/units/?page_size=1000`; url !== null;) {
        const answer = await get(url);
        const body = answer.json as Page;
        states.push(...body.results.map((unit) => unit.state));
        url = body.next;
      }
      const statistics = (await get(`${server.url}translations/${path}/statistics/`)).json as Record<string, number>;
      expect(states.length, path).toBe(model.unitCount(translation.id));
      expect(statistics, path).toMatchObject({
        total: states.length,
        translated: states.filter((state) => state >= 20).length,
        fuzzy: states.filter((state) => state === 10).length,
        approved: states.filter((state) => state === 30).length,
        readonly: states.filter((state) => state === 100).length,
      });
    }
    const german = model.translations().filter((row) => row.languageCode === 'de');
    const language = (await get(`${server.url}languages/de/statistics/`)).json as Record<string, number>;
    expect(language.total).toBe(german.reduce((sum, row) => sum + model.unitCount(row.id), 0));
    const inProject = model.translations().filter((row) => model.components().find((c) => c.id === row.componentId)?.projectId === project.id);
    const projectStatistics = (await get(`${server.url}projects/${project.slug}/statistics/`)).json as Record<string, number>;
    expect(projectStatistics.total).toBe(inProject.reduce((sum, row) => sum + model.unitCount(row.id), 0));
  }, 300_000);

  it('keeps the heap bounded after pages of every kind', async () => {
    const [project] = model.projects();
    const component = model.components()[0];
    if (!project || !component) throw new Error('no project');
    const cutoff = model.changes(model.changeCount() - 2000, 1)[0]?.timestamp ?? '';
    for (const path of [
      'changes/?page_size=1000&page=5000',
      `changes/?page_size=1000&timestamp_after=${encodeURIComponent(cutoff)}`,
      `components/${project.slug}/${component.slug}/statistics/?page_size=1000`,
      `translations/${project.slug}/${component.slug}/fr/file/`,
      `units/?page_size=1000&q=${encodeURIComponent(`project:${project.slug} component:${component.slug} state:>=20`)}`,
    ]) {
      const answer = await get(`${server.url}${path}`);
      expect(answer.status, path).toBe(200);
    }
    expect(heapAfterCollection()).toBeLessThan(HEAP_BOUND);
  }, 300_000);
});
