/**
 * `tmsnap snapshots`: every snapshot with its date, scope, counts, size and state. Size is
 * counted two ways, since objects are shared: everything the snapshot needs, and what it
 * added over the snapshot before it (what deleting it alone could ever free).
 *
 * Listing is meant to start about as fast as Node does (issue 39): the manifests are read for
 * the fields shown, without zod (whose import alone costs about 3× \`node -e 0\`), and sizes
 * come from each snapshot's `sizes.json` (archive/sizes.ts). Only a snapshot without one, or a
 * crawl in progress, is walked through archive/references.ts, loaded then
 * (docs/decisions/2026-11-29-listing-start.md). `tmsnap verify` checks manifests and objects whole.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseJson } from '../api/json.ts';
import { listSnapshotDirs, manifestFile, type ObjectKey, type SnapshotDir, sizesFile, stateFile } from '../snapshot/content.ts';
import type { Manifest } from '../snapshot/manifest.ts';
import { type ObjectSizes, readSizes, sizesText } from './sizes.ts';

export type SnapshotState = 'complete' | 'incomplete' | 'in progress' | 'damaged';

export interface SnapshotListing {
  id: string;
  state: SnapshotState;
  started: string | undefined;
  finished: string | undefined;
  server: string | undefined;
  /** `whole instance`, or the projects and change window the crawl was limited to. */
  scope: string;
  /** The projects the crawl was limited to; null: the whole instance. Snapshots of one server and the same projects compare (archive/series.ts). */
  projects: string[] | null;
  /** The start of the change log's window (`--changes-since`); null: the whole log. */
  changesSince: string | null;
  counts: Record<string, number>;
  problems: number;
  /** Records kept raw (they did not fit their schema): in the snapshot, but not on the site or in search. */
  raw: number;
  /** Kinds of resource the crawl's credentials could not read (limits of access, not problems of the data). */
  access: number;
  /** Bytes of every object the snapshot needs. */
  bytes: number;
  /** Bytes of the objects the next older snapshot does not need. */
  addedBytes: number;
  /** An unfinished snapshot no crawl can resume: `tmsnap prune` removes it (docs/snapshot-format.md, "Leftovers"). */
  leftover: boolean;
  /** The release tags pinned to it (`tmsnap tag`), by name. */
  tags: string[];
}

export function describeScope(scope: { projects?: string[] | undefined; changes_since?: string | undefined } | undefined): string {
  const parts: string[] = [];
  if (scope?.projects?.length) parts.push(`projects ${scope.projects.join(', ')}`);
  if (scope?.changes_since) parts.push(`changes since ${scope.changes_since}`);
  return parts.length > 0 ? parts.join('; ') : 'whole instance';
}

function scopeFields(scope: { projects?: string[] | undefined; changes_since?: string | undefined } | undefined) {
  return {
    scope: describeScope(scope),
    projects: scope?.projects?.length ? [...scope.projects] : null,
    changesSince: scope?.changes_since ?? null,
  };
}

