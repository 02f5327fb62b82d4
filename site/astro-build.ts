/**
 * Astro's part of a build, run in a process of its own whose working folder is the build's
 * staging folder (site/build.ts, `stagingFolder`): Astro stages its page chunks in
 * `<cwd>/.astro/` whenever the output lies outside the working folder, so two builds from one
 * folder would overwrite each other's chunks, and the user's folder would get an `.astro/`.
 * A process started in its own folder needs no `process.chdir` (docs/site.md).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuildInput } from '../site-model/build-input.ts';
import { tmsnapSite } from './astro-integration.ts';

/** What the build process is told, as one message. */
export interface AstroRun {
  input: BuildInput;
  /** The staging folder: Astro's root and this process's working folder. */
  root: string;
  out: string;
  base: string;
  siteUrl?: string;
  /** Astro's own log, a line per page, on stdout; otherwise only its warnings and errors, on stderr. */
  verbose: boolean;
}

export async function runAstroBuild(run: AstroRun, onPage?: () => void): Promise<void> {
  const { build } = await import('astro');
  await build({
    root: run.root,
    // The output folder was emptied before, and the bulk writers are writing into it already.
    vite: { resolve: { preserveSymlinks: true }, build: { emptyOutDir: false } },
    outDir: run.out,
    // Quiet, the integration counts the pages for the progress line.
    integrations: [tmsnapSite(run.input, onPage)],
    cacheDir: join(run.root, '.astro-cache'),
    base: run.base,
    ...(run.siteUrl === undefined ? {} : { site: run.siteUrl }),
    logLevel: run.verbose ? 'info' : 'warn',
  });
  // Astro's content layer leaves these two empty modules in the output even without collections.
  await Promise.all(['content-assets.mjs', 'content-modules.mjs'].map((name) => rm(join(run.out, name), { force: true })));
}
