import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files share their release's server and change it as they go: the comparison with the
 * reference server reads it as seeded, so it runs first; the edits (a component removed, a
 * string removed, a language added) would change what the others count, so they run last.
 */
const order = ['reference-parity', 'crawl', 'figures', 'public', 'throttle', 'changed-since', 'edits'];

class SeededStateFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const found = order.findIndex((name) => file.moduleId.endsWith(`/${name}.test.ts`));
      return found === -1 ? order.indexOf('edits') - 0.5 : found;
    };
    // One release after the other: each has its own server, started by its project's set-up.
    const release = (file: TestSpecification) => (file.project.name === releases[0] ? 0 : 1);
    return [...files].sort((a, b) => release(a) - release(b) || rank(a) - rank(b));
  }
}

/** The newest release that installs here runs every scenario; the older one we support, the core. */
const releases = ['2026.10.1', '5.14.3'] as const;
const older = ['reference-parity', 'crawl', 'figures', 'edits'].map((name) => `test/weblate/${name}.test.ts`);

/**
 * The canary (`npm run test:weblate -- --project newest`): the newest Weblate on PyPI, without the
 * date cap, meets the whole-instance crawl and the figures walk. It is a project only when asked
 * by name, so a plain run never installs an unpinned release.
 */
const canary = process.argv.includes('newest');

function project(name: string, include: string[]) {
  return {
    extends: true as const,
    test: { name, include, globalSetup: ['test/weblate/global-setup.ts'] },
  };
}

/**
 * `npm run test:weblate`: the scenarios against real Weblate releases (test/weblate/README.md).
 * One server per release, started and seeded by its project's global set-up; files run one after
 * another, in the order above, because they share its throttle counters and its data.
 */
export default defineConfig({
  test: {
    projects: [
      project(releases[0], ['test/weblate/**/*.test.ts']),
      project(releases[1], older),
      ...(canary ? [project('newest', ['test/weblate/crawl.test.ts', 'test/weblate/figures.test.ts'])] : []),
    ],
    fileParallelism: false,
    sequence: { sequencer: SeededStateFirst },
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
