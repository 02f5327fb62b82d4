/**
 * The diff as plain text for a terminal. Server strings are printed JSON-quoted: they may hold
 * control characters (terminal escape sequences) that must show as text, not act. Pure.
 */
import { unitChangeKinds, unitChangeLabels, type GroupDelta, type SnapshotDiff, type TranslationDiff, type UnitChange, type UnitSide } from './diff.ts';
import type { FiguresDelta } from './figures.ts';
import { stateLabel } from '../api/states.ts';

const quote = (text: string) => JSON.stringify(text);
const signed = (value: number) => (value > 0 ? `+${value}` : `${value}`);

function sideText(side: UnitSide | undefined): string {
  if (side === undefined) return '-';
  // The site's words (api/states.ts): "(untranslated)", as the search page shows an empty text.
  const text = side.target.every((form) => form === '') ? '(untranslated)' : side.target.map(quote).join(' | ');
  return `${text} [${stateLabel(side.state)}]`;
}

function countsText(counts: TranslationDiff['counts']): string {
  return unitChangeKinds
    .filter((kind) => counts[kind] > 0)
    .map((kind) => `${counts[kind]} ${unitChangeLabels[kind]}`)
    .join(', ');
}

export function figuresText({ before, after, delta }: FiguresDelta): string {
  const parts = [`translated ${before.translated} → ${after.translated} (${signed(delta.translated)}) of ${after.total} strings`];
  if (delta.total !== 0) parts.push(`strings ${before.total} → ${after.total} (${signed(delta.total)})`);
  if (delta.fuzzy !== 0) parts.push(`needing editing ${before.fuzzy} → ${after.fuzzy} (${signed(delta.fuzzy)})`);
  if (delta.translated_words !== 0) parts.push(`words translated ${signed(delta.translated_words)}`);
  return parts.join('; ');
}

function groupLines(title: string, groups: readonly GroupDelta[]): string[] {
  if (groups.length === 0) return [];
  return ['', `${title}:`, ...groups.map((group) => `  ${group.key}${group.status === 'changed' ? '' : ` (${group.status})`}: ${figuresText(group.figures)}`)];
}

function unitLines(change: UnitChange): string[] {
  const context = change.context ? ` context ${quote(change.context)}` : '';
  const lines = [`    #${change.position} ${unitChangeLabels[change.kind]}: ${change.source.map(quote).join(' | ')}${context}`];
  if (change.kind === 'added') lines.push(`        now:    ${sideText(change.after)}`);
  else if (change.kind === 'removed') lines.push(`        was:    ${sideText(change.before)}`);
  else lines.push(`        before: ${sideText(change.before)}`, `        after:  ${sideText(change.after)}`);
  return lines;
}

/** `tags`: the release tags of each snapshot id, named beside the ids they pin. */
export function formatDiff(diff: SnapshotDiff, tags: ReadonlyMap<string, readonly string[]> = new Map()): string {
  const named = (id: string) => (tags.get(id)?.length ? `${id} (${tags.get(id)!.join(', ')})` : id);
  const lines = [`Changes from snapshot ${named(diff.from)} to ${named(diff.to)}`];
  const totals = countsText(diff.totals);
  lines.push(totals ? `Strings: ${totals}` : 'Strings: no changes');
  lines.push(...groupLines('Projects', diff.projects), ...groupLines('Components', diff.components), ...groupLines('Languages', diff.languages));
  for (const translation of diff.translations) {
    const title = `${translation.project.slug} / ${translation.component.slug} / ${translation.language.slug}`;
    lines.push('');
    if (translation.status !== 'changed') {
      lines.push(
        `  ${title}: translation ${translation.status} (${(translation.status === 'added' ? translation.figures.after : translation.figures.before).total} strings)`,
      );
      continue;
    }
    lines.push(`  ${title}: ${countsText(translation.counts) || 'statistics only'}; ${figuresText(translation.figures)}`);
    for (const change of translation.changes) lines.push(...unitLines(change));
  }
  return lines.join('\n');
}
