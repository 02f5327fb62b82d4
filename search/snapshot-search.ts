/** Moved to search-index/snapshot-search.ts (issue 25); this door stays until cli/search.ts imports it from there. */
export * from '../search-index/snapshot-search.ts';
