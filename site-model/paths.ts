import { createHash } from 'node:crypto';
import { posix } from 'node:path';

/**
 * Where everything lives in the built site, in one place that the pages (`src/`) and the
 * search index (`search/`) both import: page paths, relative links, and which unit page holds
 * a unit (docs/site.md, "Why units are grouped").
 *
 * Every page is addressed by its file path inside `dist/` (`projects/foo/index.html`), and
 * every link is relative from one file to another. That keeps the site working under any
 * base path and from `file://`, which has no directory index: links name `index.html`.
 */
export type SitePath = string;

const plainSegment = /^[A-Za-z0-9_@+-]{1,80}$/;

/**
 * Names Windows reserves for devices, with or without an extension, in any case: a folder
 * `con` or a file `aux.svg` cannot be created there (docs/site.md, "Safe names").
 */
const windowsReserved = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

export function isWindowsReserved(name: string): boolean {
  return windowsReserved.test(name);
}

/** Slugs and codes equal to another but for case (`Demo`, `demo`): both are encoded. */
let caseCollisions: ReadonlySet<string> = new Set();

/**
 * Tells `safeSegment` every slug and code of a snapshot, so that two that differ only by case
 * get folders that differ in more than case (case-insensitive file systems would merge them).
 * Others keep their plain names. `site-model/records.ts` calls it for the site and the search index.
 */
export function registerSegments(values: Iterable<string>): void {
  const byFolded = new Map<string, Set<string>>();
  for (const value of values) {
    const folded = value.toLowerCase();
    const group = byFolded.get(folded) ?? new Set<string>();
    group.add(value);
    byFolded.set(folded, group);
  }
  const colliding = new Set<string>();
  for (const group of byFolded.values()) if (group.size > 1) for (const value of group) colliding.add(value);
  caseCollisions = colliding;
}

/**
 * A file-name-safe segment for a slug or language code. Plain ones stay as they are; any
 * other (`../`, `cat%2Fcomp`, `a/b`, unicode, dots), a Windows device name (`con`, `LPT1`)
 * and one equal to another but for case is reduced to its safe characters plus a hash of the
 * original, so two different slugs never share a folder and none escapes it.
 */
export function safeSegment(value: string): string {
  if (plainSegment.test(value) && !windowsReserved.test(value) && !caseCollisions.has(value)) return value;
  const readable = value
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_@+-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  const hash = createHash('sha256').update(value).digest('hex').slice(0, 10);
  return readable === '' ? `x-${hash}` : `${readable}-${hash}`;
}

/** A path `plainRelative` cannot take: empty, absolute, ending in `/`, or with an empty, `.` or `..` segment. */
const unplainPath = /^$|^\/|\/$|\/\/|(?:^|\/)\.\.?(?:\/|$)/;

/**
 * `posix.relative(posix.dirname(from), to)` for plain site paths, by comparing their segments:
 * `posix.relative` resolves both against the working folder first, which cost each bulk writer
 * a tenth of its time at 1M, a link per unit (docs/decisions/2026-11-29-build-1m.md).
 * Undefined where the answer is not a plain walk down from a common folder (`to` is `from`'s
 * folder or one above it, or a path is not plain): `posix.relative` answers those.
 */
export function plainRelative(from: string, to: string): string | undefined {
  if (unplainPath.test(from) || unplainPath.test(to)) return undefined;
  const folderEnd = from.lastIndexOf('/');
  // After the last `/` that both share at the same place: the start of the first segment that differs.
  let common = 0;
  const shared = Math.min(folderEnd + 1, to.length);
  for (let at = 0; at < shared; at += 1) {
    const code = from.charCodeAt(at);
    if (code !== to.charCodeAt(at)) break;
    if (code === 47) common = at + 1;
  }
  const rest = to.slice(common);
  // `to` is `from`'s folder or a folder above it: `..` without a name, or nothing.
  if (folderEnd >= common && from.startsWith(rest, common) && (common + rest.length === folderEnd || from.charCodeAt(common + rest.length) === 47))
    return undefined;
  let up = '';
  if (folderEnd >= common) for (let at = common; at <= folderEnd; at = from.indexOf('/', at) + 1) up += '../';
  return up + rest;
}

export function relativeHref(from: SitePath, to: SitePath, fragment?: string): string {
  const relative = plainRelative(from, to) ?? (posix.relative(posix.dirname(from), to) || posix.basename(to));
  return fragment === undefined ? relative : `${relative}#${encodeURIComponent(fragment)}`;
}

/** `../../` from `a/b/index.html` to the site root, `''` at the root. */
export function rootPrefix(from: SitePath): string {
  return '../'.repeat(posix.dirname(from) === '.' ? 0 : posix.dirname(from).split('/').length);
}

export interface TranslationKey {
  project: string;
  component: string;
  language: string;
}

export type BadgeFormat = 'svg' | 'json';

