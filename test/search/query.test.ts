import { describe, expect, test } from 'vitest';
import { searchFormat, type SearchManifest } from '../../search/format.ts';
import { resolveFilters } from '../../search/filters.ts';
import { planBuckets, selectShards } from '../../search/plan.ts';
import { searchShards, type SearchRequest } from '../../search/query.ts';
import { buildSourceShard, buildTargetShard, flagsOf, openSourceShard, openTargetShard, SourceTable, unitHref, type SearchUnit } from '../../search/shards.ts';

/** Two components, three languages; sources repeat across languages as on a real server. */
const sourcesByUnit = [['Save as…'], ['Please save as a new template file'], ['as save'], ['Open file'], ['%d file', '%d files'], ['Café menu']];
const targets: Record<string, string[][]> = {
  pl: [['Zapisz jako…'], ['Zapisz jako nowy szablon'], ['jako zapisz'], ['Otwórz plik'], ['%d plik', '%d pliki', '%d plików'], ['Menu kawiarni']],
  ru: [['Сохранить как…'], ['Сохранить как новый шаблон'], [''], ['Открыть файл'], ['%d файл', '%d файла', '%d файлов'], ['Меню кафе']],
  ja: [['名前を付けて保存…'], ['新しいテンプレートとして保存'], [''], ['ファイルを開く'], ['%d 個のファイル'], ['カフェのメニュー']],
};
const languages = ['ja', 'pl', 'ru'];

function open() {
  const sources = new SourceTable();
  const shards = languages.map((code, language) => {
    const units: SearchUnit[] = sourcesByUnit.map((source, index) => ({
      component: index < 3 ? 0 : 1,
      source,
      target: targets[code]![index]!,
      state: targets[code]![index]![0] === '' ? 0 : index === 1 ? 10 : 20,
      // A failing check on "Open file" in Polish, a suggestion for "Café menu" in every language.
      has: { check: code === 'pl' && index === 3, suggestion: index === 5 },
      href: `projects/app/${index < 3 ? 'ui' : 'core'}/${code}/units/1/index.html#unit-${index}`,
    }));
    return openTargetShard(buildTargetShard(0, language, units, sources));
  });
  const source = openSourceShard(buildSourceShard(0, sources));
  return { sourceShards: new Map([[0, source]]), shards, sourceTable: sources };
}

function texts(request: SearchRequest, only?: string) {
  const { sourceShards, shards } = open();
  const wanted = only === undefined ? shards : shards.filter((shard) => languages[shard.data.language] === only);
  return searchShards(request, sourceShards, wanted).map((hit) => `${languages[hit.shard.data.language]}:${hit.shard.data.units.target[hit.unit]![0]}`);
}

