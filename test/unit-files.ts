/**
 * The files of `npm run test:unit` (vitest.unit.config.ts), and no other. A file joins by being
 * listed, so a new test runs in `npm test` only until someone decides it is fast
 * (docs/decisions/2026-11-28-unit-tier-line.md). A listed file drives no browser, builds no site,
 * starts no Node child process (the CLI's way), and crawls no instance at size (the 12,000-change
 * history instances and up); test/unit-tier.test.ts checks the first three by what it imports.
 */
export const unitFiles = [
  'test/api/paths.test.ts',
  'test/archive/{credits,drift,levels,release-counts,retention}.test.ts',
  'test/crawler/{changed-units-merge,cut-translations,json,links-plain,links,max-requests,plan,request-queue,scope}.test.ts',
  'test/reference-server/{endpoints,filters,hash,json,mutations,pagination,po-file,profile-2026,profile-5.14,profile-5.4,profiles}.test.ts',
  'test/search/{build,query,routing,target-index,text,url-state}.test.ts',
  'test/site/{boundaries,consistency-model,help-needed-logic,i18n,link-check,logic,names,output-unit-table,privacy,scope-records}.test.ts',
  'test/snapshot/{canonical,carry,delta,format2,journal-lines,normalize,previous-shared,read-check,store-read,unit-json,writer-reader}.test.ts',
  'test/unit-tier.test.ts',
];
