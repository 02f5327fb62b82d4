/**
 * What the site publishes of a snapshot (docs/site.md, "Only what the public sees"): no e-mail
 * address, wherever it comes from, and of a keyed crawl only what an anonymous visitor of the
 * server could see, unless the publisher opts in to a kind of extra by name (`--publish`).
 *
 * Pure: the redaction of text, records and translation files, the opt-in names, and the policy
 * that a snapshot's manifest and project records decide. site-model/published-snapshot.ts applies it
 * to every read the site makes.
 */

/** What `--publish` may name: each kind of extra that a keyed crawl can hold and the site can show. */
export const publishKinds = ['private-projects', 'repository', 'all-languages', 'emails'] as const;
export type PublishKind = (typeof publishKinds)[number];

/** `--publish a,b`: the kinds named, or an error message naming the unknown ones and the known. */
export function parsePublishKinds(text: string): PublishKind[] | string {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(publishKinds as readonly string[]).includes(name));
  if (unknown.length > 0)
    return `--publish: unknown ${unknown.map((name) => `"${name}"`).join(', ')}; expected a comma-separated list of ${publishKinds.join(', ')}`;
  return [...new Set(names)] as PublishKind[];
}

/** What replaces an address that no name comes with. */
export const emailPlaceholder = '(e-mail address hidden)';

const localPart = "[A-Za-z0-9!#$%&'*+=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+=?^_`{|}~-]+)*";
const domain = '(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,24}';
/** An address, with `mailto:` if it has one; the name of a locale with a modifier (`sr@latin.po`) is not one. */
const addressSource = `(?:mailto:)?(?<![A-Za-z0-9.!#$%&'*+=?^_\`{|}~-])${localPart}(?:@|%40)${domain}(?![A-Za-z0-9-])`;
/** Weblate's locale modifiers and the extensions of translation files: `sr@latin.po`, `ca@valencia.json` are files, as is the site's badge `sr@latin.svg`. */
const localeFile =
  /^(?:[a-z]{2,3}(?:[_-][A-Za-z]{2,4})?)@[a-z]+\.(?:po|pot|mo|json|xml|xlf|xliff|ts|tbx|properties|strings|stringsdict|yml|yaml|csv|php|js|html|txt|ini|resx|arb|dtd|lang|srt|rc|catkeys|toml|svg)$/;

function isAddress(match: string): boolean {
  return !localeFile.test(match.replace(/^mailto:/, '').replace('%40', '@'));
}

/** Every e-mail address in `text` (for checks; the redaction below hides exactly these). */
export function findEmails(text: string): string[] {
  if (!text.includes('@') && !text.includes('%40')) return [];
  return [...text.matchAll(new RegExp(addressSource, 'g'))].map((match) => match[0]).filter(isAddress);
}

/** `Name <addr>` (or `Name (addr)`): the name stays, the address goes with its brackets. */
const namedAddress = new RegExp(`([^\\s<(])[ \\t]*[<(][ \\t]*(${addressSource})[ \\t]*[>)]`, 'g');
/** An address in brackets with no name before it on its line. */
const bracketedAddress = new RegExp(`[<(][ \\t]*(${addressSource})[ \\t]*[>)]`, 'g');
const bareAddress = new RegExp(addressSource, 'g');

/**
 * The text with every e-mail address removed: after a name (`Jane Doe <jane@example.org>`) the
 * address goes and the name stays; anywhere else it becomes `(e-mail address hidden)`, in a URL
 * too (`api/users/jane%40example.org/`: Weblate allows addresses as usernames). Returns the same
 * string when there is none (cheap: most texts hold no `@`).
 */
export function redactEmails(text: string): string {
  if (!text.includes('@') && !text.includes('%40')) return text;
  return text
    .replace(namedAddress, (whole, before: string, address: string) => (isAddress(address) ? before : whole))
    .replace(bracketedAddress, (whole, address: string) => (isAddress(address) ? emailPlaceholder : whole))
    .replace(bareAddress, (address) => (isAddress(address) ? emailPlaceholder : address));
}

/**
 * A JSON-like value with `redactEmails` applied to every string in it, object keys included;
 * the same value (not a copy) when nothing changed, so unchanged records cost no allocation.
 */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactEmails(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  // Every unit of a build goes through here three times: loops that allocate nothing per field
  // (no `Object.entries` pairs), as most values hold no address (docs/decisions/2026-11-29-build-1m.md).
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let at = 0; at < value.length; at += 1) {
      const item: unknown = value[at];
      const redacted = redactValue(item);
      if (redacted !== item) (copy ??= [...value])[at] = redacted;
    }
    return (copy ?? value) as T;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let copy: Record<string, unknown> | undefined;
  for (let at = 0; at < keys.length; at += 1) {
    const key = keys[at]!;
    const item = record[key];
    const redacted = redactValue(item);
    const redactedKey = redactEmails(key);
    if (redacted === item && redactedKey === key) continue;
    copy ??= { ...record };
    if (redactedKey !== key) delete copy[key];
    copy[redactedKey] = redacted;
  }
  return (copy ?? value) as T;
}

