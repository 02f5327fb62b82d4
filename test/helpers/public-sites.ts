/**
 * Whether a site built from a keyed crawl publishes more than the site of an anonymous crawl of
 * the same server (issue 23, "Only what the public sees"), and whether either publishes an e-mail
 * address. Built sites only, whatever server they come from: the reference server here, a real
 * Weblate in the real-server tier.
 *
 * Two checks, both over every file of `dist/` (pages, feeds, JSON, badges, search shards, the
 * archived translation files):
 * - files: every file of the keyed site exists in the anonymous one, but the search index's
 *   shards, whose names number its layout (their words are compared instead);
 * - words: every word of the keyed site occurs somewhere in the anonymous one. A name, a figure,
 *   a repository URL or a string of a project the public cannot see is a word the anonymous
 *   site lacks. Each site's own snapshot id and crawl times are set aside first, and the words of
 *   the interface's catalogs (the site's own labels) never count as data.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { catalogs } from '../../src/i18n/index.ts';

export interface SiteFile {
  /** Path inside `dist/`, with `/`. */
  path: string;
  text: string;
}

/** Every file of a built site, as text (UTF-8; a binary file's bytes as Latin-1, so that ASCII in it still reads). */
export async function siteFiles(dist: string): Promise<SiteFile[]> {
  const files: SiteFile[] = [];
  for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const bytes = await readFile(file);
    const utf8 = bytes.toString('utf8');
    files.push({
      path: file
        .slice(dist.length + 1)
        .split(sep)
        .join('/'),
      text: utf8.includes('\uFFFD') ? bytes.toString('latin1') : utf8,
    });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * An address as a reader would take one, on purpose broader than the site's own redaction
 * (site-model/privacy.ts): HTML and JSON escapes and `%40` are undone first.
 */
const address = /[A-Za-z0-9._%+'-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}/g;
/** Locale codes with a modifier in file names (`sr@latin.po`) are not addresses. */
const localeFile = /^[a-z]{2,3}(?:[_-][A-Za-z]{2,4})?@[a-z]+\.(?:po|pot|mo|json|xml|xlf|xliff|ts|tbx|properties|strings|yml|yaml|csv|php|js|html|txt)$/;

function unescaped(text: string): string {
  return text.replace(/&#0*64;|&#x0*40;|&commat;|\\u0040|%40/gi, '@');
}

/** Every e-mail address in a built site, with the file holding it. */
export async function emailAddressesIn(dist: string): Promise<Array<{ file: string; address: string }>> {
  const found: Array<{ file: string; address: string }> = [];
  for (const { path, text } of await siteFiles(dist)) {
    for (const match of unescaped(text).matchAll(address)) if (!localeFile.test(match[0])) found.push({ file: path, address: match[0] });
  }
  return found;
}

const wordSplit = /[^\p{L}\p{N}@._%+-]+/u;

function words(text: string): string[] {
  return text.split(wordSplit).filter((word) => word !== '' && !/^[._%+-]+$/.test(word));
}

/** The words of the interface's own messages, in every shipped language. */
function interfaceWords(): Set<string> {
  const set = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === 'string') for (const word of words(value.replace(/\{\w+\}/g, ' '))) set.add(word);
    else if (Array.isArray(value)) value.forEach(add);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(add);
  };
  for (const catalog of Object.values(catalogs)) add(catalog);
  return set;
}

/** A site's snapshot id and crawl times (its `data/status.json`), which differ between any two crawls. */
async function snapshotStamps(files: readonly SiteFile[]): Promise<string[]> {
  const status = files.find((file) => file.path === 'data/status.json');
  if (!status) return [];
  const { snapshot } = JSON.parse(status.text) as { snapshot?: { id?: string; started?: string; finished?: string } };
  return [snapshot?.id, snapshot?.started, snapshot?.finished].filter((stamp): stamp is string => typeof stamp === 'string' && stamp !== '');
}

export interface PublicSitesOptions {
  /** Files of the keyed site it may have alone: what was opted in (`--publish`). */
  allowFile?: (path: string) => boolean;
  /** Words of the keyed site it may have alone. */
  allowWord?: (word: string, file: string) => boolean;
}

export interface PublicSitesComparison {
  /** Files of the keyed site the anonymous one lacks (search shards aside), not allowed. */
  extraFiles: string[];
  /** Words of the keyed site the anonymous one nowhere has, each with the first file holding it. */
  extraWords: Array<{ word: string; file: string }>;
  /** E-mail addresses in either site. */
  emails: Array<{ site: 'anonymous' | 'keyed'; file: string; address: string }>;
  /** Files of each site, for the report. */
  files: { anonymous: number; keyed: number };
}

/** Compares the site of an anonymous crawl with the site of a keyed crawl of the same server (see the file's header). */
export async function comparePublicSites(anonymousDist: string, keyedDist: string, options: PublicSitesOptions = {}): Promise<PublicSitesComparison> {
  const [anonymous, keyed] = await Promise.all([siteFiles(anonymousDist), siteFiles(keyedDist)]);
  const isShard = (path: string) => path.startsWith('search/');
  const anonymousPaths = new Set(anonymous.map((file) => file.path));
  const extraFiles = keyed
    .filter((file) => !isShard(file.path) && !anonymousPaths.has(file.path) && !(options.allowFile?.(file.path) ?? false))
    .map((file) => file.path);

  const stamps = [...(await snapshotStamps(anonymous)), ...(await snapshotStamps(keyed))].sort((a, b) => b.length - a.length);
  const normalized = (text: string) => stamps.reduce((out, stamp) => out.replaceAll(stamp, ' '), text);
  const known = interfaceWords();
  for (const file of anonymous) for (const word of words(normalized(file.text))) known.add(word);
  const extra = new Map<string, string>();
  for (const file of keyed) {
    if (options.allowFile?.(file.path)) continue;
    for (const word of words(normalized(file.text))) {
      if (known.has(word) || extra.has(word) || (options.allowWord?.(word, file.path) ?? false)) continue;
      extra.set(word, file.path);
    }
  }
  const [anonymousEmails, keyedEmails] = await Promise.all([emailAddressesIn(anonymousDist), emailAddressesIn(keyedDist)]);
  return {
    extraFiles,
    extraWords: [...extra].map(([word, file]) => ({ word, file })),
    emails: [
      ...anonymousEmails.map((found) => ({ site: 'anonymous' as const, ...found })),
      ...keyedEmails.map((found) => ({ site: 'keyed' as const, ...found })),
    ],
    files: { anonymous: anonymous.length, keyed: keyed.length },
  };
}
