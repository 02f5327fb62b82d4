import type { UnitRow } from './model.ts';

/**
 * What Weblate gives a new unit that no one has flagged, labelled, prioritized, explained,
 * suggested on or commented on yet: the bundled builder's units and `addString`'s start from
 * these. A function, so that no two units share one `labels` array.
 */
export function unitDefaults(): Pick<
  UnitRow,
  'extra_flags' | 'labels' | 'priority' | 'explanation' | 'pending' | 'has_suggestion' | 'has_comment' | 'has_failing_check'
> {
  return { extra_flags: '', labels: [], priority: 100, explanation: '', pending: false, has_suggestion: false, has_comment: false, has_failing_check: false };
}
