import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { change, page, statistics, translation, translationInList, unit } from '../../api/index.ts';
import { unitHash } from '../../packages/reference-server/hash.ts';
import { ActivityError, type MemoryModel } from '../../packages/reference-server/memory-model.ts';
import type { Model } from '../../packages/reference-server/model.ts';
import { activityNames } from '../../packages/reference-server/activity.ts';
import { type ReferenceServer, bundledModel, fixtureModel, startTestServer } from '../helpers/reference-server.ts';
import { get } from './get.ts';

/** A clock that ticks one second per reading, from 2025-01-01. */
function steppingClock(): () => Date {
  let tick = 0;
  return () => new Date(Date.UTC(2025, 0, 1) + tick++ * 1000);
}

async function withModel(test: (server: ReferenceServer, model: MemoryModel) => Promise<void>, activity = false): Promise<void> {
  const model = fixtureModel(steppingClock());
  const server = await startTestServer({ data: model, behaviours: { activity } });
  try {
    await test(server, model);
  } finally {
    await server.close();
  }
}

const csUrl = (server: ReferenceServer) => `${server.url}translations/hello/po/cs/`;
const counts = async (server: ReferenceServer) => translation.parse((await get(csUrl(server))).json);

describe('translate', () => {
  it('records 5 for a first translation and 2 for a change, bumping the unit and the statistics', () =>
    withModel(async (server, model) => {
      const before = await counts(server);
      const [added] = model.translate(10, ['Otevřený'], 'bob');
      expect(added).toMatchObject({ action: 5, unitId: 10, translationId: 2, componentId: 1, user: 'bob', author: 'bob', target: 'Otevřený' });
      expect(added!.timestamp).toBe('2025-01-01T00:00:00.000000Z');
      const record = change.parse((await get(`${server.url}changes/${added!.id}/`)).json);
      expect(record).toMatchObject({
        action: 5,
        action_name: 'Translation added',
        unit: `${server.url}units/10/`,
        translation: `${csUrl(server)}`,
        component: `${server.url}components/hello/po/`,
        user: `${server.url}users/bob/`,
        timestamp: '2025-01-01T00:00:00.000000Z',
      });
      const served = unit.parse((await get(`${server.url}units/10/`)).json);
      expect([served.state, served.translated, served.target]).toEqual([20, true, ['Otevřený']]);
      const after = await counts(server);
      expect([after.translated, after.translated_words, after.last_change, after.last_author]).toEqual([
        before.translated + 1,
        before.translated_words + 1,
        '2025-01-01T00:00:00.000000Z',
        'Bob',
      ]);
      const [changed] = model.translate(10, ['Otevřená'], 'alice');
      expect(changed).toMatchObject({ action: 2, target: 'Otevřená' });
      expect((await counts(server)).translated).toBe(before.translated + 1);
    }));

  it('shows new work to incremental queries: changes timestamp_after and units changed:>=', () =>
    withModel(async (server, model) => {
      model.translate(10, ['Otevřený'], 'bob');
      model.translate(16, ['مفتوح'], 'bob');
      const since = '2025-01-01T00:00:00Z';
      const recent = page(change).parse((await get(`${server.url}changes/?timestamp_after=${since}`)).json);
      // Newest first, as a real server lists changes.
      expect(recent.results.map((row) => [row.action, row.unit])).toEqual([
        [5, `${server.url}units/16/`],
        [5, `${server.url}units/10/`],
      ]);
      const changed = page(unit).parse((await get(`${server.url}units/?q=${encodeURIComponent(`changed:>=${since}`)}`)).json);
      expect(changed.results.map((row) => row.id)).toEqual([10, 16]);
    }));

  it('keeps when the unit was added (`timestamp`) and moves `last_updated`, as Weblate does (issue 35)', async () => {
    // Weblate's Unit: `timestamp` is auto_now_add, `last_updated` auto_now; a site shows the
    // first as "Added" when the server (5.4) sends no `last_updated`.
    const model = fixtureModel(steppingClock());
    const added = model.unit(10)!.timestamp;
    const server = await startTestServer({ data: model, profile: 'weblate-5.14' });
    try {
      for (const edit of [() => model.translate(10, ['Otevřený'], 'bob'), () => model.markForEdit(10, 'alice')]) {
        const [made] = edit();
        const served = unit.parse((await get(`${server.url}units/10/`)).json) as { timestamp: string; last_updated?: string };
        expect([served.timestamp, served.last_updated]).toEqual([added, made!.timestamp]);
        expect(made!.timestamp > added).toBe(true);
        // Still found by an incremental crawl's `changed:` (its newest change), not by when it was added.
        const since = (time: string) => `${server.url}units/?q=${encodeURIComponent(`changed:>=${time}`)}`;
        expect(
          page(unit)
            .parse((await get(since(made!.timestamp))).json)
            .results.map((row) => row.id),
        ).toEqual([10]);
      }
    } finally {
      await server.close();
    }
  });

  it('refuses a source unit, a read-only unit, a wrong plural count and an unknown user', () =>
    withModel(async (_server, model) => {
      expect(() => model.translate(1, ['x'], 'bob')).toThrow(ActivityError);
      expect(() => model.translate(12, ['x'], 'bob')).toThrow(/read-only/);
      expect(() => model.translate(8, ['a', 'b'], 'bob')).toThrow(/3 plural form/);
      expect(() => model.translate(10, ['x'], 'mallory')).toThrow(/user "mallory"/);
      expect(model.changeCount()).toBe(10);
    }));
});

