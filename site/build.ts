/**
 * Builds the status site from one snapshot: Astro's `build()` in a process of its own
 * (site/astro-build.ts) with the integration of site/astro-integration.ts, which hands the pages
 * the build input (site-model/build-input.ts) and writes the search index, and the bulk writers
 * beside it, threads of this process, which get the same input as their `workerData`. See docs/site.md.
 */
import { readdirSync, statSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readdir, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { clearLeftovers, newSiteFolder, planSwap, siteMarkFile, swapIn } from './site-folder.ts';
import { fork } from 'node:child_process';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listSnapshots, openSnapshot, type Snapshot } from '../snapshot/index.ts';
import type { BuildInput, SiteDataset } from '../site-model/build-input.ts';
import type { Levels } from '../archive/levels.ts';
import type { PageSettings, UiLanguage } from '../site-model/page-settings.ts';
import type { AstroRun } from './astro-build.ts';
import type { AstroProcessMessage, AstroUsage } from './astro-process.ts';
import { siblingModule } from './sibling-module.ts';
import type { BulkReport } from './bulk-pages.ts';
import { bulkWriters, startBulkWriters } from './bulk-workers.ts';
import { sitePaths, stringsPerNeedPage, unitPageCount } from '../site-model/paths.ts';
import { changesPerPage, publishedChanges } from '../src/data/changes.ts';
import { needCounts } from '../src/data/help-needed.ts';
import type { PublishKind } from '../site-model/privacy.ts';
import { publicationOfView, publishedSnapshot } from '../site-model/published-snapshot.ts';
import { componentPathOf, siteRecords } from '../site-model/records.ts';
import { generatedFavicon, robotsTxt, sitemapFiles } from '../site-model/web.ts';

export interface BuildOptions {
  /** Content folder holding the snapshots. */
  content: string;
  /** Snapshot id; the newest complete one when absent. */
  snapshot?: string;
  /**
   * Output folder, replaced by the build once the new site is complete; what no build wrote in
   * it is kept (site/site-folder.ts).
   */
  out: string;
  /** Let the new site replace files of the same name in `out` that no build wrote (`--force`). */
  force?: boolean;
  /** Aborted (Ctrl-C): the build stops, `out` keeps what it held, and `buildSite` throws `BuildInterrupted`. */
  signal?: AbortSignal;
  /** Where the site will be published (absolute links in the Atom feed and badge snippets). */
  siteUrl?: string;
  /** Base path the site is served under. */
  base: string;
  hideAuthors: boolean;
  /**
   * What a keyed crawl's site shows beyond what an anonymous visitor of the server sees, and
   * `emails` to keep e-mail addresses (`--publish`; site-model/privacy.ts, docs/site.md). None by default.
   */
  publish?: readonly PublishKind[];
  /** Branding and settings (site/config.ts); files are absolute paths. */
  title?: string;
  logo?: string;
  favicon?: string;
  css?: string;
  footer?: string;
  public?: string;
  noindex?: boolean;
  uiLang?: UiLanguage;
  /** String histories from the archive (default true). */
  history?: boolean;
  /** Release levels (`--levels`, archive/levels.ts); none when absent. */
  levels?: Levels;
  /** Credits pages and downloads (`--credits`); off when absent. */
  credits?: boolean;
  /**
   * `--dataset`: writes the archive's tables (docs/dataset.md) of the published view, up to
   * `snapshot`, as the SQLite file `file` of the new site, linked from the home page. Handed in
   * by cli/build.ts: site/ does not import dataset/ (eslint.config.js). Absent: no dataset.
   */
  dataset?: (file: string, snapshot: string) => Promise<{ snapshots: number }>;
  /** Astro's own log, a line per page; otherwise `onProgress` is called as pages are written. */
  verbose?: boolean;
  onProgress?: (progress: BuildProgress) => void;
  /**
   * The figures of the pages written outside Astro (site/bulk-pages.ts), for the benches, and the
   * seconds Astro's build took (its pages, Vite and the search index) while they were written, and
   * the CPU and peak RSS of Astro's process, which this process's own figures leave out.
   */
  onBulkPages?: (report: BulkReport, astroSeconds: number, astroUsage: AstroUsage) => void;
  /** The line said when projects are left out of the site, instead of the build's own (the demo's, for someone who gave no key). */
  withheldLine?: (projects: number) => string;
}

