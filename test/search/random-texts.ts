/**
 * Random texts and queries in several scripts for search's property tests: few characters per
 * script, so random words share prefixes and come within an edit of each other, and queries
 * drawn from the texts (prefixes, one and two edits, two terms, substrings) so many match.
 */
import fc from 'fast-check';

/** Few characters per script, so random words share prefixes and come within an edit of each other. */
export const scripts = {
  latin: [...'abcdeéosßł'],
  cyrillic: [...'абвгдеёж'],
  arabic: [...'ملفحظ'],
  han: [...'保存文件名前'],
  kana: [...'ファイルをく'],
  thai: ['ก', 'ข', 'ค', 'ก\u0e34', 'ข\u0e49'],
  digits: [...'019'],
};
export const characters = Object.values(scripts).flat();
const word = fc
  .constantFrom(...Object.values(scripts))
  .chain((pool) => fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 9 }).map((chars) => chars.join('')));
export const text = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));

/** One random edit: insert, delete or replace a character (code units, as `maxEdits` counts them). */
export function edit(term: string, draw: number, character: string): string {
  const at = draw % (term.length + 1);
  switch (draw % 3) {
    case 0:
      return term.slice(0, at) + character + term.slice(at);
    case 1:
      return term.slice(0, at) + term.slice(at + 1);
    default:
      return term.slice(0, at) + character + term.slice(at + 1);
  }
}

/** A query made from the indexed texts, so many of them match: prefixes, near misses, pairs. */
export const query = (texts: string[]) =>
  fc
    .record({
      text: fc.constantFrom(...texts),
      kind: fc.constantFrom('prefix', 'one edit', 'two edits', 'two terms', 'substring', 'random'),
      cut: fc.nat(),
      draws: fc.array(fc.nat(), { minLength: 2, maxLength: 2 }),
      characters: fc.array(fc.constantFrom(...characters), { minLength: 2, maxLength: 2 }),
      random: text,
    })
    .map(({ text, kind, cut, draws, characters: [first, second], random }) => {
      const words = text.split(' ');
      const picked = words[cut % words.length]!;
      switch (kind) {
        case 'prefix':
          return Array.from(picked)
            .slice(0, 1 + (cut % Array.from(picked).length))
            .join('');
        case 'one edit':
          return edit(picked, draws[0]!, first!);
        case 'two edits':
          return edit(edit(picked, draws[0]!, first!), draws[1]!, second!);
        case 'two terms':
          return `${picked} ${words[(cut + 1) % words.length]}`;
        case 'substring':
          return text.slice(cut % text.length, (cut % text.length) + 2 + (draws[0]! % 4));
        default:
          return random;
      }
    });