describe('searchShards', () => {
  test('indexes each distinct source once, whatever the number of languages', () => {
    const { sourceTable, shards } = open();
    expect(sourceTable.texts).toHaveLength(sourcesByUnit.length);
    expect(shards[1]!.data.units.source).toEqual([0, 1, 2, 3, 4, 5]);
  });

  test('a source match reaches the unit in every language, untranslated ones included', () => {
    expect(texts({ text: 'as save', scope: 'both' }).slice(0, 3)).toEqual(['ja:', 'pl:jako zapisz', 'ru:']);
  });

  test('ranks the whole text first, then the exact phrase, then loose terms', () => {
    expect(texts({ text: 'save as', scope: 'source' }, 'pl')).toEqual(['pl:Zapisz jako…', 'pl:Zapisz jako nowy szablon', 'pl:jako zapisz']);
  });

  test('diacritics are folded both ways: cafe finds Café, Otworz finds Otwórz', () => {
    expect(texts({ text: 'cafe', scope: 'source' }, 'pl')).toEqual(['pl:Menu kawiarni']);
    expect(texts({ text: 'otworz', scope: 'target' })).toEqual(['pl:Otwórz plik']);
  });

  test('prefix and fuzzy matching', () => {
    expect(texts({ text: 'templ', scope: 'source' }, 'ru')).toEqual(['ru:Сохранить как новый шаблон']);
    expect(texts({ text: 'tempalte', scope: 'source' }, 'ru')).toEqual(['ru:Сохранить как новый шаблон']);
    expect(texts({ text: 'сохранит', scope: 'target' })).toEqual(['ru:Сохранить как…', 'ru:Сохранить как новый шаблон']);
  });

  test('finds Japanese by any substring of two characters or more, and by one character', () => {
    expect(texts({ text: '保存', scope: 'target' })).toEqual(['ja:名前を付けて保存…', 'ja:新しいテンプレートとして保存']);
    expect(texts({ text: 'ファイル', scope: 'target' }).sort()).toEqual(['ja:%d 個のファイル', 'ja:ファイルを開く']);
    expect(texts({ text: '開', scope: 'target' })).toEqual(['ja:ファイルを開く']);
  });

  test('searches every plural form', () => {
    expect(texts({ text: 'plików', scope: 'target' })).toEqual(['pl:%d plik']);
    expect(texts({ text: 'файлов', scope: 'target' })).toEqual(['ru:%d файл']);
  });

  test('a target-only search ignores sources, a source-only one ignores targets', () => {
    expect(texts({ text: 'zapisz', scope: 'source' })).toEqual([]);
    expect(texts({ text: 'open', scope: 'target' })).toEqual([]);
  });

  test('filters narrow by component and state', () => {
    const { sourceShards, shards } = open();
    const file = searchShards({ text: 'file', scope: 'source' }, sourceShards, shards);
    expect(file).toHaveLength(9);
    expect(searchShards({ text: 'file', scope: 'source', components: new Set([0]) }, sourceShards, shards).map((hit) => hit.unit)).toEqual([1, 1, 1]);
    expect(searchShards({ text: 'file', scope: 'source', components: new Set([1]) }, sourceShards, shards)).toHaveLength(6);
    expect(searchShards({ text: 'save', scope: 'source', states: new Set([10]) }, sourceShards, shards).map((hit) => hit.unit)).toEqual([1, 1, 1]);
  });

  test('an empty or punctuation-only query finds nothing', () => {
    expect(texts({ text: '', scope: 'both' })).toEqual([]);
    expect(texts({ text: '…!?', scope: 'both' })).toEqual([]);
  });

  test('a unit link is its page plus its anchor, pages stored once', () => {
    const { shards } = open();
    expect(shards[1]!.data.pages).toEqual(['projects/app/ui/pl/units/1/index.html', 'projects/app/core/pl/units/1/index.html']);
    expect(unitHref(shards[1]!.data, 4)).toBe('projects/app/core/pl/units/1/index.html#unit-4');
  });
});

describe('strings by state, check or component: a listing without text', () => {
  const listed = (request: Omit<SearchRequest, 'text' | 'scope'>) => texts({ text: '', scope: 'both', list: true, ...request });

  test('without text and without `list`, nothing is found', () => {
    expect(texts({ text: '', scope: 'both', states: new Set([20]) })).toEqual([]);
  });

  test('lists every unit in a state, in table order, languages in shard order', () => {
    expect(listed({ states: new Set([10]) })).toEqual(['ja:新しいテンプレートとして保存', 'pl:Zapisz jako nowy szablon', 'ru:Сохранить как новый шаблон']);
    expect(listed({ states: new Set([0]) })).toEqual(['ja:', 'ru:']);
  });

  test('lists units with a failing check, or a suggestion, narrowed by component and state', () => {
    expect(listed({ has: new Set(['check']) })).toEqual(['pl:Otwórz plik']);
    expect(listed({ has: new Set(['suggestion']) })).toEqual(['ja:カフェのメニュー', 'pl:Menu kawiarni', 'ru:Меню кафе']);
    expect(listed({ has: new Set(['suggestion', 'check']) })).toEqual([]);
    expect(listed({ components: new Set([1]), states: new Set([20]) })).toHaveLength(9);
    // Punctuation alone is no text: a listing.
    expect(texts({ text: '…', scope: 'both', list: true, has: new Set(['check']) })).toEqual(['pl:Otwórz plik']);
  });

  test('an open shard tells the flags of each unit', () => {
    const polish = open().shards[1]!;
    expect(sourcesByUnit.map((_, unit) => flagsOf(polish, unit))).toEqual([[], [], [], ['check'], [], ['suggestion']]);
  });

  test('a text narrows by the same filters', () => {
    expect(texts({ text: 'menu', scope: 'both', has: new Set(['suggestion']) }, 'pl')).toEqual(['pl:Menu kawiarni']);
    expect(texts({ text: 'file', scope: 'both', has: new Set(['check']) })).toEqual(['pl:Otwórz plik']);
  });
});

