/**
 * Tables whose rows stack on a phone (site.css, "Phones" in docs/site.md): the head is hidden
 * there, so each cell shows its column's label above its value. The labels are handed down once
 * a table, as custom properties on its element (`--label-<column>`), not as an attribute on each
 * cell; a column without one (the row's name) spans the row.
 */

/** A text as a CSS string, for labels handed down in custom properties. */
export function cssString(text: string): string {
  return `'${text.replace(/[\\'\n]/g, (char) => (char === '\n' ? ' ' : `\\${char}`))}'`;
}

/** The `style` of a stacked table: each column's label by its position (1-based), none for `undefined`. */
export function stackedLabels(labels: readonly (string | undefined)[]): string {
  return labels.flatMap((label, at) => (label === undefined ? [] : [`--label-${at + 1}:${cssString(label)}`])).join(';');
}
