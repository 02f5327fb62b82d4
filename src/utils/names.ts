import { changeActions, unitStates } from '../../crawler/schemas/index.ts';

/** A unit state in words; a state a newer server invented shows as its number. */
export function stateName(state: number): string {
  return (unitStates as Record<number, string>)[state] ?? `state ${state}`;
}

/**
 * A change action in words. The snapshot keeps the server's localized `action_name` too, but
 * the site is English and must not depend on the crawl's Accept-Language: known codes use our
 * names, unknown ones the raw code.
 */
export function actionName(action: number): string {
  return (changeActions as Record<number, string>)[action] ?? `action ${action}`;
}

/** CSS class for a state, so the translation page can filter rows client-side. */
export function stateGroup(state: number): 'empty' | 'fuzzy' | 'translated' | 'approved' | 'readonly' | 'other' {
  if (state === 0) return 'empty';
  if (state >= 10 && state < 20) return 'fuzzy';
  if (state === 20) return 'translated';
  if (state === 30) return 'approved';
  if (state === 100) return 'readonly';
  return 'other';
}