describe('planBuckets', () => {
  test('packs components in order up to the limit, a large one alone', () => {
    const sizes = [5, 4, 30, 2, 2, 7].map((units, component) => ({ component, units }));
    expect(planBuckets(sizes, 10)).toEqual([[0, 1], [2], [3, 4], [5]]);
  });

  test('refuses a limit that is not a positive integer', () => {
    expect(() => planBuckets([], 0)).toThrow('Expected the units per shard to be an integer from 1 and up, got 0');
  });
});

const manifest: SearchManifest = {
  format: searchFormat,
  snapshot: { id: '2026-11-22T041500Z', finished: '2026-11-22T04:20:00Z' },
  projects: [
    { slug: 'app', name: 'App' },
    { slug: 'web', name: 'Web' },
  ],
  components: [
    { project: 0, slug: 'ui', name: 'UI' },
    { project: 0, slug: 'core', name: 'Core' },
    { project: 1, slug: 'ui', name: 'Web UI' },
  ],
  languages: [
    { code: 'de', name: 'German', direction: 'ltr' },
    { code: 'pl', name: 'Polish', direction: 'ltr' },
  ],
  states: [
    [0, 'empty'],
    [10, 'needs editing'],
    [20, 'translated'],
  ],
  buckets: [
    { components: [0, 1], sources: { file: 'shards/s-0.js', bytes: 1 } },
    { components: [2], sources: { file: 'shards/s-1.js', bytes: 1 } },
  ],
  targets: [
    { file: 'shards/t-0-0.js', bytes: 1, bucket: 0, language: 0, units: 1, translated: 1, states: [20], has: [] },
    { file: 'shards/t-0-1.js', bytes: 1, bucket: 0, language: 1, units: 1, translated: 1, states: [0, 10], has: ['check'] },
    { file: 'shards/t-1-1.js', bytes: 1, bucket: 1, language: 1, units: 1, translated: 1, states: [20], has: ['suggestion'] },
  ],
};

describe('resolveFilters and selectShards', () => {
  test('a project selects its components, and only the buckets holding them are read', () => {
    const filters = resolveFilters(manifest, { projects: ['web'], languages: ['PL'] });
    expect(filters.components).toEqual(new Set([2]));
    expect(selectShards(manifest, filters)).toEqual({ buckets: [1], targets: [manifest.targets[2]] });
  });

  test('a bare component slug is ambiguous across projects until a project is chosen', () => {
    expect(resolveFilters(manifest, { components: ['ui'] }).components).toEqual(new Set([0, 2]));
    expect(resolveFilters(manifest, { projects: ['app'], components: ['ui'] }).components).toEqual(new Set([0]));
    expect(resolveFilters(manifest, { components: ['web/ui'] }).components).toEqual(new Set([2]));
  });

  test('states by number or by name with dashes', () => {
    expect(resolveFilters(manifest, { states: ['needs-editing', '20'] }).states).toEqual(new Set([10, 20]));
  });

  test('says which value matched nothing and what exists', () => {
    expect(resolveFilters(manifest, { languages: ['xx'], states: ['bogus'], has: ['comment'] }).problems).toEqual([
      'no language "xx" in this snapshot (known: de, pl)',
      'no state "bogus" in this snapshot (known: empty, untranslated, needs-editing, needs-rewriting, needs-checking, translated, approved, read-only)',
      'no flag "comment" in this snapshot (known: check, suggestion)',
    ]);
  });

  test('a state or a flag reads only the shards holding units in that state, or with that flag', () => {
    const files = (input: Parameters<typeof resolveFilters>[1]) => selectShards(manifest, resolveFilters(manifest, input)).targets.map((target) => target.file);
    expect(files({ states: ['needs-editing'] })).toEqual(['shards/t-0-1.js']);
    expect(files({ states: ['translated'] })).toEqual(['shards/t-0-0.js', 'shards/t-1-1.js']);
    expect(files({ has: ['check'] })).toEqual(['shards/t-0-1.js']);
    expect(files({ has: ['suggestion'], states: ['needs-editing'] })).toEqual([]);
  });
});
