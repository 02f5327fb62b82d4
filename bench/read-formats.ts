/**
 * Reading one snapshot in format 1 and in the format it was written in (3 or newer), in turns so both see the same load
 * (issue 11: "site build and search read speed not worse than today"; today is format 1).
 * Three workloads, each timed by wall clock and by CPU (`process.cpuUsage`, every thread:
 * inflating runs in libuv's pool):
 *
 * - store: every translation's units, translation by translation (what bench:snapshot reads);
 * - site reads: what `tmsnap build` reads from the snapshot, without Astro: open, the records
 *   of the site tree, every translation's units once (the bulk writers' pages; the changes
 *   pages take the units' positions from them, site/bulk-positions.ts), file entries and
 *   files, every change chunk parsed;
 * - search build: `buildSearchIndex` whole (reads and MiniSearch), and its reads alone
 *   (the site's search records, then the units in the order the shard stream asks for them).
 *
 * The format-1 copy is written into a temporary folder from the snapshot read
 * (test/snapshot/format1.ts). With `--days N`, the snapshot is first copied there and N more
 * snapshots are written on top, each with `--edits` strings edited at random (targets changed),
 * so the newest reads through deltas as an archive's does after N days (chains up to 8 deep).
 * Asserts nothing.
 *
 *   npm run bench:read-formats                                  # the 100k scenario's snapshot
 *   npm run bench:read-formats -- --content DIR --rounds 3 --only store,site,search
 *   npm run bench:read-formats -- --days 7 --edits 300          # through 7 days of deltas
 *   npm run bench:read-formats -- --days 7 --keep DIR            # ...written into DIR and kept there,
 *   npm run bench:read-formats -- --content DIR                  # to be read again without writing them
 */
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildSearchIndex } from '../search-index/build.ts';
import { planSearch } from '../search-index/shard-stream.ts';
import { siteRecords } from '../site-model/records.ts';
import { searchRecords, siteUnitHref } from '../site-model/search-input.ts';
import { exportRecords, objectPath, openSnapshot, openSnapshotWriter, readDeltaHeader, type Snapshot, storedChange } from '../snapshot/index.ts';
import { writeFormat1Copy } from '../test/snapshot/format1.ts';
import { figureOf, loadText, median, startBench } from './harness.ts';
import { scenarioResults } from './scenarios.ts';

