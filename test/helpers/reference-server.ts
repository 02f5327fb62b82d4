import { afterAll, beforeAll } from 'vitest';
import { MemoryModel } from '../../reference-server/memory-model.ts';
import type { Model } from '../../reference-server/model.ts';
import { type ReferenceServer, type ReferenceServerOptions, startReferenceServer } from '../../reference-server/server.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';

export type { ReferenceServer } from '../../reference-server/server.ts';

export interface TestServerOptions extends Omit<ReferenceServerOptions, 'model' | 'host' | 'port'> {
  /**
   * `fixture` (the default: 2 projects, 3 components, 30 units, fast), `bundled` (the real
   * catalogs, 20k+ units), or any model.
   */
  data?: 'fixture' | 'bundled' | Model;
  /** Clock of the data's mutations (change and unit timestamps), for deterministic tests. */
  clock?: () => Date;
}

/** A fresh model over the tiny fixture rows, with the mutation hook. */
export function fixtureModel(clock?: () => Date): MemoryModel {
  return new MemoryModel(fixtureRows(), clock ? { now: clock } : {});
}

/** A fresh model over the bundled real catalogs, with the mutation hook. */
export async function bundledModel(clock?: () => Date): Promise<MemoryModel> {
  const { loadBundledRows } = await import('../../reference-server/data/bundled.ts');
  return new MemoryModel(loadBundledRows(), clock ? { now: clock } : {});
}

/**
 * Starts a reference server on 127.0.0.1, port 0. Close it when done (`await server.close()`),
 * or use `useReferenceServer` to have that done after the file's tests.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<ReferenceServer> {
  // The server's own default profile (weblate-5.4): a test that wants the tidy server says so.
  const { data = 'fixture', clock, ...rest } = options;
  const model = data === 'fixture' ? fixtureModel(clock) : data === 'bundled' ? await bundledModel(clock) : data;
  return startReferenceServer({ ...rest, model, host: '127.0.0.1', port: 0 });
}

/**
 * One server for every test of the calling file: started in `beforeAll`, closed in `afterAll`.
 * Returns a getter, valid inside tests: `const server = useReferenceServer(); … server().url`.
 */
export function useReferenceServer(options: TestServerOptions = {}): () => ReferenceServer {
  let server: ReferenceServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the reference server is not started yet: call the getter inside a test, not at collection time');
    return server;
  };
}
