/**
 * Reading one snapshot in format 1 and in the format it was written in (3 or newer), in turns so both see the same load
 * (issue 11: "site build and search read speed not worse than today"; today is format 1).
 * Three workloads, each timed by wall clock and by CPU (`process.cpuUsage`, every thread:
 * inflating runs in libuv's pool):
 *
 * - store: every translation's units, translation by translation (what bench:snapshot reads);
 * - site reads: what `tmsnap build` reads from the snapshot, without Astro: open, the records
 *   of the site tree, every translation's units twice (the pages' list and the changes pages'
 *   unit index, src/data/units.ts and src/data/changes.ts), file entries and files, every
 *   change chunk parsed;
 * - search build: `buildSearchIndex` whole (reads and MiniSearch), and its reads alone
 *   (planSearch's records, then the units in the order the shard stream asks for them).
 *
 * The format-1 copy is written into a temporary folder from the snapshot read
 * (test/snapshot/format1.ts). Asserts nothing.
 *
 *   npm run bench:read-formats                                  # the 100k scenario's snapshot
 *   npm run bench:read-formats -- --content DIR --rounds 3 --only store,site,search
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildSearchIndex } from '../search/build.ts';
import { planSearch } from '../search/shard-stream.ts';
import { siteUnitHref } from '../site/search-links.ts';
import { siteRecords } from '../site/records.ts';
import { openSnapshot, type Snapshot } from '../snapshot/reader.ts';
import { storedChange } from '../snapshot/schemas.ts';
import { writeFormat1Copy } from '../test/snapshot/format1.ts';
import { scenarioResults } from './scenarios.ts';

const { values } = parseArgs({
  options: {
    content: { type: 'string', default: scenarioResults('100k').content },
    snapshot: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string', default: 'store,site,search-reads,search' },
  },
});
const rounds = Number(values.rounds);
const workloads = new Set(values.only.split(','));

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

/** Units read, as the check that both formats read the same thing. */
type Workload = (content: string, id: string, scratch: string) => Promise<number>;

const countUnits = async (snapshot: Snapshot, paths: readonly string[]) => {
  let count = 0;
  for (const path of paths) count += (await snapshot.units(path)).length;
  return count;
};

const store: Workload = async (content, id) => {
  const snapshot = await openSnapshot(content, id);
  return countUnits(
    snapshot,
    (await snapshot.translations()).map(({ path }) => path),
  );
};

const siteReads: Workload = async (content, id) => {
  const snapshot = await openSnapshot(content, id);
  const records = await siteRecords(snapshot);
  const paths = records.translations.map(({ path }) => path);
  let units = await countUnits(snapshot, paths);
  units += await countUnits(snapshot, paths);
  for (const path of paths) {
    if (snapshot.index.records[`${path}file/`] === undefined) continue;
    await snapshot.record(`${path}file/`);
    await snapshot.file(path);
  }
  for (const chunk of snapshot.index.changes) {
    const stored = (await snapshot.store.readJson(chunk.hash)) as unknown[];
    for (const change of stored) storedChange.parse(change);
  }
  return units / 2;
};

const searchReads: Workload = async (content, id) => {
  const snapshot = await openSnapshot(content, id);
  const plan = await planSearch(snapshot);
  let count = 0;
  for (const bucket of plan.buckets) {
    const inBucket = new Set(bucket);
    for (const translation of plan.numbering.translations)
      if (inBucket.has(translation.component)) count += (await snapshot.units(translation.entry.path)).length;
  }
  return count;
};

const searchBuild: Workload = async (content, id, scratch) => {
  const snapshot = await openSnapshot(content, id);
  const out = await mkdtemp(join(scratch, 'search-'));
  try {
    return (await buildSearchIndex(snapshot, out, { unitHref: siteUnitHref })).units;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
};

const all: [string, Workload][] = [
  ['store', store],
  ['site', siteReads],
  ['search-reads', searchReads],
  ['search', searchBuild],
];

const cpu = cpus();
console.log(
  `machine: ${cpu[0]?.model ?? 'unknown cpu'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}; load ${load()}`,
);
const newest = await openSnapshot(values.content, values.snapshot);
const newer = newest.manifest.format;
const counts = newest.manifest.counts;
console.log(
  `input: ${values.content}, snapshot ${newest.id} (format ${newer}): ${counts.unit ?? 0} units, ${counts.translation ?? 0} translations, ${counts.change ?? 0} changes, ${Object.keys(newest.index.records).length} records`,
);
const scratch = await mkdtemp(join(tmpdir(), 'tmsnap-bench-read-formats-'));
try {
  const format1 = join(scratch, 'format1');
  let started = performance.now();
  await writeFormat1Copy(values.content, newest.id, format1);
  console.log(`format-1 copy written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const figures = new Map<string, number[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const [name, workload] of all) {
      if (!workloads.has(name)) continue;
      // Alternate which format goes first, so neither always reads after the other warmed the page cache.
      const order = round % 2 === 1 ? [1, newer] : [newer, 1];
      for (const format of order) {
        started = performance.now();
        const before = process.cpuUsage();
        const units = await workload(format === 1 ? format1 : values.content, newest.id, scratch);
        const used = process.cpuUsage(before);
        const seconds = (used.user + used.system) / 1e6;
        const key = `${name}, format ${format}`;
        figures.set(key, [...(figures.get(key) ?? []), seconds]);
        console.log(
          `round ${round}, ${key}: ${units} units, ${((performance.now() - started) / 1000).toFixed(2)} s wall, ${seconds.toFixed(2)} s CPU (load ${load()})`,
        );
      }
    }
  }
  console.log('CPU seconds, min-max over rounds:');
  for (const [key, seconds] of figures) console.log(`  ${key}: ${Math.min(...seconds).toFixed(2)}-${Math.max(...seconds).toFixed(2)}`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