/**
 * Whether JSON text (its UTF-8 bytes) may parse to a value that `redactValue` changes: only if
 * it holds `@` or `%40`, or a `\u` escape that could spell either. Without a `\u`, JSON spells
 * each character of a string or key as itself or as a backslash and one of `"\/bfnrt`, and no
 * byte of a multi-byte UTF-8 character is ASCII: where this is false no string of the value
 * holds either, and `redactValue` returns the value as it is. A scan of the bytes instead of a
 * walk of every field (docs/decisions/2026-11-29-build-1m.md, fourth session).
 */
export function jsonMayHoldEmail(json: Uint8Array): boolean {
  const bytes = Buffer.from(json.buffer, json.byteOffset, json.byteLength);
  return bytes.includes(0x40) || bytes.includes('%40', 0, 'latin1') || bytes.includes('\\u', 0, 'latin1');
}

/** How a translation file is published. */
export interface FileRedaction {
  /** Keep e-mail addresses (`--publish emails`). */
  emails: boolean;
  /** `--hide-authors`: also the translators' names (PO's `Last-Translator` and copyright comment lines). */
  hideAuthors: boolean;
}

const gettextName = /\.pot?$/i;
const gettextType = /gettext|x-po\b/i;

/** Whether a file is a gettext catalog (PO or POT), by its name or content type. */
export function isGettextFile(name: string, contentType = ''): boolean {
  return gettextName.test(name) || gettextType.test(contentType);
}

/**
 * A translation file as the site publishes it. Text (UTF-8, or any ASCII-compatible charset,
 * kept byte for byte) gets `redactEmails`; a binary file (a NUL in it: `.mo`) gets each address
 * overwritten by as many `-` so that its offsets still hold. A gettext catalog stays valid for
 * msgfmt: only header values and comments change, never the quoting.
 */
export function redactTranslationFile(bytes: Uint8Array, name: string, contentType: string, options: FileRedaction): Uint8Array {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.includes(0)) {
    if (options.emails) return bytes;
    const text = buffer.toString('latin1');
    const masked = text.replace(bareAddress, (address) => (isAddress(address) ? '-'.repeat(address.length) : address));
    return masked === text ? bytes : Buffer.from(masked, 'latin1');
  }
  const utf8 = isUtf8(buffer);
  const text = buffer.toString(utf8 ? 'utf8' : 'latin1');
  const gettext = isGettextFile(name, contentType) || poStart.test(text);
  let out = gettext && options.hideAuthors ? withoutPoAuthors(text) : text;
  if (!options.emails) out = redactEmails(out);
  return out === text ? bytes : Buffer.from(out, utf8 ? 'utf8' : 'latin1');
}

/** A PO file's start whatever its name: comments or blank lines, then the header's `msgid`. */
const poStart = /^\uFEFF?(?:[ \t]*(?:#[^\n]*)?\r?\n)*msgid[ \t]/;

function isUtf8(buffer: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buffer);
    return true;
  } catch {
    return false;
  }
}

/**
 * A translator's copyright line of a PO header comment, as gettext tools and Weblate write them:
 * `# Jane Doe <jane@example.org>, 2019, 2020.` or `# Jane Doe, 2011-2014`. The file's own
 * lines (`# Copyright (C) …`, `# This file is distributed …`, the template's placeholder) are not.
 */
const authorLine =
  /^#[ \t]+(?!Copyright\b|This file\b|SOME DESCRIPTIVE\b|FIRST AUTHOR\b|Translators:)\S.*?,[ \t]*\d{4}(?:[ \t]*[-–,][ \t]*\d{4})*\.?[ \t]*\r?$/;
const commentWithAddress = /^#[ \t]+(?!Copyright\b)\S.*@/;

/**
 * `--hide-authors` on a PO file: the header comment's translator lines go, and `Last-Translator`
 * keeps its field with no one in it. Only the header (the comments and the entry before the
 * first non-empty msgid) is touched.
 */
