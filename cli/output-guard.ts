/**
 * What a command may write into (issue 24): a build empties its output folder, so `--out .`
 * once deleted the archive beside it. Every command that writes checks its output here first
 * and refuses, in one line naming the path and saying what to do, anything it could destroy.
 * `outputRefusal` decides from facts gathered by `inspectOutput`; only the latter touches disk.
 */
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, parse, resolve, sep } from 'node:path';
import { OutputRefused } from './command.ts';
import { lockFileName, objectsFolder, snapshotsFolder } from '../snapshot/index.ts';

/** The file a build writes into its output folder, so the next build knows the folder is its own. */
export const siteMark = '.tmsnap-site';
/** The same for the folder `tmsnap demo` keeps its archive and site in. */
export const demoMark = '.tmsnap-demo';

/**
 * - `site`: a folder the command empties and fills (build).
 * - `archive`: an archive folder the command adds to (crawl, unpack).
 * - `demo`: the demo's own folder (an archive and a site inside).
 * - `file`: a file the command replaces (pack).
 */
export type OutputKind = 'site' | 'archive' | 'demo' | 'file';

export interface PathFacts {
  /** Absolute, with symbolic links of its existing part resolved. */
  path: string;
  type: 'missing' | 'folder' | 'file';
  /** A folder's entries (empty otherwise). */
  entries: readonly string[];
  /** A file that starts as gzip does (a pack written earlier). */
  gzip: boolean;
  /** A missing path's nearest existing ancestor, when that is a file: nothing can be made below it. */
  fileAbove?: string | undefined;
}

export interface OutputContext {
  cwd: string;
  home: string;
  /** The archive (`--content`) of a command that reads one and writes elsewhere; resolved like `path`. */
  archive?: string | undefined;
}

/** Entries that do not make a folder someone's: a publishing branch's checkout keeps `.git` (the build leaves it). */
const ignored = new Set(['.git']);

function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

function marked(kind: OutputKind, entries: readonly string[]): boolean {
  if (kind === 'site') return entries.includes(siteMark);
  if (kind === 'demo') return entries.includes(demoMark);
  // An archive: what a crawl or unpack writes first, or the lock a writer holds on it.
  return entries.includes(snapshotsFolder) || entries.includes(objectsFolder) || entries.includes(lockFileName);
}

/**
 * Why `flag` may not name `target`, as the one line to print, or undefined when it may. The root
 * folder, the home folder and the archive (the folder itself, one inside it or one holding it)
 * are refused even with `force`; the current folder and a non-empty folder without the mark of
 * an earlier tmsnap output only without it.
 */