/** What the listing shows of a manifest; undefined when one of those fields is missing or of another type. */
export type ListedManifest = Pick<Manifest, 'id' | 'complete' | 'started' | 'finished' | 'scope' | 'counts' | 'index'> & {
  server: { base_url: string };
  problems: unknown[];
  access?: unknown[] | undefined;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The manifest's fields the listing shows, checked by type (the whole schema: snapshot/manifest.ts, checked by verify). */
export function listedManifest(value: unknown): ListedManifest | undefined {
  if (!isRecord(value) || !isRecord(value.server) || !isRecord(value.scope) || !isRecord(value.counts)) return undefined;
  const { id, complete, started, finished, index, server, scope, counts, problems, access } = value;
  if (typeof id !== 'string' || typeof complete !== 'boolean' || typeof started !== 'string' || typeof finished !== 'string') return undefined;
  if (typeof index !== 'string' || typeof server.base_url !== 'string' || !Array.isArray(problems)) return undefined;
  if (access !== undefined && !Array.isArray(access)) return undefined;
  if (scope.projects !== undefined && !isStringList(scope.projects)) return undefined;
  if (scope.changes_since !== undefined && typeof scope.changes_since !== 'string') return undefined;
  if (!Object.values(counts).every((count) => typeof count === 'number' && Number.isSafeInteger(count) && count >= 0)) return undefined;
  return {
    id,
    complete,
    started,
    finished,
    index,
    server: { base_url: server.base_url },
    scope: scope as ListedManifest['scope'],
    counts: counts as Record<string, number>,
    problems,
    ...(access === undefined ? {} : { access }),
  };
}

async function readListedManifest(snapshot: SnapshotDir): Promise<ListedManifest | undefined> {
  const text = await readFile(join(snapshot.dir, manifestFile), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const manifest = listedManifest(parseJson(text));
    return manifest?.id === snapshot.id ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/** What a snapshot needs, by walking its references (archive/references.ts): a crawl in progress, or a finished snapshot with no `sizes.json` yet. */
interface Walked {
  sizes: ObjectSizes;
  problems: number;
}

/**
 * Walks the snapshots that have no sizes recorded, and records those of the finished, whole
 * ones when the archive's lock is free (a listing never waits for a writer, and never writes
 * beside one).
 */
async function walk(contentDir: string, snapshots: readonly { snapshot: SnapshotDir; index?: string | undefined }[]): Promise<Map<string, Walked>> {
  const walked = new Map<string, Walked>();
  if (snapshots.length === 0) return walked;
  const [{ references }, { listObjects, withArchiveLock }, { writeAtomic }] = await Promise.all([
    import('./references.ts'),
    import('../snapshot/index.ts'),
    import('../snapshot/store.ts'),
  ]);
  const { objects } = await listObjects(contentDir);
  const onDisk = new Map<ObjectKey, number>(objects.map((object) => [object.key, object.size]));
  // An object listed on disk is stored under its own name: `references` need not stat it again.
  const forms = new Map(objects.map((object) => [object.key, { key: object.key }]));
  const record: { file: string; text: string }[] = [];
  for (const { snapshot, index } of snapshots) {
    const found = await references(contentDir, snapshot, forms);
    const sizes: ObjectSizes = new Map([...found.objects.keys()].map((key) => [key, onDisk.get(key) ?? 0]));
    walked.set(snapshot.dir, { sizes, problems: found.problems.length });
    if (index !== undefined && found.problems.length === 0) record.push({ file: join(snapshot.dir, sizesFile), text: sizesText(index, sizes) });
  }
  if (record.length > 0)
    await withArchiveLock(contentDir, { command: 'snapshots' }, () => Promise.all(record.map(({ file, text }) => writeAtomic(file, text)))).catch(
      () => undefined,
    );
  return walked;
}

/**
 * Newest first; `pinned`: the release tags of each snapshot (archive/tags.ts `pinnedSnapshots`),
 * shown beside it. Passed in rather than read here: reading tags loads their schema.
 */
export async function snapshotListings(contentDir: string, pinned: ReadonlyMap<string, readonly string[]> = new Map()): Promise<SnapshotListing[]> {
  const dirs = await listSnapshotDirs(contentDir);
  const manifests = new Map<string, ListedManifest | undefined>();
  const cached = new Map<string, ObjectSizes>();
  const toWalk: { snapshot: SnapshotDir; index?: string | undefined }[] = [];
  for (const snapshot of dirs) {
    if (snapshot.partial) {
      toWalk.push({ snapshot });
      continue;
    }
    const manifest = await readListedManifest(snapshot);
    manifests.set(snapshot.dir, manifest);
    const sizes = manifest === undefined ? undefined : await readSizes(snapshot, manifest.index);
    if (sizes === undefined) toWalk.push({ snapshot, index: manifest?.index });
    else cached.set(snapshot.dir, sizes);
  }
  const walked = await walk(contentDir, toWalk);
  const resumed = dirs.some((snapshot) => snapshot.partial) ? await resumableIds(contentDir) : new Set<string>();
  const listings: SnapshotListing[] = [];
  const needed: ObjectSizes[] = [];
  for (const snapshot of dirs) {
    const found = walked.get(snapshot.dir);
    const sizes = cached.get(snapshot.dir) ?? found?.sizes ?? new Map<ObjectKey, number>();
    needed.push(sizes);
    const bytes = sum(sizes.values());
    if (snapshot.partial) {
      const state = await readFile(join(snapshot.dir, stateFile), 'utf8')
        .then((text) => JSON.parse(text) as { started?: string; base_url?: string; scope?: { projects?: string[]; changes_since?: string } })
        .catch(() => undefined);
      listings.push({
        id: snapshot.id,
        state: 'in progress',
        started: state?.started,
        finished: undefined,
        server: state?.base_url,
        ...scopeFields(state?.scope),
        counts: {},
        problems: found?.problems ?? 0,
        raw: 0,
        access: 0,
        bytes,
        addedBytes: 0,
        leftover: !resumed.has(snapshot.id),
        tags: [],
      });
      continue;
    }
    const manifest = manifests.get(snapshot.dir);
    listings.push({
      id: snapshot.id,
      state: manifest === undefined || (found?.problems ?? 0) > 0 ? 'damaged' : manifest.complete ? 'complete' : 'incomplete',
      started: manifest?.started,
      finished: manifest?.finished,
      server: manifest?.server.base_url,
      ...scopeFields(manifest?.scope),
      counts: manifest?.counts ?? {},
      problems: manifest?.problems.length ?? 0,
      raw: manifest?.counts.raw ?? 0,
      access: manifest?.access?.length ?? 0,
      bytes,
      addedBytes: 0,
      leftover: false,
      tags: [...(pinned.get(snapshot.id) ?? [])],
    });
  }
  // Newest first: the next older finished snapshot is further down the list.
  for (const [index, listing] of listings.entries()) {
    const older = listings.findIndex((candidate, at) => at > index && candidate.state !== 'in progress');
    const previous = older === -1 ? new Map<ObjectKey, number>() : needed[older]!;
    listing.addedBytes = sum([...needed[index]!].filter(([key]) => !previous.has(key)).map(([, size]) => size));
  }
  return listings;
}

/** The crawls in progress that a crawl can resume (snapshot/partials.ts, loaded only when there are some). */
async function resumableIds(contentDir: string): Promise<Set<string>> {
  const { partialSnapshots, resumable } = await import('../snapshot/partials.ts');
  return resumable(await partialSnapshots(contentDir));
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

const countOrder = ['project', 'component', 'translation', 'unit', 'change', 'language'];

/**
 * One line per snapshot, aligned, for a terminal; the server is named when the archive holds more
 * than one, and the release tags in a column of their own when the archive has any.
 */
export function formatListing(listings: readonly SnapshotListing[]): string {
  if (listings.length === 0) return 'No snapshots.';
  const servers = new Set(listings.map((listing) => listing.server));
  const tagged = listings.some((listing) => listing.tags.length > 0);
  const rows = listings.map((listing) => [
    listing.id,
    ...(tagged ? [listing.tags.join(' ')] : []),
    listing.state,
    servers.size > 1 ? `${listing.scope} on ${listing.server ?? '?'}` : listing.scope,
    countOrder
      .filter((kind) => listing.counts[kind] !== undefined)
      .map((kind) => `${listing.counts[kind]} ${kind}s`)
      .join(', ') || '-',
    formatBytes(listing.bytes),
    `+${formatBytes(listing.addedBytes)}`,
    [
      listing.raw > 0 ? `${listing.raw} raw records` : '',
      listing.problems > 0 ? `${listing.problems} problems` : '',
      listing.access > 0 ? `${listing.access} not readable` : '',
      listing.leftover ? 'no crawl can resume it: tmsnap prune --leftovers removes it' : '',
    ]
      .filter((note) => note !== '')
      .join(', '),
  ]);
  const header = ['snapshot', ...(tagged ? ['tags'] : []), 'state', 'scope', 'counts', 'size', 'new', ''];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
