/**
 * The fake Weblate server, for tmsnap's commands that run it (`tmsnap reference-server`, `tmsnap
 * demo`): the datasets it serves have entry points of their own (`./datasets`, `./bundled`,
 * `./synthetic`), so that loading the server reads no data (README.md, "Entry points").
 */
export { type Behaviours, type ReferenceServer, type ReferenceServerOptions, startReferenceServer } from './server.ts';
export { DEFAULT_PROFILE, type ProfileName, isProfileName, profileNames, profiles } from './profiles.ts';
export { type RateLimit, raisedRateLimit, weblateRateLimit } from './rate-limit.ts';
export type { Faults } from './faults.ts';
export { activityNames, runActivity } from './activity.ts';
export { type ActivityModel, isActivityModel } from './memory-model.ts';
export type { Model, UnitRow } from './model.ts';
