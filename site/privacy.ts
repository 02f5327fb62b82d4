/** Moved to site-model/privacy.ts (issue 25); this door stays until cli/ imports it from there. */
export * from '../site-model/privacy.ts';
