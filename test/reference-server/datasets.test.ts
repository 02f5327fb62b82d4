import { describe, expect, it } from 'vitest';
import { change, component, page, project, statistics, translation, unit } from '../../api/index.ts';
import { DatasetError, loadDataset } from '../../packages/reference-server/datasets.ts';
import { unitHash } from '../../packages/reference-server/hash.ts';
import { startTestServer, useReferenceServer } from '../helpers/reference-server.ts';
import { get } from './get.ts';

async function all<T>(url: string, parse: (json: unknown) => { next: string | null; results: T[] }): Promise<T[]> {
  const rows: T[] = [];
  for (let next: string | null = url; next;) {
    const list = parse((await get(next)).json);
    rows.push(...list.results);
    next = list.next;
  }
  return rows;
}

describe('the bundled dataset, served', () => {
  const server = useReferenceServer({ data: 'bundled' });

  it('serves units whose hashes are exact and recomputable, every state present', async () => {
    const units = page(unit).parse((await get(`${server().url}units/?page_size=10000`)).json).results;
    expect(units).toHaveLength(10_000);
    for (const row of units) expect(row.id_hash, row.url).toBe(unitHash(row.source, row.context));
    expect(units.some((row) => row.id_hash > 2n ** 53n || row.id_hash < -(2n ** 53n))).toBe(true);
    const states = new Set(
      page(unit)
        .parse((await get(`${server().url}units/?page_size=10000&page=2`)).json)
        .results.map((row) => row.state),
    );
    for (const row of units) states.add(row.state);
    expect([...states].sort((a, b) => a - b)).toEqual(expect.arrayContaining([0, 10, 20, 100]));
  });

  it('keeps every statistic consistent: translations sum to their project', async () => {
    const projects = await all(`${server().url}projects/`, (json) => page(project).parse(json));
    expect(projects.length).toBeGreaterThanOrEqual(3);
    for (const row of projects) {
      const total = statistics.parse((await get(row.statistics_url)).json).total;
      // Items of a project's components/ leave out the project (docs/weblate-api.md, Nesting).
      const components = await all(row.components_list_url, (json) => page(component.omit({ project: true })).parse(json));
      let sum = 0;
      for (const entry of components) {
        const translations = await all(entry.statistics_url, (json) => page(statistics).parse(json));
        sum += translations.reduce((subtotal, stats) => subtotal + stats.total, 0);
      }
      expect(sum, row.slug).toBe(total);
    }
  });

  it('serves its change history through the changes schema', async () => {
    const changes = page(change).parse((await get(`${server().url}changes/?page_size=1000`)).json);
    expect(changes.count).toBeGreaterThan(0);
    expect(new Set(changes.results.map((row) => row.action)).size).toBeGreaterThan(1);
  });
});

describe('a synthetic dataset, served', () => {
  it('walks every translation and unit through the schemas, totals matching the units', async () => {
    const server = await startTestServer({ data: await loadDataset('synthetic:projects=2,components=2,languages=3,units=400,seed=9') });
    try {
      const translations = await all(`${server.url}translations/`, (json) => page(translation).parse(json));
      expect(translations).toHaveLength(2 * 2 * 4);
      let units = 0;
      for (const entry of translations) {
        const list = new URL(entry.units_list_url);
        list.searchParams.set('page_size', '1000');
        const rows = await all(list.href, (json) => page(unit).parse(json));
        expect(rows.length, entry.url).toBe(entry.total);
        expect(rows.filter((row) => row.state >= 20).length, entry.url).toBe(entry.translated);
        units += rows.length;
      }
      expect(units).toBe(400);
    } finally {
      await server.close();
    }
  });

  it('refuses an unknown dataset with the accepted forms', async () => {
    await expect(loadDataset('tiny')).rejects.toThrow(DatasetError);
    await expect(loadDataset('tiny')).rejects.toThrow(/use bundled, or synthetic:projects=P/);
  });
});
