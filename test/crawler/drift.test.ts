/**
 * Issue 38: a crawl that survives a new Weblate release (docs/weblate-api.md, "Drift"). Real
 * records recorded from Weblate 5.14.3 (test/fixtures) are changed as the next release might
 * change them: each field kept only as data removed or retyped in turn must leave the record
 * normalized and be reported as drift; each field some stage reads, removed, must stay the
 * problem it was. Then whole crawls of the recording, replayed on 127.0.0.1 with 2026.10.1's
 * removals applied, must finish with exit 0 and report the drift in one summary line and in the
 * manifest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyResource, driftOf } from '../../api/fields.ts';
import * as api from '../../api/index.ts';
import { parseJson, stringifyJson } from '../../api/json.ts';
import { summaryLines } from '../../crawler/progress.ts';
import { driftLine, openSnapshot, SnapshotWriter } from '../../snapshot/index.ts';
import { driftKeysOf } from '../../snapshot/drift.ts';
import { type Recording, crawlReplay, loadRecordings, startReplay } from '../helpers/replay.ts';
import { useTempFolders } from '../helpers/temp.ts';

const recording = loadRecordings().find((r) => r.weblate === '5.14.3' && r.scenario === 'admin-crawl');
const folder = useTempFolders('tmsnap-drift-', 'all');

/** Which resource an object of the recording is, by its `url`. */
const resourceByUrl: [RegExp, AnyResource][] = [
  [/\/api\/$/, api.apiRootFields],
  [/\/api\/projects\/[^/]+\/$/, api.projectFields],
  [/\/api\/components\/[^/]+\/[^/]+\/$/, api.componentFields],
  [/\/api\/translations\/[^/]+\/[^/]+\/[^/]+\/$/, api.translationFields],
  [/\/api\/languages\/[^/]+\/$/, api.languageFields],
  [/\/api\/units\/\d+\/$/, api.unitFields],
  [/\/api\/changes\/\d+\/$/, api.changeFields],
  [/\/api\/users\/[^/]+\/$/, api.userFields],
];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Applies `change` to every object (at any depth) of every JSON answer, by the resource its `url` names. */
function rewritten(recorded: Recording, change: (resource: string, object: Record<string, unknown>) => void): Recording {
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) walk(item);
    if (!isObject(value)) return;
    for (const item of Object.values(value)) walk(item);
    const url = typeof value.url === 'string' ? value.url : undefined;
    const resource = url === undefined ? undefined : resourceByUrl.find(([pattern]) => pattern.test(url.split('?')[0]!))?.[1];
    if (resource !== undefined) change(resource.name, value);
  };
  return {
    ...recorded,
    exchanges: recorded.exchanges.map((exchange) => {
      if (exchange.status !== 200 || !/json/.test(exchange.headers['content-type'] ?? '')) return exchange;
      const body = parseJson(exchange.body);
      walk(body);
      return { ...exchange, body: stringifyJson(body) };
    }),
  };
}

/** One real record of each resource from the recording, with the URL it lives at. */
function samples(recorded: Recording): Map<string, { url: string; record: Record<string, unknown> }> {
  const found = new Map<string, { url: string; record: Record<string, unknown> }>();
  rewritten(recorded, (resource, object) => {
    // The first whole one: a top-level list's or a detail record (nested lists leave the parent out).
    if (found.has(resource)) return;
    if ((resource === 'component' && !isObject(object.project)) || (resource === 'translation' && !isObject(object.component))) return;
    found.set(resource, { url: object.url as string, record: structuredClone(object) });
  });
  const root = recorded.exchanges.find((exchange) => exchange.path === '/api/' && exchange.status === 200);
  if (root !== undefined) found.set('root', { url: `${recorded.origin}/api/`, record: parseJson(root.body) as Record<string, unknown> });
  return found;
}

/** A value no measured type of a kept field accepts (each is a string, number, boolean, array or null). */
const anotherType = { drifted: 'to an object' };

it('has the 5.14.3 recording it changes', () => {
  expect(recording?.exchanges.length).toBeGreaterThan(100);
});

