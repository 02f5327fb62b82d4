import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  apiPath,
  canonicalJson,
  decodeLink,
  embeddedRecords,
  encodeLink,
  expandRecord,
  type LinkBase,
  NormalizeError,
  normalizeRecord,
  type RecordKind,
} from '../../snapshot/index.ts';
import { parseJson } from '../../api/index.ts';
import { reversedKeys, sampleInstance } from '../helpers/records.ts';

const base = 'http://127.0.0.1:8000/weblate/';
const kinds: RecordKind[] = ['root', 'language', 'project', 'component', 'translation', 'unit', 'change', 'user', 'notifications', 'statistics', 'other'];

/** Strings a link field may hold, good and hostile: on the server with odd queries, elsewhere, relative, our own escape. */
const linkText = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('api/', 'projects/', ''),
      fc.array(fc.constantFrom('demo', '..', '%2F', 'cat%252Fcomp', 'Čeština', 'FOO', 'foo', 'x?y', 'a#b'), { maxLength: 3 }),
      fc.subarray(['format=api', 'page=2', 'format=json', 'q=a&b', ''], { minLength: 0 }),
      fc.boolean(),
    )
    .map(([root, segments, params, slash]) => `${base}${root}${segments.join('/')}${slash ? '/' : ''}${params.length > 0 ? `?${params.join('&')}` : ''}`),
  fc.constantFrom(
    'https://evil.example/api/projects/x/?format=api',
    'javascript:alert(1)',
    'tmsnap-raw:x',
    `${base}javascript:alert(1)`,
    `${base}tmsnap-raw:x`,
    base,
    '',
    '/api/x/',
    'api/x/',
  ),
  fc.string(),
);

const linkKeys = [
  'url',
  'web_url',
  'statistics_url',
  'next',
  'previous',
  'translation',
  'source_unit',
  'unit',
  'component',
  'user',
  'author',
  'notifications',
  'license_url',
];

const leaf = fc.oneof(linkText, fc.integer(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.boolean(), fc.constant(null));

/** A loose API-like object: link-named and other fields, nested objects and lists of them. */
const looseObject: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  object: fc.dictionary(
    fc.oneof(fc.constantFrom(...linkKeys, '__proto__', 'constructor', '10', '2'), fc.string({ maxLength: 6 })),
    fc.oneof({ maxDepth: 2, depthIdentifier: 'loose' }, leaf, tie('object'), fc.array(tie('object'), { maxLength: 2, depthIdentifier: 'loose' })),
    { maxKeys: 6, depthIdentifier: 'loose' },
  ),
})).object as fc.Arbitrary<Record<string, unknown>>;

/** An embedded object: usually with a url on the server, sometimes hostile. */
const embedded = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(looseObject, linkText).map(([object, url]) => ({ ...object, url })) },
  { weight: 1, arbitrary: fc.oneof(linkText, fc.constant(null), looseObject) },
);

function recordFor(kind: RecordKind): fc.Arbitrary<unknown> {
  const withEmbedded = (fields: string[]) =>
    fc
      .tuple(looseObject, ...fields.map(() => embedded))
      .map(([object, ...values]) => Object.fromEntries([...Object.entries(object), ...fields.map((field, i) => [field, values[i]])]));
  if (kind === 'component') return withEmbedded(['project', 'source_language']);
  if (kind === 'translation')
    return withEmbedded(['language', 'component']).chain((translation) =>
      embedded.map((component) => ({
        ...translation,
        component: typeof component === 'object' && component !== null ? { ...component, project: translation.component } : component,
      })),
    );
  if (kind === 'notifications') return fc.array(withEmbedded(['project', 'component']), { maxLength: 3 });
  return fc.oneof(looseObject, fc.array(looseObject, { maxLength: 2 }));
}

/** Stored embedded records by path, or undefined when two copies of one path differ (the writer keeps one). */
function lookupOf(kind: RecordKind, record: unknown, linkBase: LinkBase) {
  const stored = new Map<string, string>();
  for (const item of embeddedRecords(kind, record)) {
    if (!item.url.startsWith(base)) continue;
    const text = canonicalJson(normalizeRecord(item.kind, item.record, linkBase));
    const path = apiPath(item.url, base);
    if (stored.has(path) && stored.get(path) !== text) return undefined;
    stored.set(path, text);
  }
  return (path: string) => {
    const text = stored.get(path);
    return text === undefined ? undefined : parseJson(text);
  };
}

describe('normalizeRecord / expandRecord', () => {
  it('encodeLink and decodeLink are inverses for any string', () => {
    fc.assert(
      fc.property(linkText, fc.boolean(), (link, formatApi) => {
        expect(decodeLink(encodeLink(link, { baseUrl: base, formatApi }), { baseUrl: base, formatApi })).toBe(link);
      }),
      { numRuns: 2000 },
    );
  });

  for (const kind of kinds) {
    it(`round-trips any ${kind} record, or refuses it with a NormalizeError`, () => {
      fc.assert(
        fc.property(recordFor(kind), fc.boolean(), (record, formatApi) => {
          const linkBase = { baseUrl: base, formatApi };
          let stored: unknown;
          try {
            stored = normalizeRecord(kind, record, linkBase);
          } catch (error) {
            expect(error).toBeInstanceOf(NormalizeError);
            return;
          }
          const lookup = lookupOf(kind, record, linkBase);
          fc.pre(lookup !== undefined);
          expect(canonicalJson(expandRecord(kind, stored, lookup!, linkBase))).toBe(canonicalJson(record));
        }),
        { numRuns: 300 },
      );
    });
  }

  it('stores on-server links relative, without format=api, and leaves other fields alone', () => {
    const sample = sampleInstance(base, '?format=api');
    const stored = normalizeRecord('component', sample.component, { baseUrl: base, formatApi: true }) as Record<string, unknown>;
    expect(stored).toMatchObject({
      url: 'api/components/demo/core/',
      statistics_url: 'api/components/demo/core/statistics/',
      web_url: 'projects/demo/core/',
      license_url: 'https://spdx.org/licenses/MIT.html',
      repo: 'https://git.example.org/demo.git',
      project: 'api/projects/demo/',
      source_language: 'api/languages/en/',
      task_url: null,
    });
    expect(canonicalJson(stored)).not.toContain('format=api');
  });

  it('gives the same bytes whatever the key order', () => {
    fc.assert(
      fc.property(recordFor('component'), (record) => {
        const linkBase = { baseUrl: base, formatApi: true };
        let stored: unknown;
        try {
          stored = normalizeRecord('component', record, linkBase);
        } catch {
          return;
        }
        expect(canonicalJson(normalizeRecord('component', reversedKeys(record), linkBase))).toBe(canonicalJson(stored));
      }),
    );
  });

  it('refuses an embedded object that lives off the server, naming the field', () => {
    const sample = sampleInstance(base);
    const hostile = { ...sample.component, project: { ...sample.project, url: 'https://evil.example/api/projects/demo/' } };
    expect(() => normalizeRecord('component', hostile, { baseUrl: base, formatApi: false })).toThrow(/project\.url: the embedded object lives off the server/);
  });
});
