/**
 * Loads search files as classic scripts. `fetch` of local files is blocked under `file://`,
 * script tags are not: each file calls the global registration function with its data.
 */
import { registerFunction } from '../../../search/format.ts';

type Registration = (file: string, data: unknown) => void;

const pending = new Map<string, (data: unknown) => void>();

export function installRegistration(): void {
  const register: Registration = (file, data) => {
    pending.get(file)?.(data);
    pending.delete(file);
  };
  (globalThis as unknown as Record<string, Registration>)[registerFunction] = register;
}

/**
 * The page's own script elements for the index's first files (`data-search-early`), run as they
 * arrive, before this script: what they registered so far (`null` for a file that failed), kept
 * by the page's inline registration (docs/search.md, "Start-up").
 */
const earlyData = () => (globalThis as unknown as { tmsnapSearchEarly?: Record<string, unknown> }).tmsnapSearchEarly ?? {};

/** Loads `file` (relative to the search page) once; resolves with the data it registers. */
export function loadScript<T>(file: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const failure = () => {
      pending.delete(file);
      reject(new Error(`could not load the search file ${file}`));
    };
    const early = earlyData();
    if (file in early) {
      const data = early[file];
      delete early[file];
      return data === null ? failure() : resolve(data as T);
    }
    pending.set(file, (data) => resolve(data as T));
    const own = [...document.querySelectorAll<HTMLScriptElement>('script[data-search-early]')].find((node) => node.getAttribute('src') === file);
    if (own) {
      // Still on its way: it registers through `pending` when it runs; a file that ran without
      // registering (not an index file) fails like one that did not load (the page's listener
      // marks it if that happened before this script ran).
      own.addEventListener('error', failure);
      own.addEventListener('load', () => pending.has(file) && failure());
      return;
    }
    const script = document.createElement('script');
    script.src = file;
    script.async = true;
    script.onerror = failure;
    // The element has done its job once the data arrived; keep the DOM small.
    script.onload = () => script.remove();
    document.head.append(script);
  });
}