describe('each field of each resource, removed or retyped in turn (real 5.14.3 records)', () => {
  const resources = [
    api.apiRootFields,
    api.projectFields,
    api.componentFields,
    api.translationFields,
    api.languageFields,
    api.unitFields,
    api.changeFields,
    api.userFields,
  ];
  let writer: SnapshotWriter;
  let records: ReturnType<typeof samples>;

  beforeAll(async () => {
    records = samples(recording!);
    writer = await SnapshotWriter.open(await folder(), { baseUrl: `${recording!.origin}/`, scope: {}, tmsnapVersion: '0.0.0-test', resume: false });
  });

  it('finds a real record of every resource, which fits as it came and shows no drift', () => {
    for (const resource of resources) {
      const sample = records.get(resource.name);
      expect(sample, resource.name).toBeDefined();
      expect(writer.check(sample!.url, sample!.record), resource.name).toBeUndefined();
      expect(driftOf(resource, sample!.record), resource.name).toEqual([]);
    }
  });

  it.each(resources.map((resource) => [resource.name, resource] as const))('%s: a kept field missing or retyped is drift, not a problem', (name, resource) => {
    const { url, record } = records.get(name)!;
    const kept = Object.entries(resource.kept);
    expect(kept.length).toBeGreaterThan(0);
    for (const [field, schema] of kept) {
      // Users' fields for keyed clients only may be absent from a real record; every other one is there to remove.
      if (!(schema instanceof z.ZodOptional)) expect(Object.hasOwn(record, field), `${name}.${field} in the real record`).toBe(true);
      const without = { ...record };
      delete without[field];
      expect(writer.check(url, without), `${name} without ${field}`).toBeUndefined();
      expect(driftOf(resource, without), `${name} without ${field}`).toEqual(
        schema instanceof z.ZodOptional ? [] : [{ resource: name, field, change: 'missing' }],
      );
      const retyped = { ...record, [field]: anotherType };
      expect(writer.check(url, retyped), `${name} with ${field} retyped`).toBeUndefined();
      const accepted = (schema as z.ZodType).safeParse(anotherType).success;
      expect(driftOf(resource, retyped), `${name} with ${field} retyped`).toEqual(accepted ? [] : [{ resource: name, field, change: 'retyped' }]);
    }
    expect(driftOf(resource, { ...record, brand_new_field: 1 })).toEqual([{ resource: name, field: 'brand_new_field', change: 'new' }]);
  });

  it('a user as anonymous clients get it (no url, no e-mail) is not drift', () => {
    const { id, full_name, username } = records.get('user')!.record;
    expect(driftOf(api.userFields, { id, full_name, username })).toEqual([]);
    expect(driftOf(api.userFields, { id: String(id), full_name, username })).toEqual([{ resource: 'user', field: 'id', change: 'retyped' }]);
  });

  it.each(resources.map((resource) => [resource.name, resource] as const))('%s: a needed field missing is the named problem', (name, resource) => {
    const { url, record } = records.get(name)!;
    // A translation of a component's `translations/` list names its component by the list's URL: it may lack one.
    const required = Object.entries(resource.needed).filter(
      ([field, schema]) => !(schema as z.ZodType).safeParse(undefined).success && !(name === 'translation' && field === 'component'),
    );
    expect(required.length).toBeGreaterThan(0);
    for (const [field] of required) {
      const without = { ...record };
      delete without[field];
      const invalid = writer.check(url, without);
      expect(invalid?.field, `${name} without ${field}`).toBe(field);
      expect(invalid?.reason).toMatch(new RegExp(`^not a valid ${name === 'root' ? 'root' : name}:`));
    }
  });
});

