/**
 * The reading workloads of bench/read-since.ts, run in a child process against the modules of
 * one checkout (`--root`): the current tree, or an older one (`git worktree add`), so the same
 * reads are timed with the code of then and of now. Uses only calls every tmsnap since format 1
 * has had (openSnapshot, translations, units, file, changes, siteRecords, buildSearchIndex).
 * Runs one workload `--passes` times (the first pays for compiling and warming up, as a
 * `tmsnap build` does) and prints one JSON line: per pass the CPU seconds (every thread), the
 * wall seconds, and the units read, the check that both read the same thing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type * as searchModule from '../search/build.ts';
import type * as linksModule from '../site/search-links.ts';
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

// Another checkout's modules, typed as this tree's: the calls used here are the same in both.
const reader = (await import(join(root, 'snapshot/index.ts'))) as typeof snapshotModule;
const records = (await import(join(root, 'site/records.ts'))) as typeof import('../site/records.ts');
const search = (await import(join(root, 'search/build.ts'))) as typeof searchModule;
const links = (await import(join(root, 'site/search-links.ts'))) as typeof linksModule;

const unitsOf = async (snapshot: Snapshot, paths: string[]) => {
  let count = 0;
  for (const path of paths) count += (await snapshot.units(path)).length;
  return count;
};

const workloads: Record<string, () => Promise<number>> = {
  /** Every translation's units, translation by translation. */
  store: async () => {
    const snapshot = await reader.openSnapshot(content, id);
    return unitsOf(
      snapshot,
      (await snapshot.translations()).map(({ path }) => path),
    );
  },
  /** What a site build reads, without Astro: the site's records, every translation's units once, files, every change. */
  site: async () => {
    const snapshot = await reader.openSnapshot(content, id);
    const site = await records.siteRecords(snapshot);
    const paths = site.translations.map(({ path }) => path);
    const units = await unitsOf(snapshot, paths);
    for (const path of paths) if (snapshot.index.records[`${path}file/`] !== undefined) await snapshot.file(path);
    for await (const change of snapshot.changes()) void change;
    return units;
  },
  /** The search index, built whole (reads and MiniSearch). */
  search: async () => {
    const snapshot = await reader.openSnapshot(content, id);
    const out = await mkdtemp(join(tmpdir(), 'tmsnap-read-since-'));
    try {
      return (await search.buildSearchIndex(snapshot, out, { unitHref: links.siteUnitHref })).units;
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
