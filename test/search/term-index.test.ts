/**
 * Search format 4's term tables (search/term-index.ts) answer every query as MiniSearch did
 * from format 3's serialized index: the same documents, the same scores to the last bit and
 * the same matched terms, on the bundled real catalogs (the sources and seven languages'
 * targets, queries made from their own words) and on random texts in seven scripts.
 */
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadBundledRows } from '../../reference-server/data/bundled.ts';
import { indexOptions, joinForms, searchOptions, type SearchDocument } from '../../search/matching.ts';
import { TermIndex, termIndexOf } from '../../search/term-index.ts';
import { tokenize } from '../../search/text.ts';
import { edit, query, text } from './random-texts.ts';

/** The index format 3 shipped and the page opened with `loadJS`, beside format 4's, from one build. */
function bothIndexes(texts: readonly string[]): { before: MiniSearch<SearchDocument>; after: TermIndex } {
  const built = new MiniSearch<SearchDocument>(indexOptions);
  texts.forEach((value, id) => {
    if (value.trim() !== '') built.add({ id, text: value });
  });
  const json = JSON.parse(JSON.stringify(built));
  return { before: MiniSearch.loadJS(json, indexOptions), after: new TermIndex(JSON.parse(JSON.stringify(termIndexOf(built)))) };
}

/** A search's answer in a comparable form: by id, the score and the matched terms, sorted. */
function answer(hits: readonly { id: unknown; score: number; terms: string[] }[]): [number, number, string[]][] {
  return hits.map((hit): [number, number, string[]] => [hit.id as number, hit.score, [...hit.terms].sort()]).sort(([a], [b]) => a - b);
}

function expectSame(indexes: ReturnType<typeof bothIndexes>, text: string): number {
  const expected = answer(indexes.before.search(text, searchOptions));
  expect(answer(indexes.after.search(text)), `query ${JSON.stringify(text)}`).toEqual(expected);
  return expected.length;
}

describe('a term table answers as MiniSearch', () => {
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
