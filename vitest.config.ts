import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real-Weblate tier needs Python and PostgreSQL: `npm run test:weblate` runs it.
    exclude: ['test/weblate/**', '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: browser and crawl tests each start servers; more workers only thrash.
    maxWorkers: 2,
  },
});
