import { defineConfig } from 'vitest/config';

/**
 * `npm run test:weblate`: the scenarios against a real Weblate (test/weblate/README.md). One
 * server for the whole run, started and seeded by the global set-up; files run one after
 * another because they share its throttle counters and its data.
 */
export default defineConfig({
  test: {
    include: ['test/weblate/**/*.test.ts'],
    globalSetup: ['test/weblate/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
