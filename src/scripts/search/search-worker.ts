/**
 * The search page's worker: builds MiniSearch's index of a shard's texts and searches it, off
 * the page's one thread (docs/search.md, "Workers"). Bundled on its own and carried as text in
 * `worker.js` (`workerFile`), started from a `blob:` URL: a worker cannot load a `file://` script, so the
 * page passes each shard's texts in once, and the index stays here for later queries.
 */
import { matchesOf, packMatches, type PackedMatches } from '../../../search/query.ts';
import { joinedDocuments, searchText, textIndexOf, type TextIndex } from '../../../search/text-index.ts';
import { unpackTexts, type PackedTexts, type WorkerAnswer, type WorkerRequest } from './workers.ts';

/** The worker's global scope, typed here: the project's types are the page's (DOM), not a worker's. */
const scope = globalThis as unknown as {
  postMessage(message: WorkerAnswer, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<WorkerRequest>) => void): void;
};

const texts = new Map<string, PackedTexts>();
const indexes = new Map<string, TextIndex>();
let queue: Extract<WorkerRequest, { kind: 'search' }>[] = [];
/** The newest query the page asked about: searches of older ones are dropped unrun. */
let latest = -1;
let running = false;
// One search per task, so a newer query's message is read between two searches.
const tick = new MessageChannel();

function next(): void {
  running = false;
  const task = queue.shift();
  if (!task) return;
  try {
    let index = indexes.get(task.key);
    if (!index) {
      const packed = texts.get(task.key);
      if (!packed) throw new Error(`search worker: no texts for ${task.key}`);
      indexes.set(task.key, (index = textIndexOf(joinedDocuments(unpackTexts(packed)))));
      texts.delete(task.key);
    }
    const matches: PackedMatches = packMatches(matchesOf(searchText(index, task.query), task.words));
    scope.postMessage({ generation: task.generation, key: task.key, matches }, [matches.ids.buffer, matches.scores.buffer, matches.exact.buffer]);
  } catch (error) {
    scope.postMessage({ generation: task.generation, key: task.key, error: String(error) }, []);
  }
  if (queue.length > 0) {
    running = true;
    tick.port2.postMessage(null);
  }
}

tick.port1.onmessage = next;

scope.addEventListener('message', ({ data }) => {
  if (data.kind === 'texts') {
    texts.set(data.key, data.texts);
    return;
  }
  if (data.generation > latest) {
    latest = data.generation;
    queue = queue.filter((task) => task.generation >= latest);
  }
  queue.push(data);
  if (!running) {
    running = true;
    tick.port2.postMessage(null);
  }
});

scope.postMessage({ generation: -1, key: '', ready: true }, []);
