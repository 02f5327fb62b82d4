/**
 * The snapshot store at scale: writes a synthetic instance straight through the snapshot
 * writer (no HTTP), writes it again unchanged, reads every unit back translation by
 * translation, and exports it. Prints throughput, store size, what the unchanged second
 * snapshot added, and peak RSS after each phase. Asserts nothing.
 *
 *   npm run bench:snapshot                 # 1,000,000 units
 *   npm run bench:snapshot -- 200000       # another size (units; 1000 per translation)
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportRecords, openSnapshot, openSnapshotWriter, type SnapshotWriter } from '../snapshot/index.ts';
import { builders } from '../test/helpers/records.ts';
import { writeFormat1Copy } from '../test/snapshot/format1.ts';
import { figureOf, loadText, startBench } from './harness.ts';

const unitsWanted = Number(process.argv[2] ?? 1_000_000);
const unitsPerTranslation = 1000;
const languagesPerComponent = 50;
const base = 'http://127.0.0.1:8000/';
const build = builders(base);

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const peakRss = () => mib(process.resourceUsage().maxRSS * 1024);

async function directorySize(dir: string): Promise<number> {
  let size = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) size += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return size;
}

/** Generates and writes the instance one translation at a time, so only one unit list is ever in memory. */
async function writeInstance(writer: SnapshotWriter): Promise<number> {
  const english = build.language('en', 'English');
  const languages = Array.from({ length: languagesPerComponent }, (_, i) => build.language(`l${i}`, `Language ${i}`));
  const translations = Math.ceil(unitsWanted / unitsPerTranslation);
  const components = Math.ceil(translations / languagesPerComponent);
  await writer.putRecord(`${base}api/`, build.root);
  let unitId = 1;
  let written = 0;
  for (let c = 0; c < components; c++) {
    const project = build.project(`project-${Math.floor(c / 2)}`, Math.floor(c / 2) + 1);
    const component = build.component(project, `component-${c}`, c + 1, english);
    await writer.putRecord(project.url, project);
    await writer.putRecord(component.url, component);
    for (const [l, language] of languages.entries()) {
      if (written >= unitsWanted) break;
      const translation = build.translation(component, language, c * languagesPerComponent + l + 1);
      await writer.putRecord(translation.url, translation);
      const count = Math.min(unitsPerTranslation, unitsWanted - written);
      const units = Array.from({ length: count }, (_, position) => {
        const id = unitId++;
        return build.unit(translation.url, id, position + 1, BigInt.asIntN(64, BigInt(id) * 0x9e3779b97f4a7c15n));
      });
      await writer.putUnits(translation.url, units);
      written += count;
    }
  }
  for (let id = 1; id <= Math.min(unitsWanted, 100_000); id += 1000) {
    await writer.putChanges(Array.from({ length: 1000 }, (_, i) => build.change(id + i, 59, `${base}api/components/project-0/component-0/`, null)));
  }
  return written;
}

/** Seconds of each timed phase, by label, for the result line. */
const phases = new Map<string, number>();

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  phases.set(label, seconds);
  console.log(`${label}: ${seconds.toFixed(1)} s, peak RSS so far ${peakRss()}`);
  return result;
}

const bench = startBench('snapshot');
const load = () => loadText(bench.load());
console.log(`input: ${unitsWanted} units, ${unitsPerTranslation} per translation, up to 100000 changes`);
const root = await mkdtemp(join(tmpdir(), 'tmsnap-bench-snapshot-'));
const content = join(root, 'content');
try {
  const clock = (minute: number) => () => new Date(Date.UTC(2026, 10, 22, 4, minute));
  const first = await openSnapshotWriter(content, { baseUrl: base, scope: {}, tmsnapVersion: 'bench', resume: false, now: clock(0) });
  const started = performance.now();
  const units = await timed('write', () => writeInstance(first));
  await first.finish({ requests: { made: 0, minimum: 0 }, problems: [], complete: true });
  // Units a second of the write with its finish, as printed.
  const writeRate = units / ((performance.now() - started) / 1000);
  console.log(`write rate: ${Math.round(writeRate)} units/s`);
  const firstSize = await directorySize(content);
  console.log(`store after first snapshot: ${mib(firstSize)}`);

  const second = await openSnapshotWriter(content, { baseUrl: base, scope: {}, tmsnapVersion: 'bench', resume: false, now: clock(1) });
  await timed('rewrite unchanged', () => writeInstance(second));
  await second.finish({ requests: { made: 0, minimum: 0 }, problems: [], complete: true });
  const added = (await directorySize(content)) - firstSize;
  console.log(`unchanged second snapshot added: ${added} bytes (${((100 * added) / firstSize).toFixed(4)}% of the first)`);

  const snapshot = await openSnapshot(content);
  const readAll = async (contentDir: string) => {
    const opened = await openSnapshot(contentDir, snapshot.id);
    let count = 0;
    for (const { path } of await opened.translations()) count += (await opened.units(path)).length;
    return count;
  };
  const read = await timed('read every unit', () => readAll(content));
  console.log(`read: ${read} units`);
  // The same snapshot in format 1 (one plain object per unit list), read in turns with format 2
  // so both see the same load: what the site build and search pay per format.
  const format1 = join(root, 'format1');
  await writeFormat1Copy(content, snapshot.id, format1);
  const readCpu = new Map<string, number[]>();
  for (let round = 1; round <= 3; round++) {
    for (const [label, dir] of [
      ['format 1', format1],
      [`format ${snapshot.manifest.format}`, content],
    ] as const) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const units = await readAll(dir);
      const used = process.cpuUsage(cpu);
      readCpu.set(label, [...(readCpu.get(label) ?? []), (used.user + used.system) / 1e6]);
      // CPU time (all threads: inflate runs in libuv's pool) as well as wall time: on a shared machine the wall time is mostly the wait for a core.
      console.log(
        `read round ${round}, ${label}: ${units} units in ${((performance.now() - started) / 1000).toFixed(2)} s, ${((used.user + used.system) / 1e6).toFixed(2)} s of CPU (load ${load()})`,
      );
    }
  }
  const lines = await timed('export (iterate every line)', async () => {
    let count = 0;
    for await (const _line of exportRecords(snapshot)) count++;
    return count;
  });
  console.log(`export: ${lines} lines`);
  await bench.record({
    input: {
      size: `${unitsWanted} units`,
      about: `${unitsPerTranslation} units a translation, ${languagesPerComponent} languages a component, up to 100000 changes`,
    },
    figures: [
      figureOf('write', 's', phases.get('write') ?? Number.NaN),
      figureOf('write and finish', 'units/s', writeRate),
      figureOf('store after the first snapshot', 'MiB', firstSize / 2 ** 20),
      figureOf('rewrite unchanged', 's', phases.get('rewrite unchanged') ?? Number.NaN),
      figureOf('unchanged second snapshot added', 'bytes', added),
      figureOf('read every unit', 's', phases.get('read every unit') ?? Number.NaN),
      ...[...readCpu].map(([label, seconds]) => figureOf(`read every unit, ${label}, CPU`, 's', seconds)),
      figureOf('export', 's', phases.get('export (iterate every line)') ?? Number.NaN),
      figureOf('peak RSS', 'MiB', process.resourceUsage().maxRSS / 1024),
    ],
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
