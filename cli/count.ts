/**
 * Counts as the CLI prints them: "1 snapshot", "2 snapshots", the form chosen by English plural
 * rules (Intl.PluralRules), so that no message reads "1 snapshots kept" (issue 28).
 */
const english = new Intl.PluralRules('en');

/** `count` and the noun in the form its number takes: `counted(1, 'snapshot', 'snapshots')` is "1 snapshot". */
export function counted(count: number, one: string, other: string): string {
  return `${count} ${english.select(count) === 'one' ? one : other}`;
}
