import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * `npm run test:unit`: the suite without the files that drive a browser, build a site with Astro,
 * run the CLI in child processes or crawl and store at size. Each of those took over 8 s on two
 * cores (docs/decisions/2026-11-26-unit-tier.md); a new test file joins this tier unless listed.
 */
const slow = {
  browser: ['test/search/*browser*.test.ts', 'test/search/first-results.test.ts', 'test/archive/site.test.ts'],
  site: ['test/site/{bulk-pages,bulk-writers,concurrent-build,pipeline,published-pages,publishing,scope,site,source-string-page,ui-language}.test.ts'],
  processes: [
    'test/cli/**',
    'test/e2e/**',
    'test/package/**',
    'test/publishing/**',
    'test/docs/**',
    'test/search/cli.test.ts',
    'test/reference-server/{cli,wlc}.test.ts',
  ],
  crawls: [
    'test/crawler/{crawl,first-request,http-client,incremental-components,issue-11,long-resources,page-json,replay,resume,stop-line,weblate-2026,weblate-5.4}.test.ts',
    'test/archive/{deltas,diff,format4,incremental,leftovers,mixed,store-tools}.test.ts',
  ],
  size: [
    'test/bench/**',
    'test/reference-server/{behaviours,bundled-data,datasets,parity-5.14,synthetic,synthetic-10m,synthetic-indexes}.test.ts',
    'test/search/{bundled,text-index}.test.ts',
    'test/snapshot/{base-use,crash,disk-full,inline-held,migrate,pinned-bytes,real-records,sibling-bases,store,writers}.test.ts',
  ],
};

export default mergeConfig(
  base,
  defineConfig({
    test: { exclude: Object.values(slow).flat() },
  }),
);
