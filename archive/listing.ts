/**
 * `tmsnap snapshots`: every snapshot with its date, scope, counts, size and state. Size is
 * counted two ways, since objects are shared: everything the snapshot needs, and what it
 * added over the snapshot before it (what deleting it alone could ever free).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listObjects, listSnapshotDirs, type ObjectKey, partialSnapshots, readManifestIn, resumable, stateFile } from '../snapshot/index.ts';
import { references, type StoredForms } from './references.ts';
import { pinnedSnapshots, type Tag } from './tags.ts';

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

/** Newest first; `tags`: the archive's release tags (archive/tags.ts), shown beside the snapshots they pin. */
export async function snapshotListings(contentDir: string, tags: readonly Tag[] = []): Promise<SnapshotListing[]> {
  const pinned = pinnedSnapshots(tags);
  const { objects } = await listObjects(contentDir);
  const sizes = new Map<ObjectKey, number>(objects.map((object) => [object.key, object.size]));
  // An object listed on disk is stored under its own name: `references` need not stat it again.
  const forms: StoredForms = new Map(objects.map((object) => [object.key, { key: object.key }]));
  const dirs = await listSnapshotDirs(contentDir);
  const resumed = resumable(await partialSnapshots(contentDir));
  const listings: SnapshotListing[] = [];
  const referenced: Set<ObjectKey>[] = [];
  for (const snapshot of dirs) {
    const found = await references(contentDir, snapshot, forms);
    referenced.push(new Set(found.objects.keys()));
    const bytes = [...found.objects.keys()].reduce((sum, key) => sum + (sizes.get(key) ?? 0), 0);
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
        problems: found.problems.length,
        raw: 0,
        access: 0,
        bytes,
        addedBytes: 0,
        leftover: !resumed.has(snapshot.id),
        tags: [],
      });
      continue;
    }
    const manifest = await readManifestIn(snapshot.dir).catch(() => undefined);
    listings.push({
      id: snapshot.id,
      state: manifest === undefined || found.problems.length > 0 ? 'damaged' : manifest.complete ? 'complete' : 'incomplete',
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
      tags: pinned.get(snapshot.id) ?? [],
    });
  }
  // Newest first: the next older finished snapshot is further down the list.
  for (const [index, listing] of listings.entries()) {
    const older = listings.findIndex((candidate, at) => at > index && candidate.state !== 'in progress');
    const previous = older === -1 ? new Set<ObjectKey>() : referenced[older]!;
    listing.addedBytes = [...referenced[index]!].filter((key) => !previous.has(key)).reduce((sum, key) => sum + (sizes.get(key) ?? 0), 0);
  }
  return listings;
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
