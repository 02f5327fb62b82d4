/**
 * Unit states in words, one table for every stage (issue 35): the site's pages, the search
 * page's URL, `tmsnap search --state` and `tmsnap diff` all name a state, and take one, through
 * it. Imports nothing (the search page bundles it). Facts: docs/weblate-api.md, "Values" and
 * "States 11 and 12".
 */

export interface StateWords {
  state: number;
  /** Weblate's name in its `state:` search (`STATE_NAMES`): what `--state` and `state=` have always taken. */
  name: string;
  /** The word the site and the CLI show: Weblate's label in lower case, 0 as its pages count it ("untranslated"). */
  label: string;
  /** Further words people use for it: Weblate's label where the site says otherwise, its other `state:` names. */
  also: readonly string[];
}

export const stateWords: readonly StateWords[] = [
  { state: 0, name: 'empty', label: 'untranslated', also: [] },
  { state: 10, name: 'needs-editing', label: 'needs editing', also: ['fuzzy'] },
  { state: 11, name: 'needs-rewriting', label: 'needs editing (needs rewriting)', also: [] },
  { state: 12, name: 'needs-checking', label: 'needs editing (needs checking)', also: [] },
  { state: 20, name: 'translated', label: 'translated', also: [] },
  { state: 30, name: 'approved', label: 'approved', also: [] },
  { state: 100, name: 'read-only', label: 'read-only', also: [] },
];

/** A state's word as the site and the CLI show it; a state a newer server invented shows as its number. */
export function stateLabel(state: number): string {
  return stateWords.find((words) => words.state === state)?.label ?? `state ${state}`;
}

/** The same word however it is written: case, spaces, dashes, underscores and brackets aside. */
const folded = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The state a word names, in Weblate's words or the site's (`empty`, `untranslated`,
 * `needs-editing`, `needs editing`, `fuzzy`, `needs_rewriting`, `Read-only`…), or a number (any:
 * newer servers add states); undefined when it names none.
 */
export function stateOf(word: string): number | undefined {
  const trimmed = word.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const key = folded(trimmed);
  if (key === '') return undefined;
  return stateWords.find((words) => [words.name, words.label, ...words.also].some((known) => folded(known) === key))?.state;
}

/** The words a refusal lists: Weblate's names, and the site's single words where they differ (`untranslated`). */
export function knownStateWords(): string[] {
  const words: string[] = [];
  for (const { name, label } of stateWords) {
    for (const word of [name, label.replace(/ /g, '-')]) if (!word.includes('(') && !words.some((known) => folded(known) === folded(word))) words.push(word);
  }
  return words;
}