export interface BuildProgress {
  done: number;
  /** Estimated from the snapshot's figures. */
  total: number;
}

export interface BuildSummary {
  snapshot: string;
  pages: number;
  files: number;
  bytes: number;
  seconds: number;
  /** The dataset `--dataset` wrote: its path in the site, size and snapshots. */
  dataset?: SiteDataset;
}

/** A build that cannot start: no archive, no snapshot, a missing file. One line, exit 1. */
export class BuildInputError extends Error {
  override name = 'BuildInputError';
}

const imageTypes = new Set(['.svg', '.png', '.ico', '.jpg', '.jpeg', '.webp', '.gif']);

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
 *   each build's Astro runs in a process started in its own folder (site/astro-build.ts). The chunks import Astro by name, so `node_modules`
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

/**
 * Opens the snapshot and checks every input file before anything is written, so that a wrong
 * folder, id or file fails with one line naming it (issue 12) and leaves nothing behind.
 */
async function openInputs(options: BuildOptions): Promise<Snapshot> {
  const isDirectory = await stat(options.content).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDirectory) throw new BuildInputError(`no archive folder at ${options.content}: run \`tmsnap crawl\` first, or pass --content DIR`);
  const summaries = await listSnapshots(options.content);
  if (options.snapshot === undefined && !summaries.some((s) => s.complete)) {
    throw new BuildInputError(`no complete snapshot in ${join(options.content, 'snapshots')}: run \`tmsnap crawl\` first, or pass --content DIR`);
  }
  if (options.snapshot !== undefined && !summaries.some((s) => s.id === options.snapshot && s.finished)) {
    throw new BuildInputError(
      `no finished snapshot ${options.snapshot} in ${join(options.content, 'snapshots')}: \`tmsnap snapshots --content ${options.content}\` lists them`,
    );
  }
  for (const [flag, file] of [
    ['--logo', options.logo],
    ['--favicon', options.favicon],
    ['--css', options.css],
  ] as const) {
    if (file === undefined) continue;
    if (
      !(await stat(file).then(
        (s) => s.isFile(),
        () => false,
      ))
    )
      throw new BuildInputError(`${flag} ${file}: no such file`);
    if (flag !== '--css' && !imageTypes.has(extname(file).toLowerCase()))
      throw new BuildInputError(`${flag} ${file}: expected an image (${[...imageTypes].join(', ')})`);
  }
  if (
    options.public !== undefined &&
    !(await stat(options.public).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    throw new BuildInputError(`--public ${options.public}: no such folder`);
  }
  try {
    return await openSnapshot(options.content, options.snapshot);
  } catch (error) {
    throw new BuildInputError(`cannot open the snapshot in ${options.content}: ${(error as Error).message}`);
  }
}

/** Where the branding files go in the site (their extension kept). */
function brandPaths(options: BuildOptions): Pick<PageSettings, 'logo' | 'favicon' | 'css'> {
  return {
    favicon: options.favicon === undefined ? 'favicon.svg' : `favicon${extname(options.favicon).toLowerCase()}`,
    ...(options.logo === undefined ? {} : { logo: `assets/brand/logo${extname(options.logo).toLowerCase()}` }),
    ...(options.css === undefined ? {} : { css: 'assets/brand/custom.css' }),
  };
}

/**
 * Files the build will report as written, from the snapshot's figures: the denominator of the
 * progress line, which counts every page, feed, badge and raw file the writers and Astro write
 * (issue 36: an estimate of the pages only was half the count, and the line ended early).
 * A component of two translations or more has a string page per source string, about its
 * largest translation's total; the changes pages stop at `publishedChanges`.
 */
