/**
 * The shards' index (search/text-index.ts): MiniSearch through its public API, with tmsnap's
 * tokenizer and query options (docs/search.md, "Matching and ranking"). Fixtures whose order
 * can be checked by hand, then a cross-check that an index as shipped (`toJSON`, JSON, `loadJS`)
 * answers as MiniSearch given the documented rules directly, on the bundled real catalogs and
 * on random texts in seven scripts: an option lost on the way (the tokenizer at load, say) fails it.
 */
import fc from 'fast-check';
import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadBundledRows } from '../../packages/reference-server/data/bundled.ts';
import { joinForms, maxEdits, type SearchDocument } from '../../search/matching.ts';
import { indexTerms, openTextIndex, searchText, textIndexOf, type TextIndex } from '../../search/text-index.ts';
import { tokenize } from '../../search/text.ts';
import { edit, query, text } from './random-texts.ts';

/** An index as the page opens it: built, shipped as JSON, loaded. */
function tableOf(texts: readonly string[]): TextIndex {
  const documents = texts.flatMap((value, id) => (value.trim() === '' ? [] : [{ id, text: value }]));
  return openTextIndex(JSON.parse(JSON.stringify(textIndexOf(documents))));
}

/** Ids best first, ties by id. */
function ranked(index: TextIndex, query: string): number[] {
  return searchText(index, query)
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .map((hit) => hit.id);
}

describe('matching and ranking on small fixtures', () => {
  test('a shipped index lists its terms for routing and counts its documents', () => {
    const data = textIndexOf([
      { id: 0, text: 'Save as' },
      { id: 2, text: 'save save file' },
    ]);
    expect(indexTerms(data).sort()).toEqual(['as', 'file', 'save']);
    expect(data.documentCount).toBe(2);
    expect(indexTerms(textIndexOf([]))).toEqual([]);
  });

  test('BM25+ by hand: k 1.2, b 0.7, d 0.5 over lengths in distinct terms', () => {
    // 4 documents of 3 distinct terms, 1 holds "alpha" once: ln(1 + 3.5 / 1.5) × (0.5 + 2.2 / 2.2).
    const index = tableOf(['alpha beta gamma', 'delta epsilon zeta', 'theta iota kappa', 'lambda sigma omega']);
    const [hit] = searchText(index, 'alpha');
    expect(hit?.id).toBe(0);
    expect(hit?.score).toBeCloseTo(Math.log(1 + 3.5 / 1.5) * 1.5, 12);
    // A repeated word does not lengthen the text; a rarer term scores more, a longer text less.
    const scores = (texts: string[], query: string) => Object.fromEntries(searchText(tableOf(texts), query).map((found) => [found.id, found.score]));
    const rare = scores(['alpha beta', 'alpha gamma', 'beta gamma', 'gamma delta'], 'beta');
    const common = scores(['alpha beta', 'beta gamma', 'beta delta', 'gamma delta'], 'beta');
    expect(rare[0]!).toBeGreaterThan(common[0]!);
    const long = scores(['alpha beta', 'alpha beta gamma delta epsilon', 'zeta', 'eta'], 'alpha');
    expect(long[0]!).toBeGreaterThan(long[1]!);
  });

  test('the term itself, then longer terms it begins, then near misses; shorter texts first', () => {
    const index = tableOf(['file', 'files', 'open file now', 'fille', 'profile']);
    // 0 is the term in a one-word text (BM25+ 1.42), 2 the term in a three-word text (1.05);
    // "files" and "fille" are rarer (2.25 each) but weighted: one edit away 0.45 × 5 / 6 = 0.375
    // (3: 0.84), a prefix 0.375 × 5 / 5.3 = 0.354 (1: 0.80). "profile" holds it inside: no match.
    expect(ranked(index, 'file')).toEqual([0, 2, 3, 1]);
  });

  test('fuzzy distance grows with the term: none below 4, one to 7, two from 8, never in pairs', () => {
    expect(['sav', 'save', 'exporte', 'exported', '保存保存保存'].map(maxEdits)).toEqual([0, 1, 1, 2, 0]);
    const index = tableOf(['sve', 'sabe', 'exportes', 'exporta', 'expotred']);
    expect(ranked(index, 'sav')).toEqual([]);
    // Both one edit away; the longer term weighs more (0.45 × 4 / 5 against 0.45 × 3 / 4).
    expect(ranked(index, 'save')).toEqual([1, 0]);
    // "exporte" (7 letters): prefix of "exportes"; "exporta" one edit; "expotred" three, out of reach.
    // Equal BM25+ (one rare term each, equal lengths): the near miss weighs 0.45 × 7 / 8 = 0.394,
    // the longer term it begins 0.375 × 8 / 8.3 = 0.361.
    expect(ranked(index, 'exporte')).toEqual([3, 2]);
    // "exported" (8 letters): "exportes" one edit, "exporta" two, "expotred" two.
    expect(ranked(index, 'exported').sort()).toEqual([2, 3, 4]);
  });

  test('every query term must match; case and accents are folded', () => {
    const index = tableOf(['Zapisz jako…', 'Zapisz', 'Otwórz plik', 'ZAPISZ JAKO plik']);
    expect(ranked(index, 'zapisz jako')).toEqual([0, 3]);
    expect(ranked(index, 'otworz')).toEqual([2]);
    expect(ranked(index, 'jako nic')).toEqual([]);
  });

  test('equal texts score equally, whatever order terms were added in', () => {
    const index = tableOf(['save file as', 'as file save', 'file save as']);
    const scores = searchText(index, 'sa fi').map((hit) => hit.score);
    expect(new Set(scores).size).toBe(1);
  });
});