describe("2026's announcements/ and suggestions/ lists, item by item (2026.10.1's serializers, read from its source)", () => {
  const origin = 'http://127.0.0.1:9';
  const lists = [
    {
      resource: api.announcementFields,
      url: `${origin}/api/projects/hello/announcements/`,
      item: { id: 1, message: 'String freeze', severity: 'warning', expiry: '2026-12-15', notify: false },
    },
    {
      resource: api.suggestionFields,
      url: `${origin}/api/suggestions/`,
      item: { id: 7, unit: `${origin}/api/units/7/`, target: ['Ahoj'], user: `${origin}/api/users/alice/`, timestamp: '2026-11-28T10:00:00.000000Z', votes: 1 },
    },
  ];
  const page = (items: unknown[]) => ({ count: items.length, next: null, previous: null, results: items });
  let writer: SnapshotWriter;

  beforeAll(async () => {
    writer = await SnapshotWriter.open(await folder(), { baseUrl: `${origin}/`, scope: {}, tmsnapVersion: '0.0.0-test', resume: false });
  });

  it.each(lists.map((list) => [list.resource.name, list] as const))(
    '%s: a kept field missing or retyped is drift, a needed one missing the named problem',
    (name, list) => {
      expect(writer.check(list.url, page([list.item]))).toBeUndefined();
      expect(writer.check(list.url, [list.item])).toBeUndefined();
      expect(driftOf(list.resource, list.item)).toEqual([]);
      for (const field of Object.keys(list.resource.kept)) {
        const without: Record<string, unknown> = { ...list.item };
        delete without[field];
        expect(writer.check(list.url, page([list.item, without])), `${name} without ${field}`).toBeUndefined();
        expect(driftOf(list.resource, without)).toEqual([{ resource: name, field, change: 'missing' }]);
        expect(driftOf(list.resource, { ...list.item, [field]: anotherType })).toEqual([{ resource: name, field, change: 'retyped' }]);
      }
      for (const field of Object.keys(list.resource.needed)) {
        const without: Record<string, unknown> = { ...list.item };
        delete without[field];
        const invalid = writer.check(list.url, page([list.item, without]));
        expect(invalid?.field, `${name} without ${field}`).toBe(`results.1.${field}`);
        expect(invalid?.reason).toMatch(new RegExp(`^not a valid ${name}s:`));
      }
    },
  );

  it('stores them as they came and counts each drifted item in the manifest', async () => {
    const { id: _id, ...withoutId } = lists[0]!.item;
    await writer.putRecord(lists[0]!.url, page([lists[0]!.item, withoutId, { ...lists[0]!.item, id: 2, pinned: true }]));
    await writer.putRecord(lists[1]!.url, page([{ ...lists[1]!.item, votes: 3 }]));
    const { id } = await writer.finish({ requests: { made: 2, minimum: 2 }, problems: [], complete: true });
    const snapshot = await openSnapshot(writer.contentDir, id);
    expect(snapshot.manifest.problems).toEqual([]);
    expect(snapshot.manifest.counts).toMatchObject({ announcements: 1, suggestions: 1 });
    expect(snapshot.manifest.drift).toEqual([
      { resource: 'announcement', field: 'id', change: 'missing', records: 1 },
      { resource: 'announcement', field: 'pinned', change: 'new', records: 1 },
    ]);
    expect(await snapshot.record('api/suggestions/')).toEqual(page([{ ...lists[1]!.item, votes: 3 }]));
  });
});

