import { z } from 'zod';
import { resource } from './fields.ts';
import { timestamp, url } from './common.ts';

/**
 * Action codes and the English `action_name` Weblate 5.4 gives them (its ACTION_CHOICES, as
 * restated in docs/weblate-api.md), one row `[code, key, name]` per action: the one source
 * every table below derives from, with `laterActionRows`. Newer servers add codes: unknown
 * ones are kept as numbers.
 */
const actionRows = [
  [0, 'resourceUpdated', 'Resource updated'],
  [1, 'translationCompleted', 'Translation completed'],
  [2, 'translationChanged', 'Translation changed'],
  [3, 'commentAdded', 'Comment added'],
  [4, 'suggestionAdded', 'Suggestion added'],
  [5, 'translationAdded', 'Translation added'],
  [6, 'automaticallyTranslated', 'Automatically translated'],
  [7, 'suggestionAccepted', 'Suggestion accepted'],
  [8, 'translationReverted', 'Translation reverted'],
  [9, 'translationUploaded', 'Translation uploaded'],
  [13, 'sourceStringAdded', 'Source string added'],
  [14, 'componentLocked', 'Component locked'],
  [15, 'componentUnlocked', 'Component unlocked'],
  [17, 'changesCommitted', 'Changes committed'],
  [18, 'changesPushed', 'Changes pushed'],
  [19, 'repositoryReset', 'Repository reset'],
  [20, 'repositoryMerged', 'Repository merged'],
  [21, 'repositoryRebased', 'Repository rebased'],
  [22, 'repositoryMergeFailed', 'Repository merge failed'],
  [23, 'repositoryRebaseFailed', 'Repository rebase failed'],
  [24, 'parsingFailed', 'Parsing failed'],
  [25, 'translationRemoved', 'Translation removed'],
  [26, 'suggestionRemoved', 'Suggestion removed'],
  [27, 'translationReplaced', 'Translation replaced'],
  [28, 'repositoryPushFailed', 'Repository push failed'],
  [29, 'suggestionRemovedDuringCleanup', 'Suggestion removed during cleanup'],
  [30, 'sourceStringChanged', 'Source string changed'],
  [31, 'stringAdded', 'String added'],
  [32, 'bulkStatusChanged', 'Bulk status changed'],
  [33, 'visibilityChanged', 'Visibility changed'],
  [34, 'userAdded', 'User added'],
  [35, 'userRemoved', 'User removed'],
  [36, 'translationApproved', 'Translation approved'],
  [37, 'markedForEdit', 'Marked for edit'],
  [38, 'componentRemoved', 'Component removed'],
  [39, 'projectRemoved', 'Project removed'],
  [41, 'projectRenamed', 'Project renamed'],
  [42, 'componentRenamed', 'Component renamed'],
  [43, 'movedComponent', 'Moved component'],
  [45, 'contributorJoined', 'Contributor joined'],
  [46, 'announcementPosted', 'Announcement posted'],
  [47, 'alertTriggered', 'Alert triggered'],
  [48, 'languageAdded', 'Language added'],
  [49, 'languageRequested', 'Language requested'],
  [50, 'projectCreated', 'Project created'],
  [51, 'componentCreated', 'Component created'],
  [52, 'userInvited', 'User invited'],
  [53, 'repositoryNotificationReceived', 'Repository notification received'],
  [54, 'translationReplacedFileByUpload', 'Translation replaced file by upload'],
  [55, 'licenseChanged', 'License changed'],
  [56, 'contributorAgreementChanged', 'Contributor agreement changed'],
  [57, 'screenshotAdded', 'Screenshot added'],
  [58, 'screenshotUploaded', 'Screenshot uploaded'],
  [59, 'stringUpdatedInTheRepository', 'String updated in the repository'],
  [60, 'addOnInstalled', 'Add-on installed'],
  [61, 'addOnConfigurationChanged', 'Add-on configuration changed'],
  [62, 'addOnUninstalled', 'Add-on uninstalled'],
  [63, 'stringRemoved', 'String removed'],
  [64, 'commentRemoved', 'Comment removed'],
  [65, 'commentResolved', 'Comment resolved'],
  [66, 'explanationUpdated', 'Explanation updated'],
  [67, 'categoryRemoved', 'Category removed'],
  [68, 'categoryRenamed', 'Category renamed'],
  [69, 'categoryMoved', 'Category moved'],
  [70, 'savingStringFailed', 'Saving string failed'],
  [71, 'stringAddedInTheRepository', 'String added in the repository'],
  [72, 'stringUpdatedInTheUpload', 'String updated in the upload'],
  [73, 'stringAddedInTheUpload', 'String added in the upload'],
  [74, 'translationUpdatedBySourceUpload', 'Translation updated by source upload'],
] as const;

