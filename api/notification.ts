import { z } from 'zod';
import { component } from './component.ts';
import { project } from './project.ts';

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
