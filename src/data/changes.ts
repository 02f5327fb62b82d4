/** The change log as the changes pages and the Atom feed show it, read chunk by chunk from the newest end. */
import { storedChange, type StoredChange } from '../../snapshot/schemas.ts';
import { authorLabel } from './authors.ts';
import { siteTree, type ComponentEntry, type Snapshot, type TranslationEntry } from './tree.ts';

export const changesPerPage = 100;
export const feedEntries = 50;

/** A change as the changes pages and the feed show it. */
export interface ChangeEntry {
  id: number;
  timestamp: string;
  action: number;
  user: string;
  target: string;
  translation: TranslationEntry | undefined;
  component: ComponentEntry | undefined;
}

export async function changeCount(): Promise<number> {
  const { snapshot } = await siteTree();
  return snapshot.index.changes.reduce((sum, chunk) => sum + chunk.count, 0);
}

// Pages are rendered newest first, so consecutive pages fall in the same or the previous
// chunk: two cached chunks mean each chunk is read once, and the log is never held whole.
const chunkCache = new Map<string, Promise<StoredChange[]>>();

function readChunk(snapshot: Snapshot, hash: string): Promise<StoredChange[]> {
  let chunk = chunkCache.get(hash);
  if (!chunk) {
    chunk = snapshot.store.readJson(hash).then((stored) => {
      if (!Array.isArray(stored)) throw new Error(`snapshot ${snapshot.id}: change chunk ${hash} is not a list`);
      return stored.map((change) => storedChange.parse(change));
    });
    if (chunkCache.size >= 2) chunkCache.delete(chunkCache.keys().next().value ?? '');
    chunkCache.set(hash, chunk);
  }
  return chunk;
}

// Change targets can be whole source strings; the list shows the start of them.
const maxTargetLength = 200;

/** Changes `from … from+count-1` counted from the newest (0 = the newest change). */
export async function newestChanges(from: number, count: number): Promise<ChangeEntry[]> {
  const { snapshot, translations, components, hideAuthors } = await siteTree();
  const total = await changeCount();
  // Ascending positions [low, high) of the changes wanted.
  const high = Math.max(total - from, 0);
  const low = Math.max(high - count, 0);
  const picked: StoredChange[] = [];
  let offset = 0;
  for (const chunk of snapshot.index.changes) {
    const chunkEnd = offset + chunk.count;
    if (chunkEnd > low && offset < high) {
      const changes = await readChunk(snapshot, chunk.hash);
      picked.push(...changes.slice(Math.max(low - offset, 0), Math.min(high - offset, chunk.count)));
    }
    offset = chunkEnd;
  }
  const translationByPath = new Map(translations.map((t) => [t.path, t]));
  const componentByPath = new Map(components.map((c) => [c.path, c]));
  return picked.reverse().map((change) => ({
    id: change.id,
    timestamp: change.timestamp,
    action: change.action,
    user: authorLabel(change.user ?? change.author, hideAuthors, true),
    target: change.target.length > maxTargetLength ? `${change.target.slice(0, maxTargetLength)}…` : change.target,
    translation: change.translation === null ? undefined : translationByPath.get(change.translation),
    component: change.component === null ? undefined : componentByPath.get(change.component),
  }));
}
