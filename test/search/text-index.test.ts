/**
 * The shards' index (search/text-index.ts): MiniSearch through its public API, with tmsnap's
 * tokenizer and query options (docs/search.md, "Matching rules" and "Ranking"). Fixtures whose order
 * can be checked by hand, then the matching rules checked against a brute-force reading of
 * them (every query term matches a term of the text exactly, as a prefix or within `maxEdits`),
 * on the bundled real catalogs and on random texts in seven scripts: an option lost on the way
 * (the tokenizer, the edit distance, AND) fails it.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadBundledRows } from '../../packages/reference-server/data/bundled.ts';
import { joinForms, maxEdits } from '../../search/matching.ts';
import { documentsOf, searchText, termsOf, textIndexOf, type TextIndex } from '../../search/text-index.ts';
import { tokenize } from '../../search/text.ts';
import { edit, query, text } from './random-texts.ts';

function tableOf(texts: readonly string[]): TextIndex {
  return textIndexOf(documentsOf(texts.map((value) => [value])));
}

/** Ids best first, ties by id. */
function ranked(index: TextIndex, query: string): number[] {
  return searchText(index, query)
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .map((hit) => hit.id);
}

describe('matching and ranking on small fixtures', () => {
  test('documents skip empty texts and keep positions; terms are the folded words', () => {
    const documents = [...documentsOf([['Save as'], [''], ['save', 'SAVE file']])];
    expect(documents).toEqual([
      { id: 0, text: 'Save as' },
      { id: 2, text: 'save\nSAVE file' },
    ]);
    expect([...termsOf(documents)].sort()).toEqual(['as', 'file', 'save']);
    expect(textIndexOf(documents).documentCount).toBe(2);
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

/** Levenshtein distance over UTF-16 code units. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The rules read plainly: a query term matches a term it equals, begins, or is within `maxEdits` of. */
function matches(queryTerm: string, term: string): boolean {
  return term.startsWith(queryTerm) || distance(queryTerm, term) <= maxEdits(queryTerm);
}

/** Ids of the texts where every query term matches one of the text's terms. */
function bruteForce(texts: readonly string[], query: string): number[] {
  const queryTerms = tokenize(query);
  if (queryTerms.length === 0) return [];
  return texts.flatMap((value, id) => {
    if (value.trim() === '') return [];
    const terms = tokenize(value);
    return queryTerms.every((queryTerm) => terms.some((term) => matches(queryTerm, term))) ? [id] : [];
  });
}

/** The index finds exactly the texts the rules say, each with matched terms the rules allow. */
function expectRules(texts: readonly string[], index: TextIndex, text: string): number {
  const hits = searchText(index, text);
  const label = `query ${JSON.stringify(text)}`;
  expect(
    hits.map((hit) => hit.id).sort((a, b) => a - b),
    label,
  ).toEqual(bruteForce(texts, text));
  const queryTerms = tokenize(text);
  for (const hit of hits) {
    expect(hit.score, label).toBeGreaterThan(0);
    for (const term of hit.terms)
      expect(
        queryTerms.some((queryTerm) => matches(queryTerm, term)),
        `${label}: ${term}`,
      ).toBe(true);
  }
  return hits.length;
}

describe('the index finds what the matching rules say', () => {
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
      const index = tableOf(texts);
      const words = [...new Set(texts.flatMap((value) => tokenize(value)))].sort();
      // Every 97th word, as typed letter by letter, with one and two edits, and beside the next word.
      let matched = 0;
      let queries = 0;
      for (let at = 0; at < words.length; at += 97) {
        const word = words[at]!;
        const typed = Array.from(word).map((_, length) =>
          Array.from(word)
            .slice(0, length + 1)
            .join(''),
        );
        for (const text of [...typed, edit(word, at, 'e'), edit(edit(word, at, 'a'), at + 5, 'o'), `${word} ${words[(at + 1) % words.length]}`]) {
          queries++;
          if (expectRules(texts, index, text) > 0) matched++;
        }
      }
      // Most of these queries match: the comparison is not of empty answers.
      expect(matched, label).toBeGreaterThan(queries / 2);
    }
  }, 300_000);

  test('on random texts in seven scripts', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 30 }).chain((texts) => fc.tuple(fc.constant(texts), fc.array(query(texts), { minLength: 1, maxLength: 10 }))),
        ([texts, queries]) => {
          const index = tableOf(texts);
          for (const text of queries) expectRules(texts, index, text);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('an empty index and a query without terms find nothing', () => {
    expect(searchText(tableOf([]), 'save')).toEqual([]);
    expect(searchText(tableOf(['Save as…']), '… !')).toEqual([]);
  });
});
