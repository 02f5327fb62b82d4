import { z } from 'zod';
import type { ActivityModel } from './memory-model.ts';
import type { ChangeRow } from './model.ts';

/**
 * `POST /_activity/<action>` bodies: translator activity a separate process (bench, demo)
 * simulates over HTTP. Ids are the API's ids; `user` is a username.
 */
const id = z.number().int().positive();
const user = z.string().min(1);

const actions = {
  translate: {
    body: z.strictObject({ unit: id, target: z.array(z.string()).min(1), user }),
    run: (model: ActivityModel, body: { unit: number; target: string[]; user: string }) => model.translate(body.unit, body.target, body.user),
  },
  'mark-for-edit': {
    body: z.strictObject({ unit: id, user }),
    run: (model: ActivityModel, body: { unit: number; user: string }) => model.markForEdit(body.unit, body.user),
  },
  approve: {
    body: z.strictObject({ unit: id, user }),
    run: (model: ActivityModel, body: { unit: number; user: string }) => model.approve(body.unit, body.user),
  },
  'add-language': {
    body: z.strictObject({ component: id, code: z.string().min(1), user }),
    run: (model: ActivityModel, body: { component: number; code: string; user: string }) => model.addLanguage(body.component, body.code, body.user),
  },
  'add-string': {
    body: z.strictObject({
      component: id,
      source: z.array(z.string()).min(1),
      context: z.string().optional(),
      note: z.string().optional(),
      location: z.string().optional(),
      flags: z.string().optional(),
      user,
    }),
    run: (model: ActivityModel, { component, user: username, ...string }: { component: number; user: string; source: string[] }) =>
      model.addString(component, string, username),
  },
  'remove-string': {
    body: z.strictObject({ unit: id, user }),
    run: (model: ActivityModel, body: { unit: number; user: string }) => model.removeString(body.unit, body.user),
  },
  'remove-component': {
    body: z.strictObject({ component: id, user }),
    run: (model: ActivityModel, body: { component: number; user: string }) => model.removeComponent(body.component, body.user),
  },
} as const;

export const activityNames = Object.keys(actions);

/** A request the activity endpoint refuses; the message names the action or field at fault. */
export class ActivityRequestError extends Error {
  override name = 'ActivityRequestError';
}

export function runActivity(model: ActivityModel, action: string, body: unknown): ChangeRow[] {
  const entry = (actions as Record<string, { body: z.ZodType; run: (model: ActivityModel, body: never) => ChangeRow[] }>)[action];
  if (!entry) throw new ActivityRequestError(`unknown activity "${action}"; one of: ${activityNames.join(', ')}`);
  const parsed = entry.body.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
    throw new ActivityRequestError(`bad body for "${action}": ${issues}`);
  }
  return entry.run(model, parsed.data as never);
}
