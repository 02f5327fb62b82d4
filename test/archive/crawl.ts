import { join } from 'node:path';
import { redateSnapshot } from '../../cli/demo-nights.ts';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { fixtureModel, startTestServer, type ReferenceServer } from '../helpers/reference-server.ts';
import { randomActivity } from './activity.ts';

/** The key `historyServer` accepts; a server started without tokens reads a crawl sending it as anonymous. */
export const TEST_TOKEN = 'wlu_archive_test';

/** A 5.4 server over `model` read with `TEST_TOKEN` at raised limits: a history is many crawls (100 requests a day anonymous). */
export function historyServer(model: MemoryModel): Promise<ReferenceServer> {
  return startTestServer({ data: model, behaviours: { tokens: [TEST_TOKEN], rateLimit: raisedRateLimit } });
}

/** One full crawl of a reference server into `contentDir`, sending `TEST_TOKEN`; fails the test unless the snapshot is complete. */
export async function crawlInto(server: ReferenceServer, contentDir: string): Promise<string> {
  return (await crawlComplete(server, contentDir, { token: TEST_TOKEN })).snapshotId;
}

/** Moves a finished snapshot to another date: the demo's nights do it too (cli/demo-nights.ts). */
export const redate = redateSnapshot;

/**
 * A content folder with one snapshot per date, translator activity (and, once, structural
 * changes) between them: a crawl of the fixture server per date. Returns the ids, oldest first.
 */
export async function crawlHistory(content: string, dates: readonly Date[], seed: number): Promise<string[]> {
  const model = fixtureModel();
  const server = await historyServer(model);
  try {
    const ids: string[] = [];
    for (const [index, date] of dates.entries()) {
      if (index > 0) randomActivity(model, seed + index, { unitMutations: 4, structural: index === 2 });
      ids.push(await redate(content, await crawlInto(server, content), date));
    }
    return ids;
  } finally {
    await server.close();
  }
}

/**
 * The fixture rows with two more users whose names hold e-mail addresses (issue 26, credits),
 * on the given clock, and a unit's id by component, language and position.
 */
export function creditsModel(now: () => Date): { model: MemoryModel; unitId: (component: number, language: string, position: number) => number } {
  const rows = fixtureRows();
  const model = new MemoryModel(
    {
      ...rows,
      users: [
        ...rows.users,
        { id: 4, username: 'jane@example.org', full_name: 'jane@example.org' },
        { id: 5, username: 'carol', full_name: 'Carol <carol@example.org>' },
      ],
    },
    { now },
  );
  const unitId = (component: number, language: string, position: number) => {
    const translation = model.translations().find((row) => row.componentId === component && row.languageCode === language)!;
    return model.units(translation.id, 0, 100).find((unit) => unit.position === position)!.id;
  };
  return { model, unitId };
}
