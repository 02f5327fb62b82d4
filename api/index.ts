/**
 * The one contract every stage shares: zod schemas for each resource of the API
 * (docs/weblate-api.md says how a server behaves). Objects are loose: fields a
 * newer server adds pass through untouched, and only the fields some stage reads are
 * validated; the rest are kept as data and measured for drift (api/fields.ts).
 */
export * from './announcement.ts';
export * from './change.ts';
export * from './common.ts';
export * from './component.ts';
export * from './fields.ts';
export * from './json.ts';
export * from './language.ts';
export * from './notification.ts';
export * from './project.ts';
export * from './repository.ts';
export * from './root.ts';
export * from './states.ts';
export * from './statistics.ts';
export * from './suggestion.ts';
export * from './translation.ts';
export * from './unit.ts';
export * from './user.ts';
export * from './paths.ts';
