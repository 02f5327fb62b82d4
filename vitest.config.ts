import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: browser and crawl tests each start servers; more workers only thrash.
    maxWorkers: 2,
  },
});
