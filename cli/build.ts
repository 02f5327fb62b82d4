import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Command, UsageError, exitCodes, parseCommandLine } from './command.ts';

const help = `Usage: tmsnap build [options]

Builds the static status site from one snapshot. Reads only the snapshot, never the server.
Every link in the site is relative: it works under any base path and opened from disk.

Options:
  --content DIR     content folder holding the snapshots (default: content)
  --snapshot ID     snapshot to build (default: the newest complete one)
  --out DIR         output folder, replaced by the build (default: dist)
  --site-url URL    where the site will be published (absolute links in the Atom feed and
                    badge embed snippets), e.g. https://example.github.io/project/
  --base PATH       base path the site is served under, e.g. /project/ (default: /)
  --hide-authors    show "a contributor" instead of user names (changes, last author)
  -h, --help        this help`;

export interface BuildOptions {
  content: string;
  snapshot?: string;
  out: string;
  siteUrl?: string;
  base: string;
  hideAuthors: boolean;
}

export function parseBuildArgs(args: string[]): BuildOptions {
  const parsed = parseCommandLine(args, {
    content: { type: 'string', default: 'content' },
    snapshot: { type: 'string' },
    out: { type: 'string', default: 'dist' },
    'site-url': { type: 'string' },
    base: { type: 'string', default: '/' },
    'hide-authors': { type: 'boolean', default: false },
  }).values;
  const siteUrl = parsed['site-url'];
  if (siteUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(siteUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new UsageError(`--site-url "${siteUrl}" is not an http(s) URL (expected e.g. https://example.github.io/project/)`);
    }
  }
  if (!parsed.base.startsWith('/')) throw new UsageError(`--base "${parsed.base}" must start with "/" (e.g. /project/)`);
  return {
    content: resolve(parsed.content),
    ...(parsed.snapshot === undefined ? {} : { snapshot: parsed.snapshot }),
    out: resolve(parsed.out),
    ...(siteUrl === undefined ? {} : { siteUrl }),
    base: parsed.base,
    hideAuthors: parsed['hide-authors'],
  };
}

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs Astro's build in this process. The pages find the snapshot through the environment
 * (src/utils/site-data.ts); each build gets its own Astro cache folder so that parallel builds
 * (tests, benches) do not share state.
 */
export async function buildSite(options: BuildOptions): Promise<void> {
  // Checked here so that a wrong folder or id fails with the reader's message before Astro starts.
  const { openSnapshot } = await import('../snapshot/reader.ts');
  const snapshot = await openSnapshot(options.content, options.snapshot);
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  const { siteEnv } = await import('../src/utils/site-data.ts');
  process.env[siteEnv.content] = options.content;
  process.env[siteEnv.snapshot] = snapshot.id;
  process.env[siteEnv.hideAuthors] = options.hideAuthors ? '1' : '';
  process.env[siteEnv.siteUrl] = options.siteUrl ?? '';
  const cacheDir = await mkdtemp(join(tmpdir(), 'tmsnap-astro-'));
  // Astro stages a build's page chunks in <cwd>/.astro/ whenever the output lies outside the
  // working directory, so two such builds at once overwrite each other's chunks. Each build
  // works from its own folder inside the project instead (inside, so the chunks still find
  // node_modules).
  await mkdir(join(root, '.tmsnap-tmp'), { recursive: true });
  const workDir = await mkdtemp(join(root, '.tmsnap-tmp', 'build-'));
  // Astro removes that staging folder once it is empty and then lists it (ENOENT); in a project
  // it also holds Astro's type declarations, which it skips when copying: so does this one.
  await mkdir(join(workDir, '.astro'));
  await writeFile(join(workDir, '.astro', 'staging.d.ts'), 'export {};\n');
  const previousCwd = process.cwd();
  process.chdir(workDir);
  try {
    const { build } = await import('astro');
    console.error(`tmsnap build: snapshot ${snapshot.id} of ${snapshot.manifest.server.base_url} → ${options.out}`);
    await build({
      root,
      outDir: options.out,
      cacheDir,
      base: options.base,
      ...(options.siteUrl === undefined ? {} : { site: options.siteUrl }),
      // Astro logs each page it writes: the progress of a long build.
      logLevel: 'info',
    });
    // Astro's content layer leaves these two empty modules in the output even without collections.
    await Promise.all(['content-assets.mjs', 'content-modules.mjs'].map((name) => rm(join(options.out, name), { force: true })));
    // The search index goes next to the search page Astro just wrote (search/index.html).
    const { buildSearchIndex } = await import('../search/build.ts');
    const { siteUnitHref } = await import('../search/site-links.ts');
    const searchStarted = performance.now();
    const search = await buildSearchIndex(snapshot, options.out, { unitHref: siteUnitHref, onProgress: (message) => console.error(`tmsnap build: ${message}`) });
    console.error(
      `tmsnap build: search index of ${search.units} units (${search.sources} distinct sources) in ${search.shards} shards, ` +
        `${(search.bytes / 1e6).toFixed(1)} MB, ${((performance.now() - searchStarted) / 1000).toFixed(1)} s`,
    );
  } finally {
    process.chdir(previousCwd);
    await Promise.all([rm(cacheDir, { recursive: true, force: true }), rm(workDir, { recursive: true, force: true })]);
  }
}

export const command: Command = {
  summary: 'build the static status site from a snapshot',
  help,
  async run(args) {
    const options = parseBuildArgs(args);
    const started = performance.now();
    await buildSite(options);
    console.error(`tmsnap build: done in ${((performance.now() - started) / 1000).toFixed(1)} s, open ${join(options.out, 'index.html')}`);
    return exitCodes.ok;
  },
};
