import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files share one server and change it as they go: the comparison with the reference server
 * reads it as seeded, so it runs first; the edits (a component removed, a string removed, a
 * language added) would change what the others count, so they run last.
 */
const order = ['reference-parity', 'crawl', 'figures', 'public', 'throttle', 'edits'];

class SeededStateFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const found = order.findIndex((name) => file.moduleId.endsWith(`/${name}.test.ts`));
      return found === -1 ? order.indexOf('edits') - 0.5 : found;
    };
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * `npm run test:weblate`: the scenarios against a real Weblate (test/weblate/README.md). One
 * server for the whole run, started and seeded by the global set-up; files run one after
 * another, in the order above, because they share its throttle counters and its data.
 */
export default defineConfig({
  test: {
    include: ['test/weblate/**/*.test.ts'],
    globalSetup: ['test/weblate/global-setup.ts'],
    fileParallelism: false,
    sequence: { sequencer: SeededStateFirst },
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