async function expectedFiles(snapshot: Snapshot): Promise<number> {
  const records = await siteRecords(snapshot);
  const changes = snapshot.index.changes.reduce((sum, chunk) => sum + chunk.count, 0);
  const stored = snapshot.paths();
  let perTranslation = 0;
  const byComponent = new Map<string, { translations: number; largest: number }>();
  for (const { path, record } of records.translations) {
    const component = record.component ?? componentPathOf(path);
    const seen = byComponent.get(component) ?? { translations: 0, largest: 0 };
    byComponent.set(component, { translations: seen.translations + 1, largest: Math.max(seen.largest, record.total) });
    // Its unit pages, its page, two badges, its raw file, and a page per 500 strings of each need (waiting for review aside).
    const needs = Object.values(needCounts(record, undefined, false)).filter((count) => count > 0);
    perTranslation +=
      unitPageCount(record.total) + 3 + (stored.has(`${path}file/`) ? 1 : 0) + needs.reduce((sum, count) => sum + Math.ceil(count / stringsPerNeedPage), 0);
  }
  const stringPages = [...byComponent.values()].reduce((sum, { translations, largest }) => sum + (translations > 1 ? largest : 0), 0);
  // Astro's: the site's own pages, a page and two badges per component, a page, changes page, feed
  // and two badges per project, a page, changes page, consistency page and feed per language.
  const astro = 10 + Math.min(Math.ceil(changes / changesPerPage), publishedChanges / changesPerPage);
  return astro + perTranslation + stringPages + records.components.length * 3 + records.projects.length * 5 + records.languages.length * 4;
}

export { siteMarkFile };

/**
 * Refuses to build into the archive the site is built from, whatever the caller checked: the
 * command checked the folder (cli/output-guard.ts); this last check holds for any caller.
 */
async function refuseArchive(dir: string, content: string): Promise<void> {
  const [out, archive] = await Promise.all([dir, content].map((path) => realpath(path).catch(() => resolve(path))));
  const within = (a: string, b: string) => a === b || a.startsWith(b.endsWith(sep) ? b : b + sep);
  if (within(out!, archive!) || within(archive!, out!)) {
    throw new BuildInputError(`refusing to write ${dir}: it is, holds or lies in the archive ${content}; give another --out`);
  }
}

/**
 * Files, pages and bytes of the new site, walked with synchronous calls: nothing else runs on
 * this thread then (Astro and the writers are done), and the 1M site's 67,354 files took 1.0 s
 * so against 5.7–7.6 s read 64 at a time through promises (docs/decisions/2026-11-29-build-1m.md,
 * fourth session).
 */
function folderSize(dir: string): { files: number; pages: number; bytes: number } {
  const figures = { files: 0, pages: 0, bytes: 0 };
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        figures.files += 1;
        if (entry.name.endsWith('.html')) figures.pages += 1;
        figures.bytes += statSync(path).size;
      }
    }
  };
  walk(dir);
  return figures;
}

/**
 * Runs Astro's build in a process of its own, started in the staging folder (site/astro-build.ts
 * says why); resolves with its CPU and memory figures.
 */
function astroProcess(run: AstroRun, onPage: () => void, abort: AbortSignal | undefined): Promise<AstroUsage> {
  return new Promise((done, fail) => {
    const child = fork(fileURLToPath(siblingModule('astro-process', import.meta.url)), [], {
      cwd: run.root,
      execArgv: [],
      // Astro's own switch: a build sends nothing anywhere.
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let outcome: AstroProcessMessage | undefined;
    child.on('message', (message: AstroProcessMessage) => {
      if (message.kind === 'page') onPage();
      else outcome = message;
    });
    const stop = () => child.kill();
    abort?.addEventListener('abort', stop);
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      abort?.removeEventListener('abort', stop);
      if (outcome?.kind === 'done' && code === 0) return done(outcome.usage);
      if (outcome?.kind === 'failed') {
        const error = new Error(outcome.message, outcome.cause === undefined ? undefined : { cause: new Error(outcome.cause) });
        if (outcome.stack !== undefined) error.stack = outcome.stack;
        return fail(error);
      }
      fail(new Error(`Astro's build stopped (${signal ?? `exit code ${code}`})`));
    });
    child.send(run);
  });
}

