import { action } from '../../../api/change.ts';
import type { ChangeRow, UserRow } from '../model.ts';
import { translatorOf } from './collections.ts';
import type { Layout, TranslationPlan } from './layout.ts';
import { mix, pick, topic } from './random.ts';
import { type UnitPlace, stateOf, targetOf } from './units.ts';

/**
 * The change log, addressed by index. First the setup events, grouped by project: "project
 * created" (50), then for each component "component created" (51) followed by "language
 * added" (48) for each of its target languages. Then one change per unit record, the
 * unit's latest: all source units ("source string added", 13) in a seeded shuffle, then
 * all target units in another, so every translation gets work all year round.
 */
export function setupEventCount(layout: Layout): number {
  const { projects, components, languages } = layout.spec;
  return projects * (1 + components * (1 + languages));
}

interface SetupEvent {
  action: 50 | 51 | 48;
  projectIndex: number;
  componentIndex: number | null;
  translation: TranslationPlan | null;
}

function setupEvent(layout: Layout, index: number): SetupEvent {
  const { components, languages } = layout.spec;
  const perProject = 1 + components * (1 + languages);
  const projectIndex = Math.floor(index / perProject);
  const inProject = index % perProject;
  if (inProject === 0) return { action: action.projectCreated, projectIndex, componentIndex: null, translation: null };
  const slot = Math.floor((inProject - 1) / (1 + languages));
  const inComponent = (inProject - 1) % (1 + languages);
  const componentIndex = projectIndex * components + slot;
  if (inComponent === 0) return { action: action.componentCreated, projectIndex, componentIndex, translation: null };
  // Translations are laid out per component: source first, then the targets in order.
  const translation = layout.translations[componentIndex * (1 + languages) + inComponent] as TranslationPlan;
  return { action: action.languageAdded, projectIndex, componentIndex, translation };
}

export function setupChange(layout: Layout, users: readonly UserRow[], index: number, timestamp: string): ChangeRow {
  const event = setupEvent(layout, index);
  const admin = users[0] as UserRow;
  const user = event.translation ? translatorOf(users, event.translation.targetIndex, mix(layout.spec.seed, topic.changeUser, index)) : admin;
  return {
    id: index + 1,
    action: event.action,
    timestamp,
    user: user.username,
    author: user.username,
    unitId: null,
    translationId: event.translation?.id ?? null,
    componentId: event.componentIndex === null ? null : event.componentIndex + 1,
    target: '',
  };
}

/** Translated units were saved in one of several ways; each keeps its own action code. */
const translatedActions = [
  action.translationAdded,
  action.translationAdded,
  action.translationAdded,
  action.translationChanged,
  action.translationChanged,
  action.automaticallyTranslated,
  action.suggestionAccepted,
  action.translationUploaded,
];

/** The action that left a unit in its state, and whether a user (not the system) did it. */
export function unitAction(seed: number, state: number, sourceUnit: boolean, changeIndex: number): { action: number; byUser: boolean } {
  if (sourceUnit) return { action: action.sourceStringAdded, byUser: false };
  switch (state) {
    case 0:
      return { action: action.stringAddedInTheRepository, byUser: false };
    case 10:
      return { action: action.markedForEdit, byUser: true };
    case 30:
      return { action: action.translationApproved, byUser: true };
    case 100:
      return { action: action.stringUpdatedInTheRepository, byUser: false };
    default:
      return { action: pick(translatedActions, seed, topic.changeAction, changeIndex), byUser: true };
  }
}

/**
 * The latest change of the unit at `place`. Computed from the place without building the
 * unit row (no hash), so the whole log can be scanned quickly.
 */
export function unitChange(layout: Layout, users: readonly UserRow[], id: number, changeIndex: number, place: UnitPlace, timestamp: string): ChangeRow {
  const { seed } = layout.spec;
  const { translation, index, string } = place;
  const state = stateOf(seed, place);
  const { action, byUser } = unitAction(seed, state, translation.targetIndex < 0, changeIndex);
  const user = byUser ? translatorOf(users, translation.targetIndex, mix(seed, topic.changeUser, id)).username : null;
  let target: string | undefined;
  return {
    id,
    action,
    timestamp,
    user,
    author: user,
    unitId: translation.firstUnitId + index,
    translationId: translation.id,
    componentId: translation.component.index + 1,
    // A translation change carries the new text; a repository change the source string. A
    // getter, as in a unit row (./units.ts): scans of the log (indexes, tallies) never read it.
    get target() {
      return (target ??= (byUser ? targetOf(state, place)[0] : string.source[0]) ?? '');
    },
  };
}
