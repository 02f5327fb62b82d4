import type { TestProject } from 'vitest/node';
import { type Seeded, seedWeblate } from './seed.ts';
import { type RealWeblate, type WeblateRelease, startRealWeblate, weblateReleases } from './server.ts';

/** What every scenario of the tier reads with `inject('weblate')`. */
export interface WeblateUnderTest extends Seeded {
  /** The release the project asked for (`2026.10.1`, `5.14.3`, `newest`); `version` is what installed. */
  release: WeblateRelease;
  /** Whether this release runs every scenario, or only the core that the older release keeps. */
  everyScenario: boolean;
  url: string;
  version: string;
  cachePrefix: string;
  venv: string;
  shellEnv: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    weblate: WeblateUnderTest;
  }
}

/** Each project of vitest.weblate.config.ts is named by its release and gets a server of its own. */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const release = project.name as WeblateRelease;
  if (release !== 'newest' && !(weblateReleases as readonly string[]).includes(release))
    throw new Error(`test:weblate: no release "${project.name}"; releases: ${weblateReleases.join(', ')}, newest`);
  const started = Date.now();
  const server: RealWeblate = await startRealWeblate(release);
  const seeded = await seedWeblate(server).catch((error: Error) => {
    throw new Error(`${error.message}\n${server.log().slice(-3000)}`);
  });
  console.log(`test:weblate: Weblate ${server.version} at ${server.url}, started and seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('weblate', {
    release,
    everyScenario: release === weblateReleases[0],
    url: server.url,
    version: server.version,
    cachePrefix: server.cachePrefix,
    venv: server.venv,
    shellEnv: server.shellEnv,
    ...seeded,
  });
  // Returned rather than kept in a module variable: the projects' set-ups may share this module.
  return () => server.close();
}
