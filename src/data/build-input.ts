/**
 * The build input of this module graph (site-model/build-input.ts), handed over once: in Astro's
 * graph by the virtual module `virtual:tmsnap/build-input` (site/astro-integration.ts), in a bulk
 * writer thread from its `workerData` (site/bulk-pages.ts). What the data modules compute from it
 * is kept per input (`perBuild`), so that a second build in one thread starts afresh.
 */
import type { BuildInput } from '../../site-model/build-input.ts';

export type { BuildInput };

let current: BuildInput | undefined;

/** Makes `input` the one the data modules read; returns it. */
export function provideBuildInput(input: BuildInput): BuildInput {
  current = input;
  return input;
}

/** The input of the build being rendered. */
export function buildInput(): BuildInput {
  if (current === undefined) throw new Error('no build input: the pages are rendered by `tmsnap build` (site/build.ts), which hands one over');
  return current;
}

/** `compute` once per build input: the value for the input being rendered. */
export function perBuild<T>(compute: (input: BuildInput) => T): () => T {
  const made = new WeakMap<BuildInput, T>();
  return () => {
    const input = buildInput();
    if (!made.has(input)) made.set(input, compute(input));
    return made.get(input)!;
  };
}