const { values } = parseArgs({
  options: {
    content: { type: 'string', default: scenarioResults('100k').content },
    snapshot: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string', default: 'store,site,search-reads,search' },
    days: { type: 'string', default: '0' },
    edits: { type: 'string', default: '300' },
    keep: { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const workloads = new Set(values.only.split(','));

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

/** CPU seconds of the site reads' phases in the last run, to say where site reads differ from the store's. */
let sitePhases: [string, number][] = [];

/** Runs `phase`, noting its CPU seconds under `name` in `sitePhases`. */
async function timed<T>(name: string, phase: () => Promise<T>): Promise<T> {
  const before = process.cpuUsage();
  const result = await phase();
  const used = process.cpuUsage(before);
  sitePhases.push([name, (used.user + used.system) / 1e6]);
  return result;
}

const siteReads: Workload = async (content, id) => {
  sitePhases = [];
  const snapshot = await timed('open', () => openSnapshot(content, id));
  const records = await timed('records', () => siteRecords(snapshot));
  const paths = records.translations.map(({ path }) => path);
  const units = await timed('units', () => countUnits(snapshot, paths));
  await timed('files', async () => {
    for (const path of paths) {
      if (snapshot.index.records[`${path}file/`] === undefined) continue;
      await snapshot.record(`${path}file/`);
      await snapshot.file(path);
    }
  });
  await timed('changes', async () => {
    for (const chunk of snapshot.index.changes) {
      const stored = (await snapshot.store.readJson(chunk.hash)) as unknown[];
      for (const change of stored) storedChange.parse(change);
    }
  });
  return units;
};

const searchReads: Workload = async (content, id) => {
  const snapshot = await openSnapshot(content, id);
  const plan = planSearch(await searchRecords(snapshot));
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
    return (await buildSearchIndex(snapshot, out, { records: await searchRecords(snapshot), unitHref: siteUnitHref })).units;
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

/** Writes `days` snapshots onto the newest of `content`, each re-storing every record with `edits` random targets changed. */
async function writeDays(content: string, days: number, edits: number): Promise<void> {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let day = 1; day <= days; day++) {
    const started = performance.now();
    const snapshot = await openSnapshot(content);
    const writer = await openSnapshotWriter(content, {
      baseUrl: snapshot.manifest.server.base_url,
      scope: snapshot.manifest.scope,
      tmsnapVersion: 'bench-read-formats',
      resume: false,
      now: () => new Date(Date.parse(snapshot.manifest.started) + 86_400_000),
    });
    const picked = new Set(Array.from({ length: edits }, () => Math.floor(random() * (snapshot.manifest.counts.unit ?? 0))));
    let at = 0;
    let current: { url: string; units: Record<string, unknown>[] } | undefined;
    const flush = async () => {
      if (current) await writer.putUnits(current.url, current.units);
      current = undefined;
    };
    let changes: unknown[] = [];
    for await (const line of exportRecords(snapshot)) {
      if (line.kind === 'unit' && !('raw' in line)) {
        const unit = line.record as Record<string, unknown> & { translation: string; target: string[] };
        if (current?.url !== unit.translation) {
          await flush();
          current = { url: unit.translation, units: [] };
        }
        if (picked.has(at++)) unit.target = unit.target.map((text) => `${text} (day ${day})`);
        current.units.push(unit);
        continue;
      }
      await flush();
      if (line.kind === 'change' && !('raw' in line)) {
        changes.push(line.record);
        if (changes.length >= 5000) {
          await writer.putChanges(changes);
          changes = [];
        }
      } else if ('bytes_base64' in line) {
        await writer.putFile(line.url.replace(/file\/$/, ''), Buffer.from(line.bytes_base64, 'base64'), line.content_type);
      } else if (!('raw' in line)) {
        await writer.putRecord(line.url, line.record);
      }
    }
    await flush();
    if (changes.length > 0) await writer.putChanges(changes);
    await writer.finish({ requests: { made: 0, minimum: 0 }, problems: [], complete: true });
    console.log(
      `day ${day}: snapshot ${writer.id}, ${edits} strings edited, ${writer.addedBytes} bytes added, ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
}

/** How many of the snapshot's unit chunks are kept as deltas, and their chains' depths. */
async function deltaShare(snapshot: Snapshot, content: string): Promise<string> {
  let chunks = 0;
  const depths: number[] = [];
  for (const [path, hash] of Object.entries(snapshot.index.records)) {
    if (!path.endsWith('/units/') || snapshot.manifest.format === 1) continue;
    for (const chunk of ((await snapshot.readJson(hash)) as { chunks: { hash: string }[] }).chunks) {
      chunks += 1;
      const file = objectPath(content, chunk.hash, 'json.dz');
      if (existsSync(file)) depths.push(readDeltaHeader(readFileSync(file)).depth);
    }
  }
  const mean = depths.length === 0 ? 0 : depths.reduce((sum, depth) => sum + depth, 0) / depths.length;
  return `${depths.length} of ${chunks} unit chunks are deltas (chain depth mean ${mean.toFixed(1)}, max ${Math.max(0, ...depths)})`;
}

const bench = startBench('read-formats');
const load = () => loadText(bench.load());
const scratch = await mkdtemp(join(tmpdir(), 'tmsnap-bench-read-formats-'));
try {
  let content = values.content;
  if (Number(values.days) > 0) {
    if (values.keep !== undefined && existsSync(values.keep))
      throw new Error(`--keep ${values.keep}: it exists already; read it with --content ${values.keep}`);
    content = values.keep ?? join(scratch, 'days');
    await cp(values.content, content, { recursive: true });
    await writeDays(content, Number(values.days), Number(values.edits));
  }
  const newest = await openSnapshot(content, Number(values.days) > 0 ? undefined : values.snapshot);
  const newer = newest.manifest.format;
  const counts = newest.manifest.counts;
  console.log(
    `input: ${content}, snapshot ${newest.id} (format ${newer}): ${counts.unit ?? 0} units, ${counts.translation ?? 0} translations, ${counts.change ?? 0} changes, ${Object.keys(newest.index.records).length} records`,
  );
  console.log(await deltaShare(newest, content));
  const format1 = join(scratch, 'format1');
  let started = performance.now();
  await writeFormat1Copy(content, newest.id, format1);
  console.log(`format-1 copy written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const figures = new Map<string, number[]>();
  const walls = new Map<string, number[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const [name, workload] of all) {
      if (!workloads.has(name)) continue;
      // Alternate which format goes first, so neither always reads after the other warmed the page cache.
      const order = round % 2 === 1 ? [1, newer] : [newer, 1];
      for (const format of order) {
        started = performance.now();
        const before = process.cpuUsage();
        const units = await workload(format === 1 ? format1 : content, newest.id, scratch);
        const used = process.cpuUsage(before);
        const seconds = (used.user + used.system) / 1e6;
        const key = `${name}, format ${format}`;
        figures.set(key, [...(figures.get(key) ?? []), seconds]);
        walls.set(key, [...(walls.get(key) ?? []), (performance.now() - started) / 1000]);
        const phases = name === 'site' ? ` [${sitePhases.map(([phase, cpu]) => `${phase} ${cpu.toFixed(2)}`).join(', ')}]` : '';
        console.log(
          `round ${round}, ${key}: ${units} units, ${((performance.now() - started) / 1000).toFixed(2)} s wall, ${seconds.toFixed(2)} s CPU${phases} (load ${load()})`,
        );
      }
    }
  }
  console.log('CPU seconds, median and min-max over rounds:');
  for (const [key, seconds] of figures)
    console.log(`  ${key}: median ${median(seconds).toFixed(2)}, ${Math.min(...seconds).toFixed(2)}-${Math.max(...seconds).toFixed(2)}`);
  const days = Number(values.days);
  await bench.record({
    input: {
      size: `${counts.unit ?? 0} units${days > 0 ? `, ${days} days × ${values.edits} edits` : ''}`,
      about: `snapshot ${newest.id} (format ${newer}), ${counts.translation ?? 0} translations, ${counts.change ?? 0} changes; ${rounds} rounds, formats in turns`,
    },
    figures: [...figures].flatMap(([key, seconds]) => [figureOf(`${key}, CPU`, 's', seconds), figureOf(`${key}, wall`, 's', walls.get(key) ?? [])]),
  });
} finally {
  await rm(scratch, { recursive: true, force: true });
}
