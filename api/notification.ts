import { z } from 'zod';
import { component } from './component.ts';
import { project } from './project.ts';

/** Every notification kind the API description names, spelled as the server spells them
 * (their typos included: `…Notificaton` is Weblate's own spelling). */
export const notificationKinds = [
  'MentionCommentNotificaton',
  'LastAuthorCommentNotificaton',
  'NewAnnouncementNotificaton',
  'MergeFailureNotification',
  'ParseErrorNotification',
  'NewTranslationNotificaton',
  'NewAlertNotificaton',
  'NewStringNotificaton',
  'NewContributorNotificaton',
  'NewSuggestionNotificaton',
  'NewCommentNotificaton',
  'ChangedStringNotificaton',
  'TranslatedStringNotificaton',
  'ApprovedStringNotificaton',
  'PendingSuggestionsNotification',
  'ToDoStringsNotification',
  'NewComponentNotificaton',
  'RepositoryNotification',
  'LockNotification',
] as const;

/** Scope: 0 all, 10 watched, 20 administered, 30 project, 40 component. Frequency: 0 none … 4 monthly. */
export const notification = z.looseObject({
  id: z.number().int(),
  notification: z.string(),
  scope: z.number().int(),
  frequency: z.number().int(),
  project: project.nullable(),
  component: component.nullable(),
});

export type Notification = z.infer<typeof notification>;