/**
 * Codes added after 5.4, named as Weblate's source names them (weblate/trans/actions.py,
 * ActionEvents). Kept apart from `changeActions` until the site's catalogs (src/i18n) name them
 * in every language: until then the site shows them as numbers, as any unknown code.
 */
const laterActionRows = [
  [75, 'componentTranslationCompleted', 'Component translation completed'],
  [76, 'appliedEnforcedCheck', 'Applied enforced check'],
  [77, 'propagatedChange', 'Propagated change'],
  [78, 'fileUploaded', 'File uploaded'],
  [79, 'extraFlagsUpdated', 'Extra flags updated'],
  [80, 'fontUploaded', 'Font uploaded'],
  [81, 'fontChanged', 'Font changed'],
  [82, 'fontRemoved', 'Font removed'],
  [83, 'forcedSynchronization', 'Forced synchronization of translations'],
  [84, 'forcedRescan', 'Forced rescan of translations'],
  [85, 'screenshotRemoved', 'Screenshot removed'],
  [86, 'labelAdded', 'Label added'],
  [87, 'labelRemoved', 'Label removed'],
  [88, 'repositoryCleanup', 'Repository cleanup'],
] as const;

type ActionRow = (typeof actionRows)[number] | (typeof laterActionRows)[number];

/** Codes Weblate never uses (retired before 5.4): the 2026 list runs 0–104 without them (docs/weblate-api.md, Values). */
const retiredActions: readonly number[] = [10, 11, 12, 16, 40, 44];

/**
 * The codes each server accepts as an `action=` filter (its ACTION_CHOICES): 5.4's, and the
 * 2026 releases' 0–104, of which codes 89–104 have no name here (shown as numbers).
 */
export const actionCodes = {
  '5.4': new Set<number>(actionRows.map(([code]) => code)),
  '2026': new Set(Array.from({ length: 105 }, (_, code) => code).filter((code) => !retiredActions.includes(code))),
} as const satisfies Record<string, ReadonlySet<number>>;

/** Action codes by name, for code that records or recognizes one: `action.componentRemoved` is 38. */
export const action = Object.fromEntries([...actionRows, ...laterActionRows].map(([code, key]) => [key, code])) as {
  readonly [Row in ActionRow as Row[1]]: Row[0];
};

/** The English name of each code of 5.4's list. */
export const changeActions: Readonly<Record<number, string>> = Object.fromEntries(actionRows.map(([code, , name]) => [code, name]));

/** The English name of each code added since, 75–88 (a 2026 server's `action_name`). */
export const laterActionNames: Readonly<Record<number, string>> = Object.fromEntries(laterActionRows.map(([code, , name]) => [code, name]));

/**
 * A change action in words. Snapshots keep the server's localized `action_name` too, but what
 * tmsnap shows must not depend on the crawl's Accept-Language: known codes use these names,
 * unknown ones the raw code.
 */
export function actionName(code: number): string {
  return changeActions[code] ?? `action ${code}`;
}

export const changeFields = resource(
  'change',
  {
    id: z.number().int(),
    unit: url.nullable(),
    component: url.nullable(),
    translation: url.nullable(),
    user: url.nullable(),
    author: url.nullable(),
    timestamp,
    action: z.number().int(),
    target: z.string(),
    url,
  },
  {
    action_name: z.string(),
    old: z.string(),
    details: z.unknown(),
  },
);

export const change = changeFields.schema;

export type Change = z.infer<typeof change>;
