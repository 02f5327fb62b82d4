import type { TestProject } from 'vitest/node';
import { type Seeded, seedWeblate } from './seed.ts';
import { type RealWeblate, startRealWeblate } from './server.ts';

/** What every scenario of the tier reads with `inject('weblate')`. */
export interface WeblateUnderTest extends Seeded {
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

let server: RealWeblate | undefined;

export async function setup(project: TestProject): Promise<void> {
  const started = Date.now();
  server = await startRealWeblate();
  const seeded = await seedWeblate(server).catch((error: Error) => {
    throw new Error(`${error.message}\n${server!.log().slice(-3000)}`);
  });
  console.log(`test:weblate: Weblate ${server.version} at ${server.url}, started and seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('weblate', {
    url: server.url,
    version: server.version,
    cachePrefix: server.cachePrefix,
    venv: server.venv,
    shellEnv: server.shellEnv,
    ...seeded,
  });
}

export async function teardown(): Promise<void> {
  await server?.close();
}
