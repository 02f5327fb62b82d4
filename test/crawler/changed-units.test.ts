import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CrawlResult } from '../../crawler/crawl.ts';
import type { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import { type ReferenceServer, startReferenceServer } from '../../packages/reference-server/server.ts';
import { createSyntheticModel, parseSyntheticSpec } from '../../packages/reference-server/synthetic/index.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { crawlComplete, crawlReferenceServer } from '../helpers/crawl.ts';
import { fixtureModel } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';

/**
 * Issue 27, a night after edits: an incremental crawl takes the touched translations' units from
 * the previous snapshot merged with one `units/?q=changed:>=T` list (crawler/tasks/changed-units.ts)
 * and stores what a full crawl of a twin server in the same state stores. Twins, as in
 * incremental-components.test.ts: the crawls' own downloads commit pending edits, so the state the
 * incremental crawl read can only be crawled in full again on a second server given the same edits.
 */

const token = 'wlu_changed_units';
const folder = useTempFolders('tmsnap-changed-units-', 'all');

/** A synthetic instance served on `port` (0: any): a second one on the same port is that instance a night later. */
function serveSynthetic(spec: string, port = 0): Promise<ReferenceServer> {
  return startReferenceServer({ model: createSyntheticModel(parseSyntheticSpec(spec)), behaviours: { tokens: [token] }, host: '127.0.0.1', port });
}

type Activity = (model: MemoryModel) => { edited: string[]; removedFrom: string[] };

/** The snapshot path of a translation, as the crawl stores it. */
function translationPath(model: MemoryModel, translationId: number): string {
  const translation = model.translations().find((row) => row.id === translationId)!;
  const component = model.components().find((row) => row.id === translation.componentId)!;
  const project = model.projects().find((row) => row.id === component.projectId)!;
  return `api/translations/${project.slug}/${component.slug}/${translation.languageCode}/`;
}

/** Translates one unit in each of the first `count` translations that have an editable one; answers their paths. */
function editTranslations(model: MemoryModel, count: number, user: string): string[] {
  const edited: string[] = [];
  for (const translation of model.translations()) {
    if (edited.length >= count) break;
    const unit = model.units(translation.id, 0, model.unitCount(translation.id)).find((row) => row.sourceUnitId !== row.id && row.state !== 100);
    if (unit === undefined) continue;
    model.translate(
      unit.id,
      unit.target.map((_, form) => `edited tonight ${form}`),
      user,
    );
    edited.push(translationPath(model, translation.id));
  }
  return edited;
}

const editsOnly: Activity = (model) => ({ edited: editTranslations(model, 4, model.users()[0]!.username), removedFrom: [] });

/** Edits, and one string removed from a component: its translations must fall back to their own `units/`. */
const editsAndRemoval: Activity = (model) => {
  const user = model.users()[0]!.username;
  const edited = editTranslations(model, 4, user);
  const component = model.components().find((row) => model.translations().filter((translation) => translation.componentId === row.id).length > 1)!;
  const source = model
    .translations()
    .find((row) => row.componentId === component.id && model.units(row.id, 0, 1)[0]?.sourceUnitId === model.units(row.id, 0, 1)[0]?.id)!;
  const removed = model.units(source.id, 0, 1)[0]!;
  const changes = model.removeString(removed.id, user);
  return { edited, removedFrom: [...new Set(changes.map((change) => translationPath(model, change.translationId!)))] };
};

/** Full crawl, activity, incremental crawl on one server; the same activity and a full crawl on its twin. */
async function incrementalAndFull(activity: Activity) {
  // Pinned an hour back, so the twins stamp the same times and each crawl's window holds every change.
  const pinned = new Date(Date.now() - 60 * 60 * 1000);
  const [model, twin] = [fixtureModel(() => pinned), fixtureModel(() => pinned)];
  const servers: ReferenceServer[] = [];
  const start = async (which: MemoryModel, port = 0) => {
    const server = await startReferenceServer({ model: which, behaviours: { tokens: [token] }, host: '127.0.0.1', port });
    servers.push(server);
    return server;
  };
  try {
    const server = await start(model);
    const content = join(await folder(), 'content');
    await crawlComplete(server, content, { full: true, token });
    const done = activity(model);
    const incremental = await crawlComplete(server, content, { full: false, token });
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    activity(twin);
    const fullContent = join(await folder(), 'content');
    const full = await crawlComplete(await start(twin, Number(new URL(server.url).port)), fullContent, { full: true, token });
    return { ...done, incremental, full, got: await openSnapshot(content, incremental.snapshotId), want: await openSnapshot(fullContent, full.snapshotId) };
  } finally {
    await Promise.all(servers.map((each) => each.close()));
  }
}

function unitsRequests(result: CrawlResult): number {
  return result.requestsByKind.units?.made ?? 0;
}

describe('a night after edits: touched translations merged from the changed units', () => {
  it('stores what a full crawl stores, with one units request in place of one per touched translation', async () => {
    const { edited, incremental, got, want } = await incrementalAndFull(editsOnly);
    expect(edited.length).toBe(4);
    const paths = Object.keys({ ...got.index.records, ...want.index.records });
    expect(paths.filter((path) => got.index.records[path] !== want.index.records[path])).toEqual([]);
    expect(got.index.changes).toEqual(want.index.changes);
    expect(got.manifest.counts).toEqual(want.manifest.counts);
    // Each edited unit is in the incremental snapshot with its new target.
    for (const translation of edited) {
      const targets = (await got.units(translation)).flatMap((unit) => (unit as { target?: string[] }).target ?? []);
      expect(targets, translation).toContain('edited tonight 0');
    }
    // Per translation, the four touched translations cost four `units/` requests; merged, one page of changed units.
    expect(unitsRequests(incremental)).toBe(1);
  }, 120_000);

  it('falls back to a translation’s own units/ where a string was removed, and still stores what a full crawl stores', async () => {
    const { edited, removedFrom, incremental, got, want } = await incrementalAndFull(editsAndRemoval);
    expect(removedFrom.length).toBeGreaterThan(1);
    const paths = Object.keys({ ...got.index.records, ...want.index.records });
    expect(paths.filter((path) => got.index.records[path] !== want.index.records[path])).toEqual([]);
    expect(got.index.changes).toEqual(want.index.changes);
    expect(got.manifest.counts).toEqual(want.manifest.counts);
    // The list, and one `units/` per translation the removal touched; the edited ones elsewhere merged.
    const mergedElsewhere = edited.filter((path) => !removedFrom.includes(path));
    expect(mergedElsewhere.length).toBeGreaterThan(1);
    expect(unitsRequests(incremental)).toBe(1 + removedFrom.length);
  }, 120_000);

  it('on a synthetic instance a night after 2% of its strings were edited (spec key edited=20): one page of changed units, what a full crawl stores', async () => {
    const spec = 'projects=2,components=3,languages=6,units=6000,seed=3';
    const before = await serveSynthetic(spec);
    const port = Number(new URL(before.url).port);
    const content = join(await folder(), 'content');
    try {
      await crawlComplete(before, content, { full: true, token });
    } finally {
      await before.close();
    }
    // The same instance a night later, on the same origin; synthetic data never commits, so one server serves both crawls.
    const after = await serveSynthetic(`${spec},edited=20`, port);
    try {
      const incremental = await crawlComplete(after, content, { full: false, token });
      const fullContent = join(await folder(), 'content');
      const full = await crawlComplete(after, fullContent, { full: true, token });
      const [got, want] = [await openSnapshot(content, incremental.snapshotId), await openSnapshot(fullContent, full.snapshotId)];
      const paths = Object.keys({ ...got.index.records, ...want.index.records });
      expect(paths.filter((path) => got.index.records[path] !== want.index.records[path])).toEqual([]);
      expect(got.index.changes).toEqual(want.index.changes);
      expect(got.manifest.counts).toEqual(want.manifest.counts);
      const translations = Object.keys(want.index.records).filter((path) => /^api\/translations\/[^/]+\/[^/]+\/[^/]+\/$/.test(path)).length;
      expect(translations).toBe(2 * 3 * 7);
      // Per translation this night costs a units/ for nearly every target translation (2% of ~140 units each); merged, one.
      expect(unitsRequests(incremental)).toBe(1);
    } finally {
      await after.close();
    }
  }, 120_000);

  it('a night stopped after its merge and resumed stores what a full crawl stores', async () => {
    const spec = 'projects=2,components=2,languages=5,units=3000,seed=5';
    const before = await serveSynthetic(spec);
    const port = Number(new URL(before.url).port);
    const base = join(await folder(), 'content');
    try {
      await crawlComplete(before, base, { full: true, token });
    } finally {
      await before.close();
    }
    const after = await serveSynthetic(`${spec},edited=30`, port);
    const copy = async () => {
      const dir = join(await folder(), 'content');
      await cp(base, dir, { recursive: true });
      return dir;
    };
    try {
      const fullContent = join(await folder(), 'content');
      const full = await crawlComplete(after, fullContent, { full: true, token });
      const want = await openSnapshot(fullContent, full.snapshotId);
      // Stopped at each of the requests just before the current state is all in: in one of them
      // the units list is read and merged and the changes not yet carried over (a task of the next
      // phase, no request), which the resumed run does from what the stopped one spooled.
      const whole = await crawlComplete(after, await copy(), { full: false, token });
      expect(unitsRequests(whole)).toBe(1);
      let mergedThenStopped = 0;
      for (let stop = whole.currentMade! - 3; stop <= whole.currentMade! + 1; stop++) {
        const content = await copy();
        const stopped = await crawlReferenceServer(after, content, { full: false, token, maxRequests: stop });
        if (stopped.outcome !== 'failed') continue;
        const merged = unitsRequests(stopped) === 1;
        if (merged) mergedThenStopped++;
        const resumed = await crawlComplete(after, content, { full: false, token });
        // Merged before the stop: not read again after it (a resumed run counts every run's requests).
        if (merged) expect(unitsRequests(resumed), `resumed after ${stop}`).toBe(1);
        const got = await openSnapshot(content, resumed.snapshotId);
        const paths = Object.keys({ ...got.index.records, ...want.index.records });
        expect(paths.filter((path) => got.index.records[path] !== want.index.records[path])).toEqual([]);
        expect(got.index.changes, `stopped at ${stop}`).toEqual(want.index.changes);
        expect(got.manifest.counts).toEqual(want.manifest.counts);
      }
      expect(mergedThenStopped).toBeGreaterThan(0);
    } finally {
      await after.close();
    }
  }, 120_000);
  for (const profile of ['weblate-5.4', 'weblate-5.14'] as const)
    it(`the night after a crawl whose downloads committed its edits (${profile}): merged from the changed list and what the commits wrote`, async () => {
      let now = Date.now() - 60 * 60 * 1000;
      const model = fixtureModel(() => new Date(now));
      const server = await startReferenceServer({ model, profile, behaviours: { tokens: [token] }, host: '127.0.0.1', port: 0 });
      try {
        // Left pending: the first crawl reads them so, then its file downloads commit them.
        const edited = editTranslations(model, 4, model.users()[0]!.username);
        // A minute later one more edit: the next window starts after it, so only what the commits
        // wrote lists the four edited units again.
        now += 60_000;
        const first = model.translations().find((row) => translationPath(model, row.id) === edited[0])!;
        const unit = model
          .units(first.id, 0, model.unitCount(first.id))
          .find((row) => row.sourceUnitId !== row.id && row.state !== 100 && !row.target.some((text) => text.startsWith('edited tonight')))!;
        model.translate(
          unit.id,
          unit.target.map(() => 'later'),
          model.users()[0]!.username,
        );
        const content = join(await folder(), 'content');
        await crawlComplete(server, content, { full: true, token });
        const before = await openSnapshot(content);
        const pendingBefore = (await before.units(edited[0]!)).filter((unit) => (unit as { pending?: boolean }).pending === true).length;
        expect(pendingBefore).toBeGreaterThan(0);
        const incremental = await crawlComplete(server, content, { full: false, token });
        // Nothing is pending any more, so a full crawl now reads the state the incremental one read.
        const fullContent = join(await folder(), 'content');
        const full = await crawlComplete(server, fullContent, { full: true, token });
        const [got, want] = [await openSnapshot(content, incremental.snapshotId), await openSnapshot(fullContent, full.snapshotId)];
        const paths = Object.keys({ ...got.index.records, ...want.index.records });
        expect(paths.filter((path) => got.index.records[path] !== want.index.records[path])).toEqual([]);
        expect(got.index.changes).toEqual(want.index.changes);
        for (const translation of edited) expect((await got.units(translation)).filter((unit) => (unit as { pending?: boolean }).pending === true)).toEqual([]);
        // Per translation, four `units/`; merged, the changed list and the units the commits wrote.
        expect(unitsRequests(incremental)).toBe(2);
      } finally {
        await server.close();
      }
    }, 120_000);
});
