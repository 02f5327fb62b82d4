/**
 * Builds the status site from one snapshot: Astro's `build()` in this process, with the search
 * index written by the integration in `astro.config.mjs` (site/search-integration.ts). The
 * pages find the snapshot through the environment (site/env.ts). See docs/site.md.
 */
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSnapshot } from '../snapshot/reader.ts';
import { siteEnv } from './env.ts';

export interface BuildOptions {
  /** Content folder holding the snapshots. */
  content: string;
  /** Snapshot id; the newest complete one when absent. */
  snapshot?: string;
  /** Output folder, replaced by the build. */
  out: string;
  /** Where the site will be published (absolute links in the Atom feed and badge snippets). */
  siteUrl?: string;
  /** Base path the site is served under. */
  base: string;
  hideAuthors: boolean;
}

/** The package folder (`astro.config.mjs`, `src/`): only read, a global install is read-only. */
const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** The `node_modules` folder Astro was loaded from, wherever npm put it. */
function nodeModulesOfAstro(): string {
  const entry = fileURLToPath(import.meta.resolve('astro'));
  const at = entry.lastIndexOf(`${sep}node_modules${sep}`);
  if (at === -1) throw new Error(`cannot tell which node_modules folder holds Astro (${entry})`);
  return entry.slice(0, at + `${sep}node_modules`.length);
}

/**
 * A build's own folder under the OS temp folder, which Astro takes as the project root: a
 * mirror of the package folder made of links, minus `.astro/`. Two reasons (docs/site.md,
 * "Where a build writes"):
 * - Astro writes its type declarations into `<root>/.astro/`, and a global install is
 *   read-only, so the package folder itself must never be the root.
 * - Astro stages a build's page chunks in `<cwd>/.astro/` whenever the output lies outside the
 *   working directory, so two builds from one working directory overwrite each other's chunks;
 *   each build runs from its own folder. The chunks import Astro by name, so `node_modules`
 *   links to the folder Astro was loaded from.
 * Vite keeps the links' paths (`preserveSymlinks`): resolved to the package folder, the pages
 * would lie outside the root, which Astro cannot build.
 */
async function stagingFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tmsnap-build-'));
  await symlink(nodeModulesOfAstro(), join(dir, 'node_modules'), 'junction');
  for (const entry of await readdir(packageDir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    await symlink(join(packageDir, entry.name), join(dir, entry.name), entry.isDirectory() ? 'junction' : 'file');
  }
  // Astro removes the chunk staging folder once it is empty and then lists it (ENOENT); in a
  // project it also holds Astro's type declarations, which it skips when copying: so does this one.
  await mkdir(join(dir, '.astro'));
  await writeFile(join(dir, '.astro', 'staging.d.ts'), 'export {};\n');
  await mkdir(join(dir, '.astro-cache'));
  return dir;
}

export async function buildSite(options: BuildOptions): Promise<void> {
  // Opened here so that a wrong folder or id fails with the reader's message before Astro starts.
  const snapshot = await openSnapshot(options.content, options.snapshot);
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  process.env[siteEnv.content] = options.content;
  process.env[siteEnv.snapshot] = snapshot.id;
  process.env[siteEnv.hideAuthors] = options.hideAuthors ? '1' : '';
  process.env[siteEnv.siteUrl] = options.siteUrl ?? '';
  const staging = await stagingFolder();
  const previousCwd = process.cwd();
  process.chdir(staging);
  try {
    const { build } = await import('astro');
    console.error(`tmsnap build: snapshot ${snapshot.id} of ${snapshot.manifest.server.base_url} → ${options.out}`);
    await build({
      root: staging,
      vite: { resolve: { preserveSymlinks: true } },
      outDir: options.out,
      cacheDir: join(staging, '.astro-cache'),
      base: options.base,
      ...(options.siteUrl === undefined ? {} : { site: options.siteUrl }),
      // Astro logs each page it writes: the progress of a long build.
      logLevel: 'info',
    });
    // Astro's content layer leaves these two empty modules in the output even without collections.
    await Promise.all(['content-assets.mjs', 'content-modules.mjs'].map((name) => rm(join(options.out, name), { force: true })));
  } finally {
    process.chdir(previousCwd);
    await rm(staging, { recursive: true, force: true });
  }
}

