import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../api/json.ts';
import { parsePageJson } from '../../crawler/http/page-json.ts';
import { parseUnitLines, unitLine } from '../../crawler/queue/unit-lines.ts';
import { startReferenceServer } from '../../packages/reference-server/server.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { bundledModel, type ReferenceServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
/** A hash as a server sends it: mostly beyond 2^53, sometimes small, and the edges. */
const hash = fc.oneof(
  int64,
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 63n - 1n, -(2n ** 63n), 10n ** 30n),
);
/** Strings that hold what looks like a big integer, or the mark `api/json.ts` uses. */
const digitsInStrings = fc.constantFrom(
  '12345678901234567890',
  'a,12345678901234567890]',
  ':-99999999999999999}',
  '\ufdd012345678901234567',
  '0.12345678901234567',
);
/** What a server may send besides, each field present or not: big integers in other fields and nested, floats, digits in strings. */
const extra = fc.record(
  {
    a_big: int64,
    note: fc.oneof(fc.string(), digitsInStrings),
    zz_ratio: fc.double({ noNaN: true, noDefaultInfinity: true }),
    '0': fc.integer(),
    nested: fc.record({ inner: int64, '1': fc.string(), content_hash: hash }),
    labels: fc.array(int64, { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
/** A unit with its two hashes in either order, as servers differ. */
const unit = fc.tuple(hash, hash, extra, fc.nat(), fc.boolean()).map(([content_hash, id_hash, more, id, idFirst]) => ({
  ...more,
  id,
  source: ['Save <b>as</b>', '9007199254740993'],
  ...(idFirst ? { id_hash, content_hash } : { content_hash, id_hash }),
}));
/** A page as the API sends it, with a big count or not. */
const page = fc.tuple(fc.array(unit, { maxLength: 5 }), fc.oneof(fc.nat(), int64)).map(([results, count]) => ({ count, next: null, previous: null, results }));
/** JSON text as servers write it: compact, or with spaces and line breaks. */
const texts = (value: fc.Arbitrary<unknown>) =>
  fc.tuple(value, fc.constantFrom(undefined, 1, 4)).map(([json, indent]) => stringifyJson(json, indent).replace(/,"/g, indent === 1 ? ', "' : ',"'));

describe('parsePageJson (answers at JSON.parse speed, issue 14)', () => {
  it('gives what the lossless parseJson gives, for pages, lists and single units', () => {
    fc.assert(
      fc.property(texts(fc.oneof(page, fc.array(unit, { maxLength: 4 }), unit)), (text) => {
        expect(parsePageJson(text)).toEqual(parseJson(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('gives what parseJson gives for any JSON at all, big integers anywhere', () => {
    const anything = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.integer(),
        int64,
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom('content_hash', 'id_hash', 'results', 'x', '2'), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(texts(anything), (text) => {
        expect(parsePageJson(text)).toEqual(parseJson(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps both hashes exact in either order, the int64 edges included', () => {
    const text = '{"count":2,"results":[{"id_hash":9223372036854775807,"content_hash":-9223372036854775808},{"content_hash":9007199254740993,"id_hash":7}]}';
    expect(parsePageJson(text)).toEqual({
      count: 2,
      results: [
        { id_hash: 2n ** 63n - 1n, content_hash: -(2n ** 63n) },
        { content_hash: 2n ** 53n + 1n, id_hash: 7 },
      ],
    });
  });

  it('keeps a big integer in another field exact too (through parseJson)', () => {
    const text = '{"results":[{"content_hash":1152921504606846976,"id_hash":1152921504606846977,"other":1152921504606846979}]}';
    expect(parsePageJson(text)).toEqual({ results: [{ content_hash: 2n ** 60n, id_hash: 2n ** 60n + 1n, other: 2n ** 60n + 3n }] });
  });

  it('throws on a body cut short, as JSON.parse does', () => {
    expect(() => parsePageJson('{"results":[{"content_hash":1152921504606846976')).toThrow(SyntaxError);
  });
});

describe('unit spool lines', () => {
  it('are the text stringifyJson writes, and read back as parseJson reads each line', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(unit, fc.constant({ id: 1, content_hash: 5n, nested: { big: 2n ** 60n } })), { maxLength: 5 }), (units) => {
        const lines = units.map(unitLine);
        expect(lines).toEqual(units.map((one) => stringifyJson(one)));
        expect(parseUnitLines(`\n${lines.join('\n')}\n`)).toEqual(lines.map((line) => parseJson(line)));
      }),
      { numRuns: 500 },
    );
  });

  it('leave out a line torn by a kill and keep the others', () => {
    const lines = [unitLine({ id: 1, content_hash: 2n ** 60n }), unitLine({ id: 2, content_hash: 2n ** 61n })];
    const torn = lines[1]!.slice(0, 20);
    expect(parseUnitLines(`\n${lines[0]}\n${torn}\n${lines[1]}\n`)).toEqual([
      { id: 1, content_hash: 2n ** 60n },
      { id: 2, content_hash: 2n ** 61n },
    ]);
  });
});

describe('a crawl parsing with parsePageJson', () => {
  const folder = useTempFolders('tmsnap-page-json-', 'all');
  const token = 'wlu_page_json';

  it('stores the same objects as a crawl parsing losslessly: the bundled data on the real-server profile (weblate-5.4)', async () => {
    // Two servers over fresh copies of the data, one after the other on the same port (records
    // keep some absolute links), the clock pinned: each crawl's downloads commit the same edits.
    const pinned = new Date(Date.now() - 60 * 60 * 1000);
    const crawlWith = async (parse: ((text: string) => unknown) | undefined, port: number): Promise<{ port: number; id: string; dir: string }> => {
      const server: ReferenceServer = await startReferenceServer({
        model: await bundledModel(() => pinned),
        behaviours: { tokens: [token], rateLimit: raisedRateLimit },
        host: '127.0.0.1',
        port,
      });
      try {
        const dir = join(await folder(), 'content');
        const result = await crawlComplete(server, dir, { token, ...(parse ? { parseJson: parse } : {}) });
        return { port: Number(new URL(server.url).port), id: result.snapshotId, dir };
      } finally {
        await server.close();
      }
    };
    const fast = await crawlWith(undefined, 0);
    const lossless = await crawlWith(parseJson, fast.port);
    const [got, want] = await Promise.all([openSnapshot(fast.dir, fast.id), openSnapshot(lossless.dir, lossless.id)]);
    const paths = Object.keys({ ...got.index.records, ...want.index.records });
    // Every unit list is among them (each names its chunks by hash): 27,829 units.
    expect(got.manifest.counts.unit).toBeGreaterThan(20_000);
    expect(paths.filter((path) => path.endsWith('/units/')).length).toBeGreaterThan(200);
    expect(paths.filter((path) => got.index.records[path] !== want.index.records[path])).toEqual([]);
    expect(got.index.raw).toEqual(want.index.raw);
    expect(got.index.changes).toEqual(want.index.changes);
    expect(got.manifest.counts).toEqual(want.manifest.counts);
  }, 300_000);
});
