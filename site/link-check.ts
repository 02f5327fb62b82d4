/**
 * Checks a built site's own links: every relative `href` and `src` in every HTML file must
 * name a file in the site. Links name files, not folders, because `file://` has no directory
 * index (docs/site.md, "Links work anywhere"), so a link to a folder counts as broken.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, posix, resolve, sep } from 'node:path';

export interface SiteLink {
  attribute: 'href' | 'src';
  /** As written in the page, entities decoded. */
  value: string;
}

export interface BrokenLink extends SiteLink {
  /** The page holding the link, relative to the site root. */
  page: string;
  /** Why it is broken. */
  reason: string;
  /** The file it names, relative to the site root, when it names one inside the site. */
  target?: string;
}

// A start tag with its attributes, quoted values read whole: a value may hold `>` or text that
// looks like an attribute (a hostile project name such as `"><img src=x>` in a title).
const tagPattern = /<[a-z][a-z0-9-]*((?:\s+[^\s"'>\/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/gi;
const attributePattern = /([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'", '#34': '"' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (entities[lower] !== undefined) return entities[lower];
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10));
    return whole;
  });
}

/** The `href` and `src` attributes of an HTML text, in order (inside tags only). */
export function linksOf(html: string): SiteLink[] {
  // Comments and the text of scripts and styles are not markup.
  const markup = html.replace(/<!--[\s\S]*?-->/g, '').replace(/(<(script|style)\b[^>]*>)[\s\S]*?<\/\2\s*>/gi, '$1');
  const links: SiteLink[] = [];
  for (const tag of markup.matchAll(tagPattern)) {
    // `<base href>` (the 404 page's base path) is where links resolve from, not a link.
    if (/^<base\b/i.test(tag[0])) continue;
    for (const match of (tag[1] ?? '').matchAll(attributePattern)) {
      const name = match[1]!.toLowerCase();
      if (name !== 'href' && name !== 'src') continue;
      links.push({ attribute: name, value: decodeEntities(match[2] ?? match[3] ?? match[4] ?? '') });
    }
  }
  return links;
}

/** A link leaving the site or only moving within the page: not the checker's business. */
function isExternal(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith('//') || value.startsWith('#') || value.trim() === '';
}

/** The file a relative link names, relative to the site root; undefined when it leaves the site. */
function targetOf(page: string, value: string): string | undefined {
  const path = value.replace(/[?#].*$/, '');
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  const joined = posix.normalize(posix.join(posix.dirname(page), decoded));
  return joined === '..' || joined.startsWith('../') ? undefined : joined;
}

async function htmlFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true });
  return names
    .filter((name) => name.endsWith('.html'))
    .map((name) => name.split(sep).join('/'))
    .sort();
}

/** Every broken relative link of the site in `dist`, page by page; [] when all resolve. */
export async function checkLinks(dist: string): Promise<BrokenLink[]> {
  const root = resolve(dist);
  const broken: BrokenLink[] = [];
  const known = new Map<string, string | undefined>();
  for (const page of await htmlFiles(root)) {
    const html = await readFile(join(root, page), 'utf8');
    for (const link of linksOf(html)) {
      if (isExternal(link.value)) continue;
      if (link.value.startsWith('/')) {
        broken.push({ ...link, page, reason: 'a root-relative path: it breaks under --base and from file://' });
        continue;
      }
      const target = targetOf(page, link.value);
      if (target === undefined) {
        broken.push({ ...link, page, reason: 'leaves the site' });
        continue;
      }
      if (!known.has(target)) {
        const found = await stat(join(root, target)).catch(() => undefined);
        known.set(target, found === undefined ? 'no such file' : found.isDirectory() ? 'a folder, not a file (file:// has no directory index)' : undefined);
      }
      const reason = known.get(target);
      if (reason !== undefined) broken.push({ ...link, page, reason, target });
    }
  }
  return broken;
}