/** A build stopped by its `signal` (Ctrl-C): `message` says in one line what the output folder holds. */
export class BuildInterrupted extends Error {
  override name = 'BuildInterrupted';
}

/**
 * Builds the site into a folder of its own beside `options.out` and swaps it in once complete
 * (site/site-folder.ts): until then `out` keeps the site it had, whole, whatever stops the build.
 */
export async function buildSite(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const snapshot = await openInputs(options);
  // The real folder, so that a link named by --out keeps pointing at the site.
  const out = await realpath(options.out).catch(() => resolve(options.out));
  await refuseArchive(out, options.content);
  for (const line of await clearLeftovers(out)) console.error(`tmsnap build: ${line}`);
  const hadSite = await stat(out).then(
    () => true,
    () => false,
  );
  const fresh = await newSiteFolder(out);
  const interrupted = () =>
    new BuildInterrupted(
      hadSite
        ? `interrupted: the site in ${options.out} is the one it held before, unchanged; nothing of this build was kept`
        : `interrupted: nothing of this build was kept, and ${options.out} was not created`,
    );
  let carried: string[];
  let summary: BuildSummary;
  try {
    summary = await writeSite(options, snapshot, fresh);
    if (options.signal?.aborted) throw interrupted();
    carried = await planSwap(fresh, out, options.force ?? false, (line) => new BuildInputError(line));
  } catch (error) {
    await rm(fresh, { recursive: true, force: true });
    throw options.signal?.aborted ? interrupted() : error;
  }
  // Renames only, from here: not worth stopping, and over before a second Ctrl-C could matter.
  await swapIn(fresh, out, carried);
  if (carried.length > 0) console.error(`tmsnap build: kept in ${options.out} what no build wrote: ${carried.join(', ')}`);
  return { ...summary, seconds: Math.round(performance.now() - started) / 1000 };
}

