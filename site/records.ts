/** Moved to site-model/records.ts (issue 25); this door stays until bench/ imports it from there. */
export * from '../site-model/records.ts';
