/**
 * Every language a real server knows. A Weblate instance lists all the languages Weblate ships
 * (652 on the 5.4.2 of issue 11, docs/weblate-api.md, Access), nearly all without a single
 * translation; a dataset lists only those it uses. `--data bundled,all-languages` (and
 * `languages: 'all'` in tests) adds the rest, so a crawl meets a real-size languages list.
 *
 * Deterministic and offline: the model's own languages first, then the synthetic table's real
 * ones (real names and plural rules), then invented ones with two- and three-letter codes, a
 * made-up name and a plural rule borrowed from a real language.
 */
import { seededRandom } from './data/random.ts';
import type { LanguageRow, Model } from './model.ts';
import { languageTable } from './synthetic/languages.ts';

/** How many languages the real 5.4.2 server listed to a token client. */
export const REAL_LANGUAGE_COUNT = 652;

const syllables = [
  'ka',
  'lo',
  'mi',
  'na',
  'ru',
  'se',
  'ti',
  'vo',
  'ze',
  'ba',
  'de',
  'fi',
  'gu',
  'ho',
  'ji',
  'ke',
  'la',
  'mo',
  'ni',
  'pa',
  'qua',
  'ri',
  'su',
  'ta',
  'u',
  'vi',
];

/** A made-up but pronounceable name from a code: `kmr` → `Kemoriian`. */
function inventedName(code: string): string {
  const stem = [...code].map((letter) => syllables[letter.charCodeAt(0) - 97] ?? 'a').join('');
  return `${stem[0]!.toUpperCase()}${stem.slice(1)}ian`;
}

/** Codes a real server could hold that the table does not: `aa`…`zz`, then `aaa`…, in order. */
function* candidateCodes(): Generator<string> {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (const first of letters) for (const second of letters) yield `${first}${second}`;
  for (const first of letters) for (const second of letters) for (const third of letters) yield `${first}${second}${third}`;
}

/** `languages` followed by the languages a real server knows besides, up to `count` in all. */
export function allLanguages(languages: readonly LanguageRow[], count = REAL_LANGUAGE_COUNT): LanguageRow[] {
  const rows = [...languages];
  const taken = new Set(rows.flatMap((row) => [row.code.toLowerCase(), ...row.aliases.map((alias) => alias.toLowerCase())]));
  const add = (row: LanguageRow) => {
    taken.add(row.code.toLowerCase());
    for (const alias of row.aliases) taken.add(alias.toLowerCase());
    rows.push(row);
  };
  let pluralId = Math.max(0, ...rows.map((row) => row.plural.id));
  for (const { row } of languageTable) {
    if (rows.length >= count) return rows;
    if (!taken.has(row.code.toLowerCase()))
      add({ ...row, plural: { ...row.plural, id: ++pluralId }, aliases: row.aliases.filter((alias) => !taken.has(alias.toLowerCase())) });
  }
  const random = seededRandom(652);
  for (const code of candidateCodes()) {
    if (rows.length >= count) break;
    if (taken.has(code)) continue;
    // Most languages have "one" and "other"; the rest borrow a real language's rule.
    const template = random.chance(0.6) ? languageTable[1]!.row : random.pick(languageTable).row;
    add({
      code,
      name: inventedName(code),
      plural: { ...template.plural, id: ++pluralId },
      aliases: [],
      direction: random.chance(0.05) ? 'rtl' : 'ltr',
      population: random.int(1, 500) * 10_000,
    });
  }
  return rows;
}

/** `model` listing every language a real server knows; everything else is the model's own. */
export function withAllLanguages<M extends Model>(model: M, count = REAL_LANGUAGE_COUNT): M {
  const languages = allLanguages(model.languages(), count);
  return new Proxy(model, {
    get(target, property) {
      if (property === 'languages') return () => languages;
      const value: unknown = Reflect.get(target, property, target);
      // Methods run on the model itself: its private fields are not the proxy's.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
