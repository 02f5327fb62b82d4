/**
 * The reading workloads of bench/read-since.ts, run in a child process against the modules of
 * one checkout (`--root`): the current tree, or an older one (`git worktree add`), so the same
 * reads are timed with the code of then and of now. Uses only calls every tmsnap since format 1
 * has had (openSnapshot, translations, units, file, changes, siteRecords, buildSearchIndex),
 * found where each checkout keeps them (`checkoutCalls`).
 * Runs one workload `--passes` times (the first pays for compiling and warming up, as a
 * `tmsnap build` does) and prints one JSON line: per pass the CPU seconds (every thread), the
 * wall seconds, and the units read, the check that both read the same thing.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type * as searchModule from '../search-index/build.ts';
import type * as recordsModule from '../site-model/records.ts';
import type * as searchInputModule from '../site-model/search-input.ts';
import type * as snapshotModule from '../snapshot/index.ts';
import type { Snapshot } from '../snapshot/index.ts';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    content: { type: 'string' },
    snapshot: { type: 'string' },
    workload: { type: 'string', default: 'store' },
    passes: { type: 'string', default: '2' },
  },
});
if (values.root === undefined || values.content === undefined || values.snapshot === undefined)
  throw new Error('--root, --content and --snapshot are required');
const root = values.root;
const content = values.content;
const id = values.snapshot;

/** The calls the workloads make, from the modules of the checkout at `root`. */
interface CheckoutCalls {
  openSnapshot: typeof snapshotModule.openSnapshot;
  siteRecords: typeof recordsModule.siteRecords;
  buildSearchIndex(snapshot: Snapshot, out: string): Promise<{ units: number }>;
}

/**
 * Another checkout's modules, typed as this tree's. Since the site model left site/ and the
 * indexer left search/, `buildSearchIndex` is given the site's records; before, it read them itself.
 */
async function checkoutCalls(root: string): Promise<CheckoutCalls> {
  const reader = (await import(join(root, 'snapshot/index.ts'))) as typeof snapshotModule;
  if (existsSync(join(root, 'search-index/build.ts'))) {
    const records = (await import(join(root, 'site-model/records.ts'))) as typeof recordsModule;
    const search = (await import(join(root, 'search-index/build.ts'))) as typeof searchModule;
    const input = (await import(join(root, 'site-model/search-input.ts'))) as typeof searchInputModule;
    return {
      openSnapshot: reader.openSnapshot,
      siteRecords: records.siteRecords,
      buildSearchIndex: async (snapshot, out) =>
        search.buildSearchIndex(snapshot, out, { records: await input.searchRecords(snapshot), unitHref: input.siteUnitHref }),
    };
  }
  const records = (await import(join(root, 'site/records.ts'))) as typeof recordsModule;
  const search = (await import(join(root, 'search/build.ts'))) as {
    buildSearchIndex(snapshot: Snapshot, out: string, options: { unitHref: unknown }): Promise<{ units: number }>;
  };
  const links = (await import(join(root, 'site/search-links.ts'))) as { siteUnitHref: unknown };
  return {
    openSnapshot: reader.openSnapshot,
    siteRecords: records.siteRecords,
    buildSearchIndex: (snapshot, out) => search.buildSearchIndex(snapshot, out, { unitHref: links.siteUnitHref }),
  };
}

const calls = await checkoutCalls(root);

const unitsOf = async (snapshot: Snapshot, paths: string[]) => {
  let count = 0;
  for (const path of paths) count += (await snapshot.units(path)).length;
  return count;
};

const workloads: Record<string, () => Promise<number>> = {
  /** Every translation's units, translation by translation. */
  store: async () => {
    const snapshot = await calls.openSnapshot(content, id);
    return unitsOf(
      snapshot,
      (await snapshot.translations()).map(({ path }) => path),
    );
  },
  /** What a site build reads, without Astro: the site's records, every translation's units once, files, every change. */
  site: async () => {
    const snapshot = await calls.openSnapshot(content, id);
    const site = await calls.siteRecords(snapshot);
    const paths = site.translations.map(({ path }) => path);
    const units = await unitsOf(snapshot, paths);
    for (const path of paths) if (snapshot.index.records[`${path}file/`] !== undefined) await snapshot.file(path);
    for await (const change of snapshot.changes()) void change;
    return units;
  },
  /** The search index, built whole (reads and MiniSearch). */
  search: async () => {
    const snapshot = await calls.openSnapshot(content, id);
    const out = await mkdtemp(join(tmpdir(), 'tmsnap-read-since-'));
    try {
      return (await calls.buildSearchIndex(snapshot, out)).units;
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  },
};

const workload = workloads[values.workload];
if (workload === undefined) throw new Error(`unknown workload ${values.workload}; workloads: ${Object.keys(workloads).join(', ')}`);
const passes: { cpu: number; wall: number; units: number }[] = [];
for (let pass = 0; pass < Number(values.passes); pass++) {
  const started = performance.now();
  const before = process.cpuUsage();
  const units = await workload();
  const used = process.cpuUsage(before);
  passes.push({ cpu: (used.user + used.system) / 1e6, wall: (performance.now() - started) / 1000, units });
}
console.log(JSON.stringify(passes));
