/**
 * A night after edits (issue 27): the units of a touched translation as the previous snapshot's
 * with those changed since replaced, taken from one paged `/api/units/?q=changed:>=T` instead of
 * each touched translation's whole `units/` (docs/crawl.md, "Incremental crawls"). Pure: what the
 * change log says of a translation, whether the merge is proven right, the merge itself.
 */
import { action } from '../../api/change.ts';

/**
 * The actions whose unit Weblate's `changed:` search finds (5.14.3 `UnitTermExpr.field_extra`:
 * `change__action__in=ACTIONS_CONTENT`, weblate/trans/actions.py). A suggestion, a comment, a
 * label or a string removed changes a unit record without it: such a translation falls back.
 */
export const contentActions: ReadonlySet<number> = new Set([
  action.translationChanged,
  action.translationAdded,
  action.automaticallyTranslated,
  action.suggestionAccepted,
  action.translationReverted,
  action.translationUploaded,
  action.translationReplaced,
  action.sourceStringChanged,
  action.stringAdded,
  action.bulkStatusChanged,
  action.translationApproved,
  action.markedForEdit,
  action.explanationUpdated,
  action.appliedEnforcedCheck,
  action.propagatedChange,
  action.extraFlagsUpdated,
]);

/**
 * Actions that leave every unit record as it was, whether they name a unit or not: "Contributor
 * joined" names the unit of a user's first edit in a translation, beside that edit's own change
 * (Weblate 5.14.3, test/weblate/changed-since.test.ts).
 */
const noUnitEffect: ReadonlySet<number> = new Set([
  action.translationCompleted,
  action.changesPushed,
  action.contributorJoined,
  action.componentTranslationCompleted,
]);

/** What the change log since the previous snapshot says of one touched translation's units. */
export interface UnitChanges {
  /** Units (snapshot paths, `api/units/1/`) a content action named: each must be in the list. */
  listed: Set<string>;
  /** A commit: it clears `pending` on the units it wrote, which no search finds. */
  committed: boolean;
  /** A change the list cannot account for (a suggestion, a comment, a string removed, a repository update…). */
  unexplained: boolean;
}

export function noUnitChanges(): UnitChanges {
  return { listed: new Set(), committed: false, unexplained: false };
}

/** Notes one change of the window against its translation's `UnitChanges`. */
export function noteChange(changes: UnitChanges, code: number, unit: string | undefined): void {
  if (unit !== undefined && contentActions.has(code)) changes.listed.add(unit);
  else if (unit === undefined && code === action.changesCommitted) changes.committed = true;
  else if (!noUnitEffect.has(code)) changes.unexplained = true;
}

/**
 * Whether one list of changed units is worth it: its pages (each unit the window's content
 * actions named, at `pageSize` a page), and the first page of the units a commit wrote when the
 * window has a commit (`commitList`), against one `units/` request per touched translation that
 * could be merged. Per translation as before when the lists would not save a request.
 */
export function listWorthIt(mergeable: number, changedUnits: number, pageSize: number, commitList = false): boolean {
  return mergeable > Math.max(1, Math.ceil(changedUnits / pageSize)) + (commitList ? 1 : 0);
}

export interface MergeInput {
  /** The previous snapshot's units of the translation, expanded to API records. */
  previous: readonly unknown[];
  /** The translation's units in the changed list. */
  changed: readonly unknown[];
  /** The snapshot path (`api/units/1/`) of a unit record, undefined when it has none under the API root. */
  pathOf: (unit: unknown) => string | undefined;
  /** The same of a previous unit, where those are as stored (links relative): `pathOf` unless told. */
  previousPathOf?: ((unit: unknown) => string | undefined) | undefined;
  log: UnitChanges;
  /** Tonight's `total` of the translation's statistics. */
  total: number | undefined;
  /**
   * `changed` also holds every unit a commit in the window wrote (`units/?q=last_changed:>=T`):
   * a commit saves each unit it writes, so its `last_updated` moves (Weblate 5.14.3).
   */
  commitsListed?: boolean | undefined;
}

/**
 * The translation's units now (`units`; `kept` of the previous ones and `fresh` of the changed
 * ones make them up), or why the merge cannot be proven right (then its own `units/` is
 * fetched): previous units replaced by their changed records, new ones added; it must hold
 * every unit the log names, no `pending` a commit may have cleared unseen (unless `changed`
 * holds what commits wrote), and as many units as the translation's `total`.
 */
export function mergeUnits({
  previous,
  changed,
  pathOf,
  previousPathOf = pathOf,
  log,
  total,
  commitsListed,
}: MergeInput): { units: unknown[]; kept: unknown[]; fresh: unknown[] } | { fallback: string } {
  if (log.unexplained) return { fallback: 'a change the changed list does not show' };
  const byPath = new Map<string, unknown>();
  const previousPaths: string[] = [];
  for (const unit of previous) {
    const path = previousPathOf(unit);
    if (path === undefined) return { fallback: 'a previous unit without a URL' };
    byPath.set(path, unit);
    previousPaths.push(path);
  }
  const fresh = new Map<string, unknown>();
  for (const unit of changed) {
    const path = pathOf(unit);
    if (path === undefined) return { fallback: 'a changed unit without a URL' };
    fresh.set(path, unit);
    byPath.set(path, unit);
  }
  for (const path of log.listed) if (!fresh.has(path)) return { fallback: `${path} changed but is not in the list` };
  if (log.committed && commitsListed !== true) {
    for (const [at, unit] of previous.entries()) {
      if ((unit as { pending?: unknown }).pending === true && !fresh.has(previousPaths[at]!)) return { fallback: 'a commit may have cleared pending' };
    }
  }
  if (total === undefined || byPath.size !== total) return { fallback: `${byPath.size} units merged, the translation's total says ${total}` };
  // The previous units kept as they are, and the changed ones (each once) that replace or join them.
  const kept = previous.filter((_, at) => !fresh.has(previousPaths[at]!));
  return { units: [...byPath.values()], kept, fresh: [...fresh.values()] };
}
