import { join, resolve } from 'node:path';
import type { BuildOptions } from '../site/build.ts';
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

export const command: Command = {
  summary: 'build the static status site from a snapshot',
  help,
  async run(args) {
    const options = parseBuildArgs(args);
    const started = performance.now();
    // Loaded here so that `tmsnap build --help` and bad flags do not pay for Astro.
    const { buildSite } = await import('../site/build.ts');
    await buildSite(options);
    console.error(`tmsnap build: done in ${((performance.now() - started) / 1000).toFixed(1)} s, open ${join(options.out, 'index.html')}`);
    return exitCodes.ok;
  },
};
