export { actionName, stateName } from '../../api/index.ts';

/** CSS class for a state, so the translation page can filter rows client-side. */
export function stateGroup(state: number): 'empty' | 'fuzzy' | 'translated' | 'approved' | 'readonly' | 'other' {
  if (state === 0) return 'empty';
  if (state >= 10 && state < 20) return 'fuzzy';
  if (state === 20) return 'translated';
  if (state === 30) return 'approved';
  if (state === 100) return 'readonly';
  return 'other';
}