describe('mark for edit and approve', () => {
  it('records 37 and makes the unit fuzzy', () =>
    withModel(async (server, model) => {
      const before = await counts(server);
      const [marked] = model.markForEdit(7, 'alice');
      expect(marked).toMatchObject({ action: 37, unitId: 7 });
      const served = unit.parse((await get(`${server.url}units/7/`)).json);
      expect([served.state, served.fuzzy, served.translated]).toEqual([10, true, false]);
      const after = await counts(server);
      expect([after.fuzzy, after.translated]).toEqual([before.fuzzy + 1, before.translated - 1]);
    }));

  it('records 36 where review is on and counts the unit approved', () =>
    withModel(async (server, model) => {
      const [approved] = model.approve(7, 'admin');
      expect(approved).toMatchObject({ action: 36, unitId: 7 });
      expect(unit.parse((await get(`${server.url}units/7/`)).json).approved).toBe(true);
      const stats = statistics.parse((await get(`${csUrl(server)}statistics/`)).json);
      expect(stats.approved).toBe(1);
      // The secret project has review off.
      expect(() => model.approve(25, 'admin')).toThrow(/review off/);
    }));
});

describe('languages and strings', () => {
  it('adds a language: 48, and a translation with every source string untranslated', () =>
    withModel(async (server, model) => {
      const [added] = model.addLanguage(1, 'sr@latin', 'admin');
      expect(added).toMatchObject({ action: 48, componentId: 1, unitId: null });
      const list = page(translationInList).parse((await get(`${server.url}components/hello/po/translations/`)).json);
      expect(list.results.map((row) => row.language_code)).toEqual(['en', 'cs', 'ar', 'sr@latin']);
      const sr = translation.parse((await get(`${server.url}translations/hello/po/sr%40latin/`)).json);
      expect([sr.total, sr.translated, sr.filename]).toEqual([6, 0, 'po/sr@latin.po']);
      const units = page(unit).parse((await get(sr.units_list_url)).json).results;
      expect(units.every((row) => row.state === 0)).toBe(true);
      expect(units.find((row) => row.source.length > 1)?.target).toEqual(['', '', '']);
      expect(change.parse((await get(`${server.url}changes/${added!.id}/`)).json).translation).toBe(`${sr.url}`);
      expect(() => model.addLanguage(1, 'cs', 'admin')).toThrow(/already has/);
      expect(() => model.addLanguage(1, 'xx', 'admin')).toThrow(/not known/);
    }));

  it('adds a string to every translation of the component, each with a 13 change', () =>
    withModel(async (server, model) => {
      const added = model.addString(1, { source: ['New %d file', 'New %d files'], context: 'toolbar', note: 'Shown on hover' }, 'admin');
      expect(added.map((row) => [row.action, row.translationId])).toEqual([
        [13, 1],
        [13, 2],
        [13, 3],
      ]);
      const units = await Promise.all(added.map(async (row) => unit.parse((await get(`${server.url}units/${row.unitId}/`)).json)));
      expect(units.map((row) => row.target.length)).toEqual([2, 3, 6]);
      expect(units.map((row) => row.state)).toEqual([100, 0, 0]);
      for (const row of units) {
        expect(row.id_hash).toBe(unitHash(['New %d file', 'New %d files'], 'toolbar'));
        expect(row.source_unit).toBe(units[0]!.url);
        expect(row.position).toBe(7);
      }
      expect((await counts(server)).total).toBe(7);
      expect(() => model.addString(1, { source: ['New %d file', 'New %d files'], context: 'toolbar' }, 'admin')).toThrow(/already has/);
    }));

  it('removes a string from every translation: 63 with unit null, the units gone', () =>
    withModel(async (server, model) => {
      const removed = model.removeString(3, 'admin');
      expect(removed.map((row) => [row.action, row.unitId, row.translationId, row.target])).toEqual([
        [63, null, 1, 'Open'],
        [63, null, 2, 'Open'],
        [63, null, 3, 'Open'],
      ]);
      for (const id of [3, 9, 15]) expect((await get(`${server.url}units/${id}/`)).status).toBe(404);
      expect((await counts(server)).total).toBe(5);
      const record = change.parse((await get(`${server.url}changes/${removed[1]!.id}/`)).json);
      expect([record.unit, record.translation]).toEqual([null, `${csUrl(server)}`]);
      // The earlier change about unit 9 survives but no longer points at it.
      expect(change.parse((await get(`${server.url}changes/8/`)).json).unit).toBeNull();
      expect(() => model.removeString(7, 'admin')).toThrow(/through its source unit 1/);
    }));
});

