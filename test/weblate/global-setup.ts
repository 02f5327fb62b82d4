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

type Started = { server: RealWeblate; seeded: Seeded; seconds: number };

/**
 * The servers of this run by release. Vitest runs the projects' set-ups one after another, each
 * from its own module instance; the first starts every release of the run, so that the servers
 * start and seed side by side instead of one after the other (set-up is mostly waiting on Weblate).
 */
const servers = ((globalThis as { tmsnapWeblateServers?: Map<string, Promise<Started>> }).tmsnapWeblateServers ??= new Map());

function isRelease(name: string): name is WeblateRelease {
  return name === 'newest' || (weblateReleases as readonly string[]).includes(name);
}

async function startAndSeed(release: WeblateRelease): Promise<Started> {
  const started = Date.now();
  const server = await startRealWeblate(release);
  const seeded = await seedWeblate(server).catch(async (error: Error) => {
    const log = server.log().slice(-3000);
    await server.close();
    throw new Error(`${error.message}\n${log}`);
  });
  return { server, seeded, seconds: (Date.now() - started) / 1000 };
}

/** Each project of vitest.weblate.config.ts is named by its release and gets a server of its own. */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  for (const name of project.vitest.projects.map((p) => p.name)) {
    if (!isRelease(name)) throw new Error(`test:weblate: no release "${name}"; releases: ${weblateReleases.join(', ')}, newest`);
    if (servers.has(name)) continue;
    const starting = startAndSeed(name);
    starting.catch(() => undefined); // reported by the set-up that awaits it
    servers.set(name, starting);
  }
  const release = project.name as WeblateRelease;
  const { server, seeded, seconds } = await servers.get(release)!;
  console.log(`test:weblate: Weblate ${server.version} at ${server.url}, started and seeded in ${seconds.toFixed(1)} s`);
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
  return () => server.close();
}