export function outputRefusal(target: PathFacts, context: OutputContext, options: { kind: OutputKind; flag: string; force: boolean }): string | undefined {
  const { kind, flag, force } = options;
  const path = target.path;
  const shown = `${flag} ${path}`;
  const what = kind === 'file' ? 'a file name' : 'a folder of its own';
  const example = kind === 'file' ? 'archive.tar.gz' : kind === 'archive' ? 'archive' : kind === 'demo' ? 'tmsnap-demo' : 'site';
  if (target.fileAbove !== undefined) {
    return `${shown}: ${target.fileAbove} is a file, not a folder; give a path under a folder, e.g. ${flag} ${join(dirname(target.fileAbove), example)}`;
  }
  if (kind === 'file') {
    if (target.type === 'folder') return `${shown} is a folder: give a file name, e.g. ${flag} ${join(path, example)}`;
  } else if (target.type === 'file') {
    return `${shown} is a file, not a folder: give a folder (it is created if missing), e.g. ${flag} ${join(dirname(path), example)}`;
  }
  if (path === parse(path).root) return `refusing ${shown}: the root folder; give ${what}, e.g. ${flag} ${join(context.cwd, example)}`;
  if (path === context.home) return `refusing ${shown}: your home folder; give ${what}, e.g. ${flag} ${join(path, example)}`;
  const archive = context.archive;
  if (archive !== undefined) {
    if (path === archive) return `refusing ${shown}: that is the archive (--content); give ${what} outside it, e.g. ${flag} ${join(dirname(path), example)}`;
    if (inside(path, archive)) return `refusing ${shown}: it lies inside the archive ${archive} (--content); give ${what} outside it`;
    if (inside(archive, path)) {
      const emptied = kind === 'site' ? ', and the build would empty it' : '';
      return `refusing ${shown}: it holds the archive ${archive} (--content)${emptied}; give ${what}, e.g. ${flag} ${join(path, example)}`;
    }
  }
  // Another archive than --content: a build would empty it, --force or not.
  if (kind === 'site' && target.entries.includes(snapshotsFolder) && target.entries.includes(objectsFolder)) {
    return `refusing ${shown}: it holds an archive (snapshots/, objects/), which the build would empty; give ${what}, e.g. ${flag} ${join(dirname(path), example)}`;
  }
  if (force) return undefined;
  if (kind === 'file') {
    if (target.type === 'file' && !target.gzip)
      return `refusing ${shown}: the file exists and is not a tmsnap pack; give a new file name, or --force to replace it`;
    return undefined;
  }
  if (target.type !== 'folder' || marked(kind, target.entries)) return undefined;
  if (path === context.cwd) return `refusing ${shown}: the current folder; give ${what}, e.g. ${flag} ${example}, or --force to use this one`;
  // The repository's own content/ keeps a README saying what goes there: an archive may start beside it.
  const foreign = target.entries.filter((name) => !ignored.has(name) && !(kind === 'archive' && name === 'README.md')).sort();
  if (foreign.length === 0) return undefined;
  // A build keeps them (site/site-folder.ts), but a site mixed into someone's folder is not asked for lightly.
  const fate = kind === 'site' ? 'the site would be mixed with them' : `tmsnap would mix its files with them`;
  const sample = foreign.slice(0, 2).join(', ') + (foreign.length > 2 ? ', …' : '');
  return `refusing ${shown}: it holds files tmsnap did not write (${sample}) and ${fate}; give an empty or new folder, or --force`;
}

/** `path` made absolute, its existing part's symbolic links resolved, so that two names of one folder compare equal. */
export async function canonicalPath(path: string): Promise<string> {
  const absolute = resolve(path);
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(await realpath(existing), ...rest.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return absolute;
      rest.push(basename(existing));
      existing = parent;
    }
  }
}

/** The nearest existing ancestor of a missing path, if it is a file. */
async function fileAbove(path: string): Promise<string | undefined> {
  for (let parent = dirname(path); parent !== dirname(parent); parent = dirname(parent)) {
    const info = await stat(parent).catch(() => undefined);
    if (info !== undefined) return info.isDirectory() ? undefined : parent;
  }
  return undefined;
}

/** The facts `outputRefusal` decides from, read from disk. */
export async function inspectOutput(path: string): Promise<PathFacts> {
  const canonical = await canonicalPath(path);
  const info = await stat(canonical).catch(() => undefined);
  if (info === undefined) return { path: canonical, type: 'missing', entries: [], gzip: false, fileAbove: await fileAbove(canonical) };
  if (info.isDirectory()) return { path: canonical, type: 'folder', entries: await readdir(canonical), gzip: false };
  const head = Buffer.alloc(2);
  const handle = await open(canonical, 'r').catch(() => undefined);
  if (handle) await handle.read(head, 0, 2, 0).finally(() => handle.close());
  return { path: canonical, type: 'file', entries: [], gzip: head[0] === 0x1f && head[1] === 0x8b };
}

/**
 * Refuses (exit 2, `OutputRefused`) an output `outputRefusal` refuses. `archive` is the
 * `--content` of a command that writes elsewhere; the current and home folders are this process's.
 */
export async function guardOutput(path: string, options: { kind: OutputKind; flag: string; force: boolean; archive?: string | undefined }): Promise<void> {
  const target = await inspectOutput(path);
  const context: OutputContext = {
    cwd: await canonicalPath(process.cwd()),
    home: await canonicalPath(homedir()),
    archive: options.archive === undefined ? undefined : await canonicalPath(options.archive),
  };
  const refusal = outputRefusal(target, context, options);
  if (refusal !== undefined) throw new OutputRefused(refusal);
}

export { OutputRefused };
