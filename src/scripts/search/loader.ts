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

/** Loads `file` (relative to the search page) once; resolves with the data it registers. */
export function loadScript<T>(file: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    pending.set(file, (data) => resolve(data as T));
    const script = document.createElement('script');
    script.src = file;
    script.async = true;
    script.onerror = () => {
      pending.delete(file);
      reject(new Error(`could not load the search file ${file}`));
    };
    // The element has done its job once the data arrived; keep the DOM small.
    script.onload = () => script.remove();
    document.head.append(script);
  });
}