export function withoutPoAuthors(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let inHeader = true;
  let seenMsgid = false;
  /** In a `Last-Translator` value wrapped over several lines, whose rest goes too. */
  let inLastTranslator = false;
  for (const line of lines) {
    if (inLastTranslator) {
      inLastTranslator = /^\s*"/.test(line) && !/\\n"\s*$/.test(line);
      if (/^\s*"/.test(line)) continue;
    }
    if (inHeader) {
      if (/^msgid\s+"(?:[^"\\]|\\.)+"/.test(line) || (seenMsgid && /^\s*$/.test(line))) inHeader = false;
      else if (/^msgid\s/.test(line)) seenMsgid = true;
    }
    if (inHeader && !seenMsgid && (authorLine.test(line) || (commentWithAddress.test(line) && findEmails(line).length > 0))) continue;
    if (inHeader && seenMsgid && /^\s*"Last-Translator:/.test(line)) {
      inLastTranslator = !/\\n"\s*$/.test(line);
      // The field stays, ending its value as every header field does, with no one in it.
      out.push(line.replace(/^(\s*"Last-Translator:).*?(\r?)$/, (_whole, field: string, cr: string) => `${field} \\n"${cr}`));
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

// --- What a keyed crawl holds beyond the public view -------------------------------------

/**
 * Fields of a component that Weblate answers `null` to a client without the `vcs.view`
 * permission (weblate/api/serializers.py, `ComponentSerializer.to_representation`; 5.4 hid the
 * first five, later releases all of them). A keyed crawl may hold them; the site shows them
 * only with `--publish repository`.
 */
export const repositoryFields = [
  'vcs',
  'repo',
  'branch',
  'filemask',
  'screenshot_filemask',
  'push',
  'git_export',
  'push_branch',
  'repoweb',
  'linked_component',
] as const;

/** Weblate's `access_control`: 0 public, 1 protected (visible to all), 100 private, 200 custom. */
const publicAccess = new Set([0, 1]);

/** What a manifest says about the crawl's view of the server (snapshot/schemas.ts, `manifest`). */
export interface CrawlView {
  /** Whether the crawl sent an API key; absent in snapshots made before tmsnap recorded it. */
  keyed?: boolean | undefined;
  /** Of a keyed crawl: the projects an anonymous client of the server lists (paths), when the crawl could ask. */
  public_projects?: string[] | undefined;
  access?: { status: number }[] | undefined;
  /** Whether the snapshot holds translation memory (`api/memory/`), which every Weblate refuses anonymous clients. */
  heldMemory?: boolean | undefined;
}

/**
 * Whether the snapshot may hold more than an anonymous visitor sees. A snapshot that does not
 * say (made before tmsnap recorded it) counts as keyed when it holds what only a key reads
 * (translation memory) and the server refused it nothing (no 401 or 403 in `access`: a real
 * server refuses every anonymous client `repository/` and `/api/memory/`); otherwise as
 * anonymous, as most crawls are.
 */
export function crawlWasKeyed(view: CrawlView): boolean {
  if (view.keyed !== undefined) return view.keyed;
  const refused = (view.access ?? []).some((denied) => denied.status === 401 || denied.status === 403);
  return !refused && view.heldMemory === true;
}

/** The publication decided for one snapshot: what is left out, and why. */
export interface Publication {
  /** Keep e-mail addresses. */
  emails: boolean;
  /** Whether the snapshot may hold more than the public view (a keyed crawl). */
  keyed: boolean;
  /** Project paths (`api/projects/<slug>/`) left out: not visible to an anonymous visitor, or not known to be. */
  hiddenProjects: ReadonlySet<string>;
  /** Null these fields of every component. */
  hiddenComponentFields: readonly string[];
  /** Leave out languages that no published translation or component uses. */
  onlyUsedLanguages: boolean;
}

/** What is published of everything: the site of an anonymous crawl, or of one where every extra is opted in. */
export function publishEverything(emails = false): Publication {
  return { emails, keyed: false, hiddenProjects: new Set(), hiddenComponentFields: [], onlyUsedLanguages: false };
}

/**
 * The publication of a snapshot: an anonymous crawl's data is the public view (only e-mail
 * addresses go); a keyed crawl's projects are published when an anonymous client lists them
 * (`public_projects`), or else when their record says they are public (`access_control` 0 or
 * 1); any other project of a keyed crawl is left out unless `private-projects` is opted in.
 */
export function decidePublication(view: CrawlView, projects: ReadonlyArray<{ path: string; record: unknown }>, publish: readonly PublishKind[]): Publication {
  const emails = publish.includes('emails');
  if (!crawlWasKeyed(view)) return publishEverything(emails);
  const listed = view.public_projects === undefined ? undefined : new Set(view.public_projects);
  const hiddenProjects = new Set<string>();
  if (!publish.includes('private-projects')) {
    for (const { path, record } of projects) {
      const access = typeof record === 'object' && record !== null ? (record as { access_control?: unknown }).access_control : undefined;
      const visible = listed !== undefined ? listed.has(path) : typeof access === 'number' && publicAccess.has(access);
      if (!visible) hiddenProjects.add(path);
    }
  }
  return {
    emails,
    keyed: true,
    hiddenProjects,
    hiddenComponentFields: publish.includes('repository') ? [] : repositoryFields,
    onlyUsedLanguages: !publish.includes('all-languages'),
  };
}

/**
 * The project path (`api/projects/<slug>/`) a snapshot path belongs to: projects, components,
 * translations and everything under them; undefined for paths of no project (languages,
 * users, changes, units by id).
 */
export function projectOfPath(path: string): string | undefined {
  const match = /^api\/(projects|components|translations)\/([^/]+)\//.exec(path);
  return match ? `api/projects/${match[2]}/` : undefined;
}
