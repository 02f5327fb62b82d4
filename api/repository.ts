import { z } from 'zod';

/**
 * `repository/` of a project, component or translation. Not in the description; real servers
 * send the three flags (components and translations add `status`, `remote_commit`, `merge_failure`).
 */
export const repositoryStatus = z.looseObject({
  needs_commit: z.boolean(),
  needs_merge: z.boolean(),
  needs_push: z.boolean(),
});

/** A component's `lock/`. */
export const componentLock = z.looseObject({ locked: z.boolean() });

export type RepositoryStatus = z.infer<typeof repositoryStatus>;
export type ComponentLock = z.infer<typeof componentLock>;
