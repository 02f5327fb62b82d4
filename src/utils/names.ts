import type { MessageKey, Translator } from '../i18n/index.ts';

export { actionName, stateLabel } from '../../api/index.ts';

const priorityKeys: Record<number, MessageKey> = { 60: 'priority.60', 80: 'priority.80', 100: 'priority.100', 120: 'priority.120', 140: 'priority.140' };

/**
 * A component's priority as every page names it (issue 35): Weblate's word for its choices
 * (`PRIORITY_CHOICES`, weblate/trans/util.py: 60 very high … 140 very low), another number as itself.
 */
export function priorityName(priority: number, ui: Pick<Translator, 't' | 'number'>): string {
  const key = priorityKeys[priority];
  return key ? ui.t(key) : ui.number(priority);
}

/**
 * A state's group on a translation's table of unit pages, named as Weblate's search names the
 * state (`weblate/utils/state.py`, STATE_NAMES): one group per state, so 11 and 12 are counted
 * apart from 10 and each column is labelled by its own state (docs/weblate-api.md, "Values").
 */
export function stateGroup(state: number): 'empty' | 'fuzzy' | 'needs-rewriting' | 'needs-checking' | 'translated' | 'approved' | 'readonly' | 'other' {
  if (state === 0) return 'empty';
  if (state === 10) return 'fuzzy';
  if (state === 11) return 'needs-rewriting';
  if (state === 12) return 'needs-checking';
  if (state === 20) return 'translated';
  if (state === 30) return 'approved';
  if (state === 100) return 'readonly';
  return 'other';
}