describe('remove a component', () => {
  it('records 38 with the slug, and the component, its translations and history are gone', () =>
    withModel(async (server, model) => {
      const [removed] = model.removeComponent(2, 'admin');
      expect(removed).toMatchObject({ action: 38, target: 'glossary', componentId: null, translationId: null, unitId: null });
      expect((await get(`${server.url}components/hello/glossary/`)).status).toBe(404);
      expect((await get(`${server.url}units/21/`)).status).toBe(404);
      const ids = page(change)
        .parse((await get(`${server.url}changes/`)).json)
        .results.map((row) => row.id);
      expect(ids).not.toContain(3);
      // Newest first, as a real server lists changes.
      expect(ids[0]).toBe(removed!.id);
      const record = change.parse((await get(`${server.url}changes/${removed!.id}/`)).json);
      expect([record.action_name, record.target, record.component]).toEqual(['Component removed', 'glossary', null]);
      // hello/po's 3 (the private project's 2 are hidden from an anonymous client).
      expect(page(translation).parse((await get(`${server.url}translations/`)).json).count).toBe(3);
    }));
});

describe('change ids', () => {
  it('are never reused, even after a removal deletes the history holding the newest one', () =>
    withModel(async (_server, model) => {
      const [added] = model.addLanguage(2, 'ar', 'admin');
      const [removed] = model.removeComponent(2, 'admin');
      expect(added!.componentId).toBe(2);
      expect(removed!.id).toBeGreaterThan(added!.id);
    }));
});

