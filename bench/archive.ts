/**
 * `npm run bench:archive [-- days mutations-per-day]` (default 30 and 50): a dated
 * archive of a changing instance. Starts the reference server over the bundled catalogs
 * (~28k units) with its mutation hook, crawls it in full once, then each "day" simulates
 * translator activity and crawls incrementally. Prints requests per incremental crawl against a
 * full crawl of the same final state, and the archive's size against that many plain copies
 * of a snapshot. Prints figures; asserts none.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listObjects, listSnapshotDirs, references } from '../archive/references.ts';
import { formatBytes } from '../archive/listing.ts';
import { pack } from '../archive/pack.ts';
import { benchCrawlOptions } from './crawl-options.ts';
import { figureOf, startBench } from './harness.ts';
import { crawl, type CrawlResult } from '../crawler/crawl.ts';
import { indexPart, indexRoot, inlineBelow, kindOfPath, ObjectStore, openSnapshot, parseStoredJson } from '../snapshot/index.ts';
import { raisedRateLimit } from '../packages/reference-server/rate-limit.ts';
import { bundledModel, startTestServer } from '../test/helpers/reference-server.ts';
import { randomActivity } from '../test/archive/activity.ts';

const days = Number(process.argv[2] ?? 30);
const mutationsPerDay = Number(process.argv[3] ?? 50);

const bench = startBench('archive');

const model = await bundledModel();
const units = model.translations().reduce((sum, translation) => sum + model.unitCount(translation.id), 0);
console.log(
  `input: bundled catalogs, ${model.projects().length} projects, ${model.components().length} components, ${model.translations().length} translations, ${units} units; ${days} days, ${mutationsPerDay} unit mutations a day (translate / mark for edit / approve), new and removed strings and a new language every 7th day`,
);

// The default (5.4) profile read with a token at raised limits: thirty crawls of the bundled data.
const token = 'wlu_bench_archive';
const server = await startTestServer({ data: model, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
const work = await mkdtemp(join(tmpdir(), 'tmsnap-bench-archive-'));
const content = join(work, 'content');

async function crawlInto(contentDir: string, full: boolean): Promise<CrawlResult & { ms: number }> {
  const started = performance.now();
  const result = await crawl(benchCrawlOptions(server.url, contentDir, { full, token }));
  if (result.outcome === 'failed') throw new Error(`crawl failed: ${result.message}`);
  return { ...result, ms: performance.now() - started };
}

try {
  const first = await crawlInto(content, true);
  console.log(`day 1: full crawl, ${first.made} requests (minimum ${first.minimum}), ${(first.ms / 1000).toFixed(1)} s`);
  const incremental: { made: number; ms: number; touched: number }[] = [];
  let last = first;
  for (let day = 2; day <= days; day++) {
    const expected = randomActivity(model, 1000 + day, { unitMutations: mutationsPerDay, structural: day % 7 === 0 });
    const touched = new Set(expected.records.map((record) => record.translationId).filter((id) => id !== null)).size;
    last = await crawlInto(content, false);
    incremental.push({ made: last.made, ms: last.ms, touched });
    console.log(`day ${day}: incremental crawl, ${last.made} requests for ${touched} touched translations, ${(last.ms / 1000).toFixed(1)} s`);
  }

  // The same final state crawled in full, elsewhere: the cost an incremental crawl avoids, and its check.
  const fullContent = join(work, 'full');
  const full = await crawlInto(fullContent, true);
  // The last day's crawl committed the edits it downloaded (a real server commits pending edits
  // on a file download, docs/weblate-api.md), so the full crawl read the state after it. The check
  // compares it with one more incremental crawl of that same state, on a copy of the archive; the
  // last day's snapshot differs from it by what those commits changed.
  const checkContent = join(work, 'check');
  await cp(content, checkContent, { recursive: true });
  const check = await crawlInto(checkContent, false);
  const b = (await openSnapshot(fullContent, full.snapshotId)).index;
  const differences = async (contentDir: string, id: string) => {
    const a = (await openSnapshot(contentDir, id)).index;
    const paths = new Set([...Object.keys(a.records), ...Object.keys(b.records), ...Object.keys(a.raw), ...Object.keys(b.raw)]);
    const differing = [...paths].filter((path) => (a.records[path] ?? a.raw[path]) !== (b.records[path] ?? b.raw[path]));
    const changes = JSON.stringify(a.changes) === JSON.stringify(b.changes) ? 'same' : `differ (${a.changes.length} vs ${b.changes.length} chunks)`;
    return {
      same: differing.length === 0 && changes === 'same',
      line: `${differing.length} paths differ (${differing.slice(0, 5).join(', ')}); changes ${changes}`,
    };
  };
  const { same, line } = await differences(checkContent, check.snapshotId);
  if (!same) console.log(`incremental vs full, same state: ${line}`);
  console.log(`the last day's snapshot vs the full crawl (the commits of its own downloads between): ${(await differences(content, last.snapshotId)).line}`);
  const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);
  console.log(
    `requests: full crawl ${full.made} (${(full.ms / 1000).toFixed(1)} s); incremental crawl average ${average(incremental.map((i) => i.made)).toFixed(0)} ` +
      `(min ${Math.min(...incremental.map((i) => i.made))}, max ${Math.max(...incremental.map((i) => i.made))}; ${(average(incremental.map((i) => i.ms)) / 1000).toFixed(1)} s) ` +
      `for ${average(incremental.map((i) => i.touched)).toFixed(0)} touched translations of ${model.translations().length} on average; ` +
      `an incremental crawl of the final state (archive copy) identical to the full crawl: ${same ? 'yes' : 'NO'}`,
  );

  const { objects } = await listObjects(content);
  const sizes = new Map(objects.map((object) => [object.key, object.size]));
  // Uncompressed sizes too: a plain, uncompressed copy is what format 1 stored per snapshot (give or take the chunk lists).
  const plainSizes = new Map<string, number>();
  const store = new ObjectStore(content);
  for (const object of objects) {
    const [hash, kind] = object.key.split('.') as [string, 'json' | 'raw'];
    const plainBytes = object.key.endsWith('.gz')
      ? gunzipSync(await readFile(object.file)).length
      : object.key.endsWith('.dz')
        ? (await store.readBytes(hash, kind)).length
        : object.size;
    plainSizes.set(object.key, plainBytes);
  }
  const stored = objects.reduce((sum, object) => sum + object.size, 0);
  let copies = 0;
  let plain = 0;
  const dirs = (await listSnapshotDirs(content)).reverse(); // oldest first
  const perSnapshot: { id: string; bytes: number; added: number; byKind: Map<string, KindBytes> }[] = [];
  let previous = new Set<string>();
  // What each day adds, by what the objects are (averaged over the days after the first).
  const addedByKind = new Map<string, KindBytes>();
  for (const snapshot of dirs) {
    const needed = (await references(content, snapshot)).objects;
    const keys = [...needed.keys()];
    const byKind = new Map<string, KindBytes>();
    if (previous.size > 0) {
      const index = (await openSnapshot(content, snapshot.id)).index.records;
      for (const key of keys) {
        if (previous.has(key)) continue;
        const label = needed.get(key)!;
        const kind = objectKind(key, label, index);
        // A day's own table names index parts one by one (`index part projects/django`).
        for (const [tally, name] of [
          [addedByKind, kind],
          [byKind, kind === 'index parts' ? label : kind],
        ] as const) {
          const entry = tally.get(name) ?? { bytes: 0, objects: 0, deltas: 0 };
          entry.bytes += sizes.get(key) ?? 0;
          entry.objects += 1;
          if (key.endsWith('.dz')) entry.deltas += 1;
          tally.set(name, entry);
        }
      }
    }
    const manifestBytes = (await readFile(join(snapshot.dir, 'manifest.json'))).length;
    const bytes = keys.reduce((sum, key) => sum + (sizes.get(key) ?? 0), 0) + manifestBytes;
    copies += bytes;
    plain += keys.reduce((sum, key) => sum + (plainSizes.get(key) ?? 0), 0) + manifestBytes;
    perSnapshot.push({
      id: snapshot.id,
      bytes,
      added: keys.filter((key) => !previous.has(key)).reduce((sum, key) => sum + (sizes.get(key) ?? 0), 0) + manifestBytes,
      byKind,
    });
    previous = new Set(keys);
  }
  const manifests = dirs.length;
  const packed = join(work, 'archive.tar.gz');
  const packResult = await pack(content, [], packed);
  const daily = perSnapshot.slice(1).map((snapshot) => snapshot.added / snapshot.bytes);
  // Structural changes come on every 7th day (day 1 is the full crawl at index 0).
  const structural = perSnapshot.filter((_, at) => at > 0 && (at + 1) % 7 === 0).map((snapshot) => snapshot.added / snapshot.bytes);
  const percent = (value: number) => `${(100 * value).toFixed(2)}%`;
  console.log(
    `archive: ${manifests} snapshots in ${formatBytes(stored)} of objects (${objects.length} objects) vs ${formatBytes(plain)} as ${manifests} plain uncompressed copies ` +
      `(${percent(stored / plain)}) and ${formatBytes(copies)} as ${manifests} copies in format 2 (${percent(stored / copies)}); tmsnap pack of all: ${formatBytes(packResult.bytes)} (.tar.gz)`,
  );
  console.log(
    `a day's snapshot adds (of a full snapshot of that day; ${formatBytes(perSnapshot.at(-1)!.bytes)} on the last): average ${percent(average(daily))}, ` +
      `max ${percent(Math.max(...daily))}; on days with structural changes ${structural.length === 0 ? '-' : `average ${percent(average(structural))}`}`,
  );
  const laterDays = Math.max(perSnapshot.length - 1, 1);
  console.log(`a day adds, by kind (average of ${laterDays} days; objects stored as deltas in brackets): ${kindLine(addedByKind, laterDays)}`);
  // The worst days, kind by kind: what makes a day exceed the average is measured, not guessed.
  const worst = perSnapshot
    .map((snapshot, at) => ({ ...snapshot, day: at + 1 }))
    .slice(1)
    .sort((a, b) => b.added / b.bytes - a.added / a.bytes)
    .slice(0, 3);
  for (const day of worst)
    console.log(
      `day ${day.day}${day.day % 7 === 0 ? ' (structural changes)' : ''} adds ${percent(day.added / day.bytes)} (${formatBytes(day.added)} of ${formatBytes(day.bytes)}): ${kindLine(day.byKind, 1)}`,
    );
  // Format 4 keeps small records inline in their index part (snapshot/inline.ts): which, in the last snapshot.
  const lastIndex = indexRoot.parse(await store.readJson((await openSnapshot(content, last.snapshotId)).manifest.index));
  const inlineByKind = new Map<string, number>();
  let partBytes = 0;
  for (const hash of Object.values(lastIndex.parts)) {
    const bytes = await store.readBytes(hash, 'json');
    partBytes += bytes.length;
    for (const path of Object.keys(indexPart.parse(parseStoredJson(bytes.toString('utf8'))).inline ?? {})) {
      const kind = objectKind('', path, {});
      inlineByKind.set(kind, (inlineByKind.get(kind) ?? 0) + 1);
    }
  }
  console.log(
    `records kept inline in the last snapshot (under ${inlineBelow} bytes): ${[...inlineByKind.values()].reduce((sum, n) => sum + n, 0)} in ${Object.keys(lastIndex.parts).length} index parts ` +
      `of ${formatBytes(partBytes)} uncompressed (${[...inlineByKind].map(([kind, n]) => `${kind} ${n}`).join(', ')})`,
  );
  if (perSnapshot.length > 1) {
    const sinceResult = await pack(content, [], join(work, 'since.tar.gz'), { since: perSnapshot.at(-2)!.id });
    console.log(`tmsnap pack --since the day before: ${formatBytes(sinceResult.bytes)} (.tar.gz, ${sinceResult.objects} objects)`);
  }
  await bench.record({
    input: {
      size: `${days} days × ${mutationsPerDay} mutations`,
      about: `bundled catalogs, ${days} days of ${mutationsPerDay} unit mutations, structural changes every 7th day`,
    },
    figures: [
      figureOf('full crawl', 'requests', full.made),
      figureOf('full crawl', 's', full.ms / 1000),
      figureOf(
        'incremental crawl',
        'requests',
        incremental.map((i) => i.made),
      ),
      figureOf(
        'incremental crawl',
        's',
        incremental.map((i) => i.ms / 1000),
      ),
      figureOf('archive objects', 'bytes', stored),
      figureOf('plain uncompressed copies', 'bytes', plain),
      figureOf(
        'a day adds, of a full snapshot',
        '%',
        daily.map((share) => 100 * share),
      ),
      figureOf('tmsnap pack of all', 'bytes', packResult.bytes),
    ],
  });
} finally {
  await server.close();
  await rm(work, { recursive: true, force: true });
}

interface KindBytes {
  bytes: number;
  objects: number;
  deltas: number;
}

/** Bytes added by kind, largest first, each divided by `days`; objects stored as deltas in brackets. */
function kindLine(byKind: ReadonlyMap<string, KindBytes>, days: number): string {
  return [...byKind]
    .sort(([, a], [, b]) => b.bytes - a.bytes)
    .map(
      ([kind, entry]) =>
        `${kind} ${formatBytes(entry.bytes / days)} (${(entry.objects / days).toFixed(0)} objects, ${(entry.deltas / days).toFixed(0)} deltas)`,
    )
    .join(', ');
}

/** What an object is, for the per-kind breakdown: from the path that needs it (references' label) and the index. */
function objectKind(key: string, label: string, records: Record<string, string>): string {
  if (label === 'index') return 'index root';
  if (label.startsWith('index part')) return 'index parts';
  if (label.startsWith('changes')) return 'change chunks';
  const hash = key.slice(0, key.indexOf('.'));
  const kind = kindOfPath(label);
  if (kind === 'units') return hash === '' || records[label] === hash ? 'unit lists' : 'unit chunks';
  if (kind === 'file') return key.includes('.raw.') ? 'raw-file chunks' : 'file entries';
  if (label.startsWith('api/memory/')) return 'translation memory';
  // Records of no kind of their own, by their last segment (`repository/`, `lock/`, `changes/`…).
  if (kind === 'other') return `other ${/[^/]+\/$/.exec(label)?.[0] ?? label}`;
  return kind;
}
