import { afterAll, beforeAll } from 'vitest';
import { allLanguages } from '../../packages/reference-server/all-languages.ts';
import { MemoryModel, type ModelRows } from '../../packages/reference-server/memory-model.ts';
import type { Model } from '../../packages/reference-server/model.ts';
import { type ReferenceServer, type ReferenceServerOptions, startReferenceServer } from '../../packages/reference-server/server.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';

export type { ReferenceServer } from '../../packages/reference-server/server.ts';

export interface TestServerOptions extends Omit<ReferenceServerOptions, 'model' | 'host' | 'port'> {
  /**
   * `fixture` (the default: 2 projects, 3 components, 30 units, fast), `bundled` (the real
   * catalogs, 20k+ units), or any model.
   */
  data?: 'fixture' | 'bundled' | Model;
  /**
   * `all`: the fixture or bundled data lists every language a real server knows (652, nearly
   * all without a translation; packages/reference-server/all-languages.ts), not only those in use.
   */
  languages?: 'used' | 'all';
  /** Clock of the data's mutations (change and unit timestamps), for deterministic tests. */
  clock?: () => Date;
}

function everyLanguage(rows: ModelRows, languages: 'used' | 'all'): ModelRows {
  return languages === 'all' ? { ...rows, languages: allLanguages(rows.languages) } : rows;
}

/** A fresh model over the tiny fixture rows, with the mutation hook. */
export function fixtureModel(clock?: () => Date, languages: 'used' | 'all' = 'used'): MemoryModel {
  return new MemoryModel(everyLanguage(fixtureRows(), languages), clock ? { now: clock } : {});
}

/** A fresh model over the bundled real catalogs, with the mutation hook. */
export async function bundledModel(clock?: () => Date, languages: 'used' | 'all' = 'used'): Promise<MemoryModel> {
  const { loadBundledRows } = await import('../../packages/reference-server/data/bundled.ts');
  return new MemoryModel(everyLanguage(loadBundledRows(), languages), clock ? { now: clock } : {});
}

/**
 * Starts a reference server on 127.0.0.1, port 0. Close it when done (`await server.close()`),
 * or use `useReferenceServer` to have that done after the file's tests.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<ReferenceServer> {
  // The server's own default profile (weblate-5.4): a test that wants the tidy server says so.
  const { data = 'fixture', clock, languages = 'used', ...rest } = options;
  if (typeof data === 'object' && languages === 'all')
    throw new Error('languages: "all" applies to the fixture and bundled data; build a model with allLanguages() instead');
  const model = data === 'fixture' ? fixtureModel(clock, languages) : data === 'bundled' ? await bundledModel(clock, languages) : data;
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

/** Runs `run` against a server started for it alone (`startTestServer(options)`), closed afterwards whatever happens. */
export async function withTestServer<T>(options: TestServerOptions, run: (server: ReferenceServer) => Promise<T>): Promise<T> {
  const server = await startTestServer(options);
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}
