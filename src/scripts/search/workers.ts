/**
 * The page's search workers (docs/search.md, "Workers"): each shard's index is built and
 * searched in one worker, which keeps it for later queries. Workers start from a `blob:` URL
 * of the worker's bundled text (`workerFile`, loaded as a script when first needed), which runs
 * from `file://` too; shard files load in the page (a worker cannot load a `file://` script),
 * so the page passes each shard's texts once. Any failure stops them all, and the page searches
 * on its own thread as before.
 */
import { joinForms } from '../../../search/matching.ts';
import type { PackedMatches } from '../../../search/query.ts';

export type WorkerRequest =
  { kind: 'texts'; key: string; texts: PackedTexts } | { kind: 'search'; generation: number; key: string; query: string; words: readonly string[] };

export type WorkerAnswer = { generation: number; key: string } & ({ matches: PackedMatches } | { error: string } | { ready: true });

/**
 * A shard's texts as one string and each text's length: copied to a worker as a block, where
 * ten thousand strings each cost the structured clone its own step on the page's thread.
 */
export interface PackedTexts {
  text: string;
  lengths: Uint32Array;
}

/** Plural forms joined (`joinForms`) and packed in one pass: this runs on the page's thread for every shard. */
export function packTexts(texts: readonly (readonly string[])[]): PackedTexts {
  const lengths = new Uint32Array(texts.length);
  const joined: string[] = new Array<string>(texts.length);
  for (let at = 0; at < texts.length; at++) {
    const forms = texts[at]!;
    const text = forms.length === 1 ? forms[0]! : joinForms(forms);
    joined[at] = text;
    lengths[at] = text.length;
  }
  return { text: joined.join(''), lengths };
}

export function unpackTexts({ text, lengths }: PackedTexts): string[] {
  const texts: string[] = [];
  let at = 0;
  for (const length of lengths) texts.push(text.slice(at, (at += length)));
  return texts;
}

/** Matches of one shard for one query (`generation`). */
export type OnAnswer = (answer: { generation: number; key: string; matches: PackedMatches }) => void;

/** At most this many workers: the page's thread parses shards and draws beside them. */
export const maxWorkers = 4;

/** How many workers for a machine of `cores` logical cores (`navigator.hardwareConcurrency`, absent in some browsers). */
export function workerCount(cores: number | undefined): number {
  return Math.min(maxWorkers, Math.max(1, Math.floor(cores ?? 1)));
}

/** How long a worker may take to start before the page searches on its own thread instead. */
const startTimeoutMs = 10_000;

export class SearchWorkers {
  readonly #workers: Worker[];
  /** The worker each shard's texts went to: its index lives there. */
  readonly #home = new Map<string, number>();
  /** Texts sent to each worker, to place the next shard on the least loaded. */
  readonly #load: number[];
  readonly #onAnswer: OnAnswer;
  readonly #onFail: (reason: string) => void;
  #ready = 0;
  #failed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  private constructor(workers: Worker[], onAnswer: OnAnswer, onFail: (reason: string) => void) {
    this.#workers = workers;
    this.#load = workers.map(() => 0);
    this.#onAnswer = onAnswer;
    this.#onFail = onFail;
    for (const worker of workers) {
      worker.onmessage = ({ data }: MessageEvent<WorkerAnswer>) => this.#answer(data);
      worker.onerror = (event) => {
        // Handled: the page searches alone, rather than the error reaching the page as uncaught.
        event.preventDefault();
        this.#fail(event.message || 'worker error');
      };
      worker.onmessageerror = () => this.#fail('message error');
    }
  }

  /** Starts `count` workers running `source`, or none where the browser refuses (then the page searches alone). */
  static start(source: string, count: number, onAnswer: OnAnswer, onFail: (reason: string) => void): SearchWorkers | undefined {
    if (typeof Worker === 'undefined' || typeof Blob === 'undefined' || typeof URL.createObjectURL !== 'function') return undefined;
    const workers: Worker[] = [];
    try {
      const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      for (let at = 0; at < count; at++) workers.push(new Worker(url));
      // Every worker has read the URL once constructed: it can go.
      URL.revokeObjectURL(url);
    } catch {
      for (const worker of workers) worker.terminate();
      return undefined;
    }
    return new SearchWorkers(workers, onAnswer, onFail);
  }

  /** Whether the shard `key`'s texts went to a worker: its index is (or will be) there. */
  holds(key: string): boolean {
    return this.#home.has(key);
  }

  get size(): number {
    return this.#workers.length;
  }

  /**
   * Searches the shard `key` for `query` in its worker, its texts (plural forms each) passed with
   * the first search; the matches come back through `onAnswer` with `generation`.
   */
  search(generation: number, key: string, texts: () => readonly (readonly string[])[], query: string, words: readonly string[]): void {
    if (this.#failed) return;
    let home = this.#home.get(key);
    if (home === undefined) {
      const packed = packTexts(texts());
      // An index's build takes about as long as its texts are: the shortest queue of text gets it.
      home = this.#load.indexOf(Math.min(...this.#load));
      this.#home.set(key, home);
      this.#load[home]! += packed.text.length;
      this.#post(home, { kind: 'texts', key, texts: packed });
    }
    this.#post(home, { kind: 'search', generation, key, query, words });
    if (this.#ready < this.#workers.length && this.#timer === undefined)
      this.#timer = setTimeout(() => this.#ready < this.#workers.length && this.#fail('workers did not start'), startTimeoutMs);
  }

  #post(worker: number, request: WorkerRequest): void {
    try {
      this.#workers[worker]!.postMessage(request, request.kind === 'texts' ? [request.texts.lengths.buffer] : []);
    } catch (error) {
      this.#fail(String(error));
    }
  }

  #answer(answer: WorkerAnswer): void {
    if (this.#failed) return;
    if ('ready' in answer) this.#ready++;
    else if ('error' in answer) this.#fail(answer.error);
    else this.#onAnswer(answer);
  }

  #fail(reason: string): void {
    if (this.#failed) return;
    this.#failed = true;
    clearTimeout(this.#timer);
    for (const worker of this.#workers) worker.terminate();
    this.#onFail(reason);
  }
}