describe('counting and saying drift', () => {
  it('counts what driftOf finds, for every record of every recording, however its fields are changed', () => {
    const retype = (resource: string, object: Record<string, unknown>) => {
      // Every third object: a kept field in another type, one removed, one added.
      if (Number(String(object.id ?? 0).length + Object.keys(object).length) % 3 !== 0) return;
      const kept = Object.keys(resourceByUrl.find(([, r]) => r.name === resource)![1].kept);
      if (kept[0] !== undefined) object[kept[0]] = kept[0].length % 2 === 0 ? 7 : 'seven';
      if (kept[1] !== undefined) delete object[kept[1]];
      object.added_by_the_test = null;
    };
    let compared = 0;
    for (const recorded of loadRecordings().filter((r) => r.scenario.endsWith('-crawl'))) {
      rewritten(rewritten(recorded, retype), (name, object) => {
        const resource = resourceByUrl.find(([, r]) => r.name === name)![1];
        const keys = driftOf(resource, object).map(({ field, change }) => `${name}\t${field}\t${change}`);
        expect(driftKeysOf(resource, object).sort(), object.url as string).toEqual(keys.sort());
        compared += 1;
      });
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('says it in one line: fields changed alike grouped, shared prefixes once, long groups counted', () => {
    const fields = ['inherit_a', 'inherit_b', 'inherit_c', 'workspace', 'announcements_url', 'metrics_url', 'reports_url', 'access_control', 'autoclean_tm'];
    expect(
      driftLine([
        { resource: 'project', field: 'set_language_team', change: 'missing', records: 3 },
        ...fields.map((field) => ({ resource: 'project', field, change: 'new' as const, records: 3 })),
        { resource: 'unit', field: 'automatically_translated', change: 'new', records: 1204 },
      ]),
    ).toBe(
      'drift: project: set_language_team missing in 3, 9 fields new in 3 (inherit_* (3), workspace, announcements_url, metrics_url, reports_url, access_control and 1 more); ' +
        'unit: automatically_translated new in 1,204',
    );
    expect(driftLine([])).toBeUndefined();
  });
});

/** What Weblate 2026.10.1 changed (docs/weblate-api.md, "Drift"; /work/shared facts), applied to the 5.14.3 answers. */
function as2026(resource: string, object: Record<string, unknown>): void {
  if (resource === 'project') {
    delete object.set_language_team;
    delete object.credits_url;
  }
  if (resource === 'component') delete object.credits_url;
  if (resource === 'user') delete object.languages;
  if (resource === 'unit') object.automatically_translated = false;
  // A kept field of a new type: the change log's localized name as an object.
  if (resource === 'change' && typeof object.action_name === 'string') object.action_name = { en: object.action_name };
}

describe('a crawl of the 5.14.3 answers changed as 2026.10.1 changed them, replayed', () => {
  let replay: Awaited<ReturnType<typeof startReplay>>;
  let result: Awaited<ReturnType<typeof crawlReplay>>;
  let content: string;

  beforeAll(async () => {
    replay = await startReplay(rewritten(recording!, as2026));
    content = await folder();
    result = await crawlReplay(replay, content);
  });

  afterAll(async () => {
    await replay?.close();
  });

  it('is complete, with no problems and no record kept raw', () => {
    expect(result.message).toBeUndefined();
    expect(result.problems).toEqual([]);
    expect(result.outcome).toBe('complete');
    expect(result.counts.raw).toBeUndefined();
    expect(replay.unrecorded).toEqual([]);
  });

  it('reports each drifted field once per record that holds it, in the manifest and in one summary line', async () => {
    const snapshot = await openSnapshot(content);
    const counts = snapshot.manifest.counts;
    expect(counts.project).toBeGreaterThan(1);
    const expected = [
      { resource: 'project', field: 'credits_url', change: 'missing', records: counts.project },
      { resource: 'project', field: 'set_language_team', change: 'missing', records: counts.project },
      { resource: 'component', field: 'credits_url', change: 'missing', records: counts.component },
      { resource: 'unit', field: 'automatically_translated', change: 'new', records: counts.unit },
      { resource: 'change', field: 'action_name', change: 'retyped', records: counts.change },
      { resource: 'user', field: 'languages', change: 'missing', records: counts.user },
    ];
    expect(snapshot.manifest.drift).toEqual(expected);
    expect(result.drift).toEqual(expected);
    const lines = summaryLines(result, 1000).filter((line) => line.startsWith('drift:'));
    expect(lines).toEqual([
      `drift: project: 2 fields missing in ${counts.project} (credits_url, set_language_team); component: credits_url missing in ${counts.component}; ` +
        `unit: automatically_translated new in ${counts.unit!.toLocaleString('en-US')}; change: action_name retyped in ${counts.change!.toLocaleString('en-US')}; ` +
        `user: languages missing in ${counts.user}`,
    ]);
  });

  it('keeps each record as the server sent it, readable by the site', async () => {
    const snapshot = await openSnapshot(content);
    const projects = await snapshot.projects();
    expect(projects.length).toBe(snapshot.manifest.counts.project);
    for (const { record } of projects) {
      expect(record).not.toHaveProperty('set_language_team');
      expect(typeof record.slug).toBe('string');
    }
    const translations = await snapshot.translations();
    const units = await snapshot.units(translations[0]!.path);
    expect(units.length).toBeGreaterThan(0);
    expect(units.every((unit) => (unit as Record<string, unknown>).automatically_translated === false)).toBe(true);
  });
});
