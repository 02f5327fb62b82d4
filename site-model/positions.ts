/**
 * Where each unit of a translation sits, handed from the bulk writers (site/bulk-pages.ts) to the
 * changes pages, so that Astro's thread links a change to its unit without reading the units a
 * second time (docs/site.md, "Changes pages' unit links"). A writer reads every unit of its
 * translations anyway; as it reads one translation's, it writes the unit ids sorted with their
 * positions (8 bytes a unit) to a file of the build's temp folder and says so on a
 * BroadcastChannel. A changes page waits for the files of the translations its changes name,
 * and asks the writers on the same channel to take those translations' components next.
 *
 * A channel rather than a module's state because Astro bundles the pages into its own module
 * graph: the page code and `buildSite` share the thread, not the modules. The file is the truth
 * (written whole, then renamed), the channel only the wake-up: a message sent before a page
 * listens is not lost, the page finds the file.
 */
import { createHash } from 'node:crypto';
import { access, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Channel name: one build per process at a time shares it (`buildSite` builds one at a time per folder). */
const channelName = (dir: string) => `tmsnap-unit-positions:${dir}`;

/** What travels on the channel. */
export type PositionsMessage = { kind: 'ready'; translation: string } | { kind: 'want'; translations: string[] } | { kind: 'failed'; reason: string };

/** Unit ids sorted, each with its index in position order: the two halves of one file. */
export interface UnitPositions {
  ids: Int32Array;
  indexes: Int32Array;
}

/** From a translation's units in position order. */
export function unitPositions(units: ReadonlyArray<{ id: number }>): UnitPositions {
  const order = units.map((unit, at) => [unit.id, at] as const).sort((a, b) => a[0] - b[0]);
  return { ids: Int32Array.from(order, ([id]) => id), indexes: Int32Array.from(order, ([, at]) => at) };
}

/** The index in position order of unit `unitId`, or undefined when the translation does not hold it. */
export function positionOf({ ids, indexes }: UnitPositions, unitId: number): number | undefined {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const id = ids[middle]!;
    if (id === unitId) return indexes[middle];
    if (id < unitId) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

// Translation paths hold slashes and server-chosen text of any length (slugs up to 100
// characters each): the file is named by the path's sha256, which fits any file system's name limit.
const fileOf = (dir: string, translation: string) => join(dir, `${createHash('sha256').update(translation, 'utf8').digest('hex')}.bin`);

export function positionsChannel(dir: string): BroadcastChannel {
  const channel = new BroadcastChannel(channelName(dir));
  // A listening channel would keep the thread alive after its work: it must not.
  (channel as unknown as { unref?: () => void }).unref?.();
  return channel;
}

/** A writer's side: the translation's positions to the file, then the news. */
export async function publishPositions(dir: string, channel: BroadcastChannel, translation: string, positions: UnitPositions): Promise<void> {
  const file = fileOf(dir, translation);
  const bytes = Buffer.concat([
    Buffer.from(positions.ids.buffer, positions.ids.byteOffset, positions.ids.byteLength),
    Buffer.from(positions.indexes.buffer, positions.indexes.byteOffset, positions.indexes.byteLength),
  ]);
  await writeFile(`${file}.part`, bytes);
  await rename(`${file}.part`, file);
  channel.postMessage({ kind: 'ready', translation } satisfies PositionsMessage);
}

/** Tells the pages that no more positions will come (a writer failed). */
export function announceFailure(dir: string, reason: string): void {
  const channel = positionsChannel(dir);
  channel.postMessage({ kind: 'failed', reason } satisfies PositionsMessage);
  channel.close();
}

async function readPositions(file: string): Promise<UnitPositions> {
  const bytes = await readFile(file);
  const count = bytes.length / 8;
  // A copy into aligned memory: a Buffer may start anywhere in Node's pool.
  const all = new Int32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  return { ids: all.subarray(0, count), indexes: all.subarray(count) };
}

/**
 * The page's side: waits for the positions of `translations` (asking the writers for them first)
 * and reads each file when it comes. One listener for all waits.
 */
export class PositionsReader {
  private channel: BroadcastChannel | undefined;
  private readonly waiting = new Map<string, Array<{ done: () => void; fail: (error: Error) => void }>>();
  private readonly loaded = new Map<string, Promise<UnitPositions>>();
  private failure: Error | undefined;

  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Asks the writers to take these translations next; `positions` of them will come sooner. */
  want(translations: Iterable<string>): void {
    const missing = [...new Set(translations)].filter((path) => !this.loaded.has(path));
    if (missing.length > 0) this.listen().postMessage({ kind: 'want', translations: missing } satisfies PositionsMessage);
  }

  positions(translation: string): Promise<UnitPositions> {
    let loaded = this.loaded.get(translation);
    if (!loaded) {
      loaded = this.arrived(translation).then(() => readPositions(fileOf(this.dir, translation)));
      this.loaded.set(translation, loaded);
    }
    return loaded;
  }

  private listen(): BroadcastChannel {
    if (this.channel) return this.channel;
    const channel = positionsChannel(this.dir);
    channel.onmessage = (event) => {
      const message = (event as MessageEvent<PositionsMessage>).data;
      if (message.kind === 'ready') this.settle(message.translation);
      else if (message.kind === 'failed') {
        this.failure = new Error(`the bulk page writers stopped: ${message.reason}`);
        for (const path of [...this.waiting.keys()]) this.settle(path);
      }
    };
    this.channel = channel;
    return channel;
  }

  private settle(translation: string): void {
    const waiters = this.waiting.get(translation);
    if (!waiters) return;
    this.waiting.delete(translation);
    for (const { done, fail } of waiters) {
      if (this.failure) fail(this.failure);
      else done();
    }
    if (this.waiting.size === 0) {
      this.channel?.close();
      this.channel = undefined;
    }
  }

  private async arrived(translation: string): Promise<void> {
    if (this.failure) throw this.failure;
    // Listening before looking: a file written between the two is then announced to us.
    const wait = new Promise<void>((done, fail) => {
      const list = this.waiting.get(translation) ?? [];
      list.push({ done, fail });
      this.waiting.set(translation, list);
    });
    this.listen();
    const there = await access(fileOf(this.dir, translation)).then(
      () => true,
      () => false,
    );
    if (there) this.settle(translation);
    return wait;
  }
}