export const sitePaths = {
  home: (): SitePath => 'index.html',
  project: (project: string): SitePath => `projects/${safeSegment(project)}/index.html`,
  component: (project: string, component: string): SitePath => `projects/${safeSegment(project)}/${safeSegment(component)}/index.html`,
  translation: ({ project, component, language }: TranslationKey): SitePath =>
    `projects/${safeSegment(project)}/${safeSegment(component)}/${safeSegment(language)}/index.html`,
  /** Units are published in pages of `unitsPerPage`, each unit an anchor (see docs/site.md). */
  units: ({ project, component, language }: TranslationKey, page: number): SitePath =>
    `projects/${safeSegment(project)}/${safeSegment(component)}/${safeSegment(language)}/units/${page}/index.html`,
  /**
   * One source string in every language of its component, keyed by the string's checksum
   * (`stringChecksum`), in one of 256 folders by its last two hex digits, so that no folder
   * holds more than a 256th of a component's strings (docs/site.md, "One page per string").
   */
  sourceString: (project: string, component: string, checksum: string): SitePath =>
    `projects/${safeSegment(project)}/${safeSegment(component)}/strings/${checksum.slice(-2)}/${checksum}/index.html`,
  /** The strings of a translation that need something (`need`: a fixed lower-case word, src/data/help-needed.ts), in pages of `stringsPerNeedPage`. */
  needs: ({ project, component, language }: TranslationKey, need: string, page = 1): SitePath =>
    `projects/${safeSegment(project)}/${safeSegment(component)}/${safeSegment(language)}/needs/${need}/${page <= 1 ? '' : `${page}/`}index.html`,
  file: ({ project, component, language }: TranslationKey, filename: string): SitePath =>
    `projects/${safeSegment(project)}/${safeSegment(component)}/${safeSegment(language)}/file/${safeFileName(filename)}`,
  languages: (): SitePath => 'languages/index.html',
  language: (code: string): SitePath => `languages/${safeSegment(code)}/index.html`,
  changes: (page: number): SitePath => (page <= 1 ? 'changes/index.html' : `changes/${page}/index.html`),
  feed: (): SitePath => 'changes/feed.xml',
  projectChanges: (project: string): SitePath => `projects/${safeSegment(project)}/changes/index.html`,
  languageChanges: (code: string): SitePath => `languages/${safeSegment(code)}/changes/index.html`,
  projectFeed: (project: string): SitePath => `projects/${safeSegment(project)}/feed.xml`,
  languageFeed: (code: string): SitePath => `languages/${safeSegment(code)}/feed.xml`,
  /** Badges are SVG images; `format: 'json'` is the shields.io "endpoint" JSON next to each. */
  projectBadge: (project: string, format: BadgeFormat = 'svg'): SitePath => `badges/${safeSegment(project)}.${format}`,
  componentBadge: (project: string, component: string, format: BadgeFormat = 'svg'): SitePath =>
    `badges/${safeSegment(project)}/${safeSegment(component)}.${format}`,
  translationBadge: ({ project, component, language }: TranslationKey, format: BadgeFormat = 'svg'): SitePath =>
    `badges/${safeSegment(project)}/${safeSegment(component)}/${safeSegment(language)}.${format}`,
  /** Every figure of the site for machines (docs/status-json.md). */
  status: (): SitePath => 'data/status.json',
  /** The archive's tables as one SQLite file, with `build --dataset` (docs/dataset.md). */
  dataset: (): SitePath => 'data/tmsnap-dataset.sqlite',
  notFound: (): SitePath => '404.html',
  stylesheet: (): SitePath => 'assets/site.css',
  script: (): SitePath => 'assets/site.js',
};

/** Pages of the archive features; snapshot ids are `[0-9TZ-]` only, safe as path segments. */
export const archivePaths = {
  changesBetweenIndex: (): SitePath => 'changes-between/index.html',
  changesBetween: (from: string, to: string): SitePath => `changes-between/${from}--${to}/index.html`,
};

/** The raw file keeps its own name (`po/de.po` → `de.po`) when that name is safe. */
export function safeFileName(filename: string): string {
  const base = posix.basename(filename.replace(/\\/g, '/'));
  const match = /^([A-Za-z0-9_@+-]{1,80})\.([A-Za-z0-9]{1,10})$/.exec(base);
  return match && !windowsReserved.test(base) ? base : `${safeSegment(base)}.txt`;
}

/** Units per unit page: see docs/site.md ("Why units are grouped"). */
export const unitsPerPage = 100;

/** Strings per page of a list of what needs work: a translation's list is one page at 1M strings (200 a translation). */
export const stringsPerNeedPage = 500;

export function unitPageCount(total: number): number {
  return Math.max(1, Math.ceil(total / unitsPerPage));
}

/** Units beyond what `total` promised stay on the last page, so no unit is ever left out. */
export function unitPageOf(index: number, pages: number): number {
  return Math.min(Math.floor(index / unitsPerPage) + 1, pages);
}

/**
 * A string's key across the languages of a component: its `id_hash` as Weblate's own
 * `checksum` (id_hash + 2^63 as 16 hex digits, docs/weblate-api.md), the same in every
 * translation and stable while the source string and its context stay.
 */
export function stringChecksum(idHash: bigint): string {
  return BigInt.asUintN(64, idHash + 2n ** 63n)
    .toString(16)
    .padStart(16, '0');
}

/** `api/components/p/c/` → `c` (as the server spells it, `cat%252Fcomp` for categories). */
export function lastSegment(path: string): string {
  return path.replace(/\/$/, '').split('/').at(-1) ?? path;
}

/** The unit page holding the unit at `index` (position order) of a translation of `total` units, with its anchor. */
export function unitHref(key: TranslationKey, total: number, index: number, unitId: number): string {
  return `${sitePaths.units(key, unitPageOf(index, unitPageCount(total)))}#${encodeURIComponent(`unit-${unitId}`)}`;
}