/** The same rules given to MiniSearch directly, as docs/search.md states them. */
const miniSearchOptions: Options<SearchDocument> = { fields: ['text'], tokenize, processTerm: (term) => term };
const miniSearchQuery: SearchOptions = {
  prefix: true,
  fuzzy: (term) => maxEdits(term),
  combineWith: 'AND',
};

function bothIndexes(texts: readonly string[]): {
  before: MiniSearch<SearchDocument>;
  after: { search(query: string): ReturnType<typeof searchText>; documentCount: number };
} {
  const before = new MiniSearch<SearchDocument>(miniSearchOptions);
  texts.forEach((value, id) => {
    if (value.trim() !== '') before.add({ id, text: value });
  });
  const shipped = tableOf(texts);
  return { before, after: { search: (query) => searchText(shipped, query), documentCount: shipped.documentCount } };
}

/** A search's answer in a comparable form: by id, the score and the matched terms, sorted. */
function answer(hits: readonly { id: unknown; score: number; terms: string[] }[]): [number, number, string[]][] {
  return hits.map((hit): [number, number, string[]] => [hit.id as number, hit.score, [...hit.terms].sort()]).sort(([a], [b]) => a - b);
}

function expectSame(indexes: ReturnType<typeof bothIndexes>, text: string): number {
  const expected = answer(indexes.before.search(text, miniSearchQuery));
  const actual = answer(indexes.after.search(text));
  const label = `query ${JSON.stringify(text)}`;
  expect(
    actual.map(([id, , terms]) => [id, terms]),
    label,
  ).toEqual(expected.map(([id, , terms]) => [id, terms]));
  actual.forEach(([, score], at) => {
    const other = expected[at]![1];
    expect(Math.abs(score - other), label).toBeLessThanOrEqual(1e-12 * Math.abs(other));
  });
  return expected.length;
}

describe('a shipped index finds what MiniSearch finds with the documented rules', () => {
  let catalogs: { label: string; texts: string[] }[];

  beforeAll(() => {
    const rows = loadBundledRows();
    const languageOf = new Map(rows.translations.map((translation) => [translation.id, translation.languageCode]));
    const sources = new Set<string>();
    const targets = new Map<string, string[]>();
    for (const unit of rows.units) {
      sources.add(joinForms(unit.source));
      const code = languageOf.get(unit.translationId);
      if (code) targets.set(code, [...(targets.get(code) ?? []), joinForms(unit.target)]);
    }
    catalogs = [
      { label: 'sources', texts: [...sources] },
      ...['cs', 'de', 'ru', 'ar', 'ja', 'zh_Hans', 'pl']
        .filter((code) => targets.has(code))
        .map((code) => ({ label: code, texts: [...new Set(targets.get(code))] })),
    ];
  });

  test('on the bundled catalogs: words, their prefixes, near misses and pairs of words', () => {
    expect(catalogs.length).toBeGreaterThanOrEqual(6);
    for (const { label, texts } of catalogs) {
      const indexes = bothIndexes(texts);
      const words = [...new Set(texts.flatMap((value) => tokenize(value)))].sort();
      // Every 31st word, as typed letter by letter, with one and two edits, and beside the next word.
      let matched = 0;
      let queries = 0;
      for (let at = 0; at < words.length; at += 31) {
        const word = words[at]!;
        const typed = Array.from(word).map((_, length) =>
          Array.from(word)
            .slice(0, length + 1)
            .join(''),
        );
        for (const text of [...typed, edit(word, at, 'e'), edit(edit(word, at, 'a'), at + 5, 'o'), `${word} ${words[(at + 1) % words.length]}`]) {
          queries++;
          if (expectSame(indexes, text) > 0) matched++;
        }
      }
      // Most of these queries match: the comparison is not of empty answers.
      expect(matched, label).toBeGreaterThan(queries / 2);
    }
    // MiniSearch's side (loading seven indexes, one-letter prefixes matching thousands of terms) takes most of it.
  }, 300_000);

  test('on random texts in seven scripts', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 30 }).chain((texts) => fc.tuple(fc.constant(texts), fc.array(query(texts), { minLength: 1, maxLength: 10 }))),
        ([texts, queries]) => {
          const indexes = bothIndexes(texts);
          for (const text of queries) expectSame(indexes, text);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('an empty index and a query without terms find nothing', () => {
    const empty = bothIndexes([]);
    expect(empty.after.search('save')).toEqual([]);
    expect(empty.after.documentCount).toBe(0);
    expect(bothIndexes(['Save as…']).after.search('… !')).toEqual([]);
  });
});