/** Writes the whole site of `snapshot` into the empty folder `target`. */
async function writeSite(options: BuildOptions, snapshot: Snapshot, target: string): Promise<BuildSummary> {
  const started = performance.now();
  const brand = brandPaths(options);
  const settings: PageSettings = {
    ...brand,
    favicon: brand.favicon ?? 'favicon.svg',
    noindex: options.noindex ?? false,
    uiLang: options.uiLang ?? 'en',
    base: options.siteUrl === undefined ? options.base : new URL(options.siteUrl).pathname,
    history: options.history ?? true,
    ...(options.title === undefined ? {} : { title: options.title }),
    ...(options.footer === undefined ? {} : { footer: options.footer }),
  };
  const published = await publishedSnapshot(snapshot, { publish: options.publish ?? [], hideAuthors: options.hideAuthors });
  const withheld = publicationOfView(published)?.hiddenProjects.size ?? 0;
  if (withheld > 0) {
    console.error(
      options.withheldLine?.(withheld) ??
        `tmsnap build: ${withheld} project(s) of this keyed crawl left out: an anonymous visitor of the server cannot see them, or the snapshot does not say they can (--publish private-projects publishes them)`,
    );
  }
  const progress: BuildProgress = { done: 0, total: options.verbose ? 0 : await expectedFiles(published) };
  const onFiles = (files: number) => {
    progress.done += files;
    progress.total = Math.max(progress.total, progress.done);
    if (!options.verbose) options.onProgress?.(progress);
  };
  // The pages that grow with the units (unit, string and translation pages, badges, raw files) are
  // written as strings by worker threads, one share of the components each, while Astro builds
  // the rest (docs/site.md, "Pages written outside Astro"): both cores at work.
  // The changes pages take their units' positions from Astro's own read of every unit, for the
  // consistency pages (src/data/changes.ts), not from the writers (docs/site.md).
  const input: BuildInput = {
    content: resolve(options.content),
    snapshot: snapshot.id,
    hideAuthors: options.hideAuthors,
    ...(options.siteUrl === undefined ? {} : { siteUrl: options.siteUrl }),
    publish: [...(options.publish ?? [])],
    settings,
    ...(options.levels === undefined ? {} : { levels: options.levels }),
    ...(options.credits === true ? { credits: true } : {}),
  };
  const writers = startBulkWriters(input, target, bulkWriters(), onFiles);
  let dataset: SiteDataset | undefined;
  try {
    // While the writers work: the home page Astro renders links the file with its size.
    dataset = options.dataset && (await writeSiteDataset(options.dataset, target, snapshot.id));
    if (options.signal?.aborted) throw new Error('interrupted');
  } catch (error) {
    await writers.stop();
    throw error;
  }
  const astroStarted = performance.now();
  let astroUsage: AstroUsage = { cpuSeconds: 0, maxRssKb: 0 };
  const staging = await stagingFolder();
  try {
    if (options.verbose) console.error(`tmsnap build: snapshot ${snapshot.id} of ${snapshot.manifest.server.base_url} → ${options.out}`);
    const run: AstroRun = {
      input: dataset === undefined ? input : { ...input, dataset },
      root: staging,
      out: target,
      base: options.base,
      ...(options.siteUrl === undefined ? {} : { siteUrl: options.siteUrl }),
      verbose: options.verbose ?? false,
    };
    astroUsage = await astroProcess(run, () => onFiles(1), options.signal);
  } catch (error) {
    await writers.stop();
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const astroSeconds = (performance.now() - astroStarted) / 1000;
  const stopWriters = () => void writers.stop();
  options.signal?.addEventListener('abort', stopWriters);
  const bulk = await writers.report.finally(() => options.signal?.removeEventListener('abort', stopWriters));
  if (options.verbose) {
    console.error(
      `tmsnap build: ${bulk.unitPages} unit pages, ${bulk.stringPages} string pages, ${bulk.translationPages} translation pages and ${bulk.otherFiles} badges and raw files in ${bulk.seconds.toFixed(1)} s (Astro's build ${astroSeconds.toFixed(1)} s)`,
    );
  }
  options.onBulkPages?.(bulk, astroSeconds, astroUsage);
  await writeExtras(options, settings, target);
  const size = folderSize(target);
  return { snapshot: snapshot.id, ...size, seconds: Math.round(performance.now() - started) / 1000, ...(dataset ? { dataset } : {}) };
}

/** `--dataset`: the SQLite file of the published view at its place in the new site `target`. */
async function writeSiteDataset(write: NonNullable<BuildOptions['dataset']>, target: string, snapshot: string): Promise<SiteDataset> {
  const path = sitePaths.dataset();
  const file = join(target, ...path.split('/'));
  const { snapshots } = await write(file, snapshot);
  return { path, bytes: (await stat(file)).size, snapshots };
}

/** Branding files, favicon, robots.txt and sitemap, and the user's public folder (which never overwrites the site's files). */
async function writeExtras(options: BuildOptions, settings: PageSettings, out: string): Promise<void> {
  await mkdir(join(out, 'assets/brand'), { recursive: true });
  if (options.favicon === undefined) await writeFile(join(out, settings.favicon), generatedFavicon(options.title ?? 'tmsnap'));
  else await copyFile(options.favicon, join(out, settings.favicon));
  if (options.logo !== undefined && settings.logo !== undefined) await copyFile(options.logo, join(out, settings.logo));
  if (options.css !== undefined && settings.css !== undefined) await copyFile(options.css, join(out, settings.css));
  const robots = robotsTxt(options.siteUrl, settings.noindex);
  if (robots !== undefined) await writeFile(join(out, 'robots.txt'), robots);
  if (options.siteUrl !== undefined && !settings.noindex) {
    const pages = (await readdir(out, { recursive: true }))
      // Neither the 404 page nor /changes/1/, which only sends readers on to /changes/ (noindex).
      .filter((name) => name.endsWith('.html') && name !== '404.html' && name !== join('changes', '1', 'index.html'))
      .map((name) => name.split(sep).join('/'));
    for (const [name, text] of sitemapFiles(options.siteUrl, pages.sort())) await writeFile(join(out, name), text);
  }
  if (options.public !== undefined) await cp(options.public, out, { recursive: true, force: false, errorOnExist: false });
}
