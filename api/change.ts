import { z } from 'zod';
import { timestamp, url } from './common.ts';

/**
 * Action codes and the English `action_name` Weblate gives them (the description's table, the
 * rest from weblate-api-facts.md). The server's list is longer: unknown codes are kept as numbers.
 */
export const changeActions = {
  0: 'Resource update',
  1: 'Translation completed',
  2: 'Translation changed',
  3: 'Comment added',
  4: 'Suggestion added',
  5: 'Translation added',
  6: 'Automatically translated',
  7: 'Suggestion accepted',
  9: 'Translation uploaded',
  13: 'Source string added',
  14: 'Component locked',
  15: 'Component unlocked',
  17: 'Changes committed',
  18: 'Changes pushed',
  21: 'Rebased repository',
  24: 'Parsing failed',
  30: 'Source string changed',
  31: 'String added',
  36: 'Translation approved',
  37: 'Marked for edit',
  38: 'Removed component',
  45: 'Contributor joined',
  48: 'Added new language',
  50: 'Created project',
  51: 'Created component',
  59: 'String updated in the repository',
  63: 'String removed',
  71: 'String added in the repository',
} as const satisfies Record<number, string>;

/**
 * A change action in words. Snapshots keep the server's localized `action_name` too, but what
 * tmsnap shows must not depend on the crawl's Accept-Language: known codes use these names,
 * unknown ones the raw code.
 */
export function actionName(action: number): string {
  return (changeActions as Record<number, string>)[action] ?? `action ${action}`;
}

export const change = z.looseObject({
  id: z.number().int(),
  unit: url.nullable(),
  component: url.nullable(),
  translation: url.nullable(),
  user: url.nullable(),
  author: url.nullable(),
  timestamp,
  action: z.number().int(),
  action_name: z.string(),
  target: z.string(),
  url,
});

export type Change = z.infer<typeof change>;