describe('POST /_activity/<action>', () => {
  const post = (server: ReferenceServer, action: string, body: unknown) =>
    get(`${server.origin}/_activity/${action}`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

  it('runs each action for another process and answers the new change ids', () =>
    withModel(async (server) => {
      const calls: [string, unknown, number][] = [
        ['translate', { unit: 10, target: ['Otevřený'], user: 'bob' }, 5],
        ['mark-for-edit', { unit: 10, user: 'bob' }, 37],
        ['translate', { unit: 10, target: ['Otevřená'], user: 'bob' }, 2],
        ['approve', { unit: 10, user: 'admin' }, 36],
        ['add-language', { component: 2, code: 'ar', user: 'admin' }, 48],
        ['add-string', { component: 2, source: ['mango'], user: 'admin' }, 13],
        ['remove-string', { unit: 20, user: 'admin' }, 63],
        ['remove-component', { component: 3, user: 'admin' }, 38],
      ];
      for (const [action, body, code] of calls) {
        const answer = await post(server, action, body);
        expect(answer.status, action).toBe(200);
        const { changes } = answer.json as { changes: number[] };
        expect(changes.length, action).toBeGreaterThan(0);
        for (const id of changes) expect(change.parse((await get(`${server.url}changes/${id}/`)).json).action, action).toBe(code);
      }
    }, true));

  it('refuses bad requests with 400 saying what is wrong', () =>
    withModel(async (server) => {
      const cases: [string, unknown, RegExp][] = [
        ['translate', { unit: 10, user: 'bob' }, /target/],
        ['translate', { unit: 'ten', target: ['x'], user: 'bob' }, /unit/],
        ['translate', { unit: 99999, target: ['x'], user: 'bob' }, /unit 99999 does not exist/],
        ['dance', {}, /unknown activity "dance"/],
      ];
      for (const [action, body, message] of cases) {
        const answer = await post(server, action, body);
        expect(answer.status).toBe(400);
        expect((answer.json as { detail: string }).detail).toMatch(message);
      }
      const notJson = await get(`${server.origin}/_activity/translate`, { method: 'POST', body: '{' });
      expect(notJson.status).toBe(400);
    }, true));

  it('answers the requests docs/guide.md shows, on the bundled data, whose users and actions it lists (issue 35)', async () => {
    const guide = await readFile(new URL('../../docs/guide.md', import.meta.url), 'utf8');
    const section = guide.slice(guide.indexOf("## The demo's nights"), guide.indexOf('## Your own site'));
    const model = await bundledModel(steppingClock());
    // Every user of the data, by username and the name the server shows, and no other.
    const named = [...section.matchAll(/`([a-z][\w.]*)`\s+\(([^)]+)\)/g)].map((match) => [match[1], match[2]]);
    expect(named.sort()).toEqual(
      model
        .users()
        .map((user) => [user.username, user.full_name])
        .sort(),
    );
    for (const name of activityNames) expect(section, name).toContain(`| \`${name}\` |`);
    const server = await startTestServer({ data: model, behaviours: { activity: true } });
    try {
      const curls = [...section.matchAll(/^curl -X POST http:\/\/127\.0\.0\.1:8000(\/_activity\/[\w-]+) -d '(.*)'$/gm)];
      expect(curls.length).toBeGreaterThanOrEqual(2);
      for (const [, path, body] of curls) {
        const answer = await get(`${server.origin}${path}`, { method: 'POST', body: body! });
        expect(answer.status, `${path} ${answer.text}`).toBe(200);
        expect((answer.json as { changes: number[] }).changes).toHaveLength(1);
      }
    } finally {
      await server.close();
    }
  });

  it('is absent unless switched on, and refuses a read-only model with 409', async () => {
    await withModel(async (server) => {
      expect((await post(server, 'translate', { unit: 10, target: ['x'], user: 'bob' })).status).toBe(404);
    });
    const source = fixtureModel();
    const readOnly: Model = {
      languages: () => source.languages(),
      projects: () => source.projects(),
      components: () => source.components(),
      translations: () => source.translations(),
      users: () => source.users(),
      notifications: () => source.notifications(),
      unitCount: (id) => source.unitCount(id),
      units: (id, offset, limit) => source.units(id, offset, limit),
      unit: (id) => source.unit(id),
      changeCount: () => source.changeCount(),
      changes: (offset, limit) => source.changes(offset, limit),
    };
    const server = await startTestServer({ data: readOnly, behaviours: { activity: true } });
    try {
      const answer = await post(server, 'translate', { unit: 10, target: ['x'], user: 'bob' });
      expect(answer.status).toBe(409);
      expect((answer.json as { detail: string }).detail).toMatch(/read-only/);
    } finally {
      await server.close();
    }
  });
});
