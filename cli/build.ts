import { counted } from './count.ts';
import { join, resolve } from 'node:path';
import { ConfigError, configFileName, loadSiteConfig, uiLanguages, type SiteConfig, type UiLanguage } from '../site/config.ts';
import type { BuildOptions, BuildProgress } from '../site/build.ts';
import { parsePublishKinds, publishKinds } from '../site-model/privacy.ts';
import { defaultLevels, parseLevels } from '../archive/levels.ts';
import { readTags, TagError, type Tag } from '../archive/tags.ts';
import { type Command, CommandFailure, UsageError, contentOption, exitCodes, parseCommandLine } from './command.ts';
import { guardOutput, siteMark } from './output-guard.ts';
import { interruptible } from './signals.ts';
import { snapshotIdsOf } from './snapshot-names.ts';
import { version } from './version.ts';

const help = `Usage: tmsnap build [options]

Builds the static status site from one snapshot. Reads only the snapshot, never the server.
Every link in the site is relative: it works under any base path and opened from disk.

Options:
  --content DIR     the archive folder (default: content, or TMSNAP_CONTENT)
  --snapshot ID     snapshot to build, or a release tag (tmsnap tag): the site as it was then,
                    its history up to that snapshot (default: the newest complete one)
  --out DIR         output folder (default: dist): the site is written beside it and swapped
                    in once complete, so an interrupted build leaves the old site whole; what
                    no build wrote in it (CNAME, .git, a folder of yours) is kept. Refused
                    when it is the current or home folder, holds the archive or lies in it,
                    or holds files no tmsnap build wrote (a build marks its folder with ${siteMark})
  --force           build into such a folder all the same, and let the site replace a file of
                    yours of the same name (never the archive, / or home)
  --site-url URL    where the site will be published (absolute links in the Atom feeds and
                    badge snippets, canonical links, sitemap.xml, robots.txt),
                    e.g. https://example.github.io/project/
  --base PATH       base path the site is served under, e.g. /project/ (default: /); given
                    with --site-url, it must be that URL's path
  --hide-authors    show "a contributor" instead of user names (changes, last author), and
                    leave translators' names out of the published translation files
  --publish LIST    what a keyed crawl's site may show beyond what an anonymous visitor of the
                    server sees, comma-separated: ${publishKinds.join(', ')}
                    (default: none; e-mail addresses are removed unless "emails" is named)
  --title TEXT      the site's name (default: "<server host> translation status")
  --logo FILE       an image shown before the title
  --favicon FILE    the site's icon (.svg, .png, .ico; default: a generated one)
  --css FILE        a stylesheet linked after the site's own (docs/site.md lists its variables)
  --footer TEXT     a line added to every page's footer
  --public DIR      files copied as they are into the site (CNAME, …); never over the site's own
  --noindex         ask search engines to stay out (meta tag and a disallowing robots.txt)
  --ui-lang LANG    language of the site's own interface: ${uiLanguages.join(', ')} (default: en)
  --no-history      leave out the string histories drawn from older snapshots
  --levels LIST     release levels: [strings:|words:]NAME=PERCENT,…, e.g. ${defaultLevels};
                    project and component pages show each language's level, with badges,
                    status.json entries and an Atom entry when a language crosses one
                    (default: none)
  --credits         publish credits: contributors per project and language from the change
                    log (all time, the last 12 months, since each release), as pages and
                    credits.md/credits.json; names only as the server shows them to anyone
                    (default: off; not with --hide-authors)
  --dataset         publish the archive as tables (docs/dataset.md): data/tmsnap-dataset.sqlite,
                    for Datasette and sqlite3, linked from the home page with its size; the
                    snapshots up to the one built, as the site shows them: no project hidden
                    from the public, no e-mail address, and with --hide-authors no names
                    (default: off)
  --config FILE     settings file (default: ${configFileName} in the working folder, if any);
                    the flags above override it
  --verbose         Astro's log, a line per page, instead of one progress line
  --json            print a summary as JSON on stdout: snapshot, pages, files, bytes, seconds
  -h, --help        this help

A missing archive folder, snapshot or file fails with exit code 1 before anything is written.
Ctrl-C (or SIGTERM) stops the build with exit code 130 and one line saying what the output
folder holds: the site it held before, unchanged.`;

export interface BuildCommandOptions extends BuildOptions {
  json: boolean;
}

export async function parseBuildArgs(args: string[]): Promise<BuildCommandOptions> {
  const parsed = parseCommandLine(args, {
    content: contentOption(),
    snapshot: { type: 'string' },
    out: { type: 'string', default: 'dist' },
    'site-url': { type: 'string' },
    base: { type: 'string' },
    'hide-authors': { type: 'boolean' },
    publish: { type: 'string' },
    title: { type: 'string' },
    logo: { type: 'string' },
    favicon: { type: 'string' },
    css: { type: 'string' },
    footer: { type: 'string' },
    public: { type: 'string' },
    noindex: { type: 'boolean' },
    'ui-lang': { type: 'string' },
    'no-history': { type: 'boolean', default: false },
    levels: { type: 'string' },
    credits: { type: 'boolean' },
    dataset: { type: 'boolean', default: false },
    config: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    force: { type: 'boolean', default: false },
  }).values;
  let config: SiteConfig;
  try {
    config = await loadSiteConfig(resolve(parsed.config ?? configFileName), parsed.config !== undefined);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const siteUrl = parsed['site-url'] ?? config.siteUrl;
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
  const givenBase = parsed.base ?? config.base;
  const base = givenBase ?? '/';
  if (!base.startsWith('/')) throw new UsageError(`--base "${base}" must start with "/" (e.g. /project/)`);
  const disagreement = siteUrl === undefined || givenBase === undefined ? undefined : baseDisagreement(siteUrl, givenBase);
  if (disagreement !== undefined) throw new UsageError(disagreement);
  const uiLang = parsed['ui-lang'] ?? config.uiLang ?? 'en';
  if (!(uiLanguages as readonly string[]).includes(uiLang)) throw new UsageError(`--ui-lang "${uiLang}": expected one of ${uiLanguages.join(', ')}`);
  const publish = parsePublishKinds(parsed.publish ?? '');
  if (typeof publish === 'string') throw new UsageError(publish);
  const levelsText = parsed.levels ?? config.levels;
  const levels = levelsText === undefined ? undefined : parseLevels(levelsText);
  if (typeof levels === 'string') throw new UsageError(levels);
  const hideAuthors = parsed['hide-authors'] ?? config.hideAuthors ?? false;
  const credits = parsed.credits ?? config.credits ?? false;
  if (credits && hideAuthors) throw new UsageError('--credits names contributors and --hide-authors hides them: give one of the two');
  // Read here, so that a damaged tags file fails in one line before the build, not inside Astro.
  const tags = await releaseTags(resolve(parsed.content));
  const [snapshot] = parsed.snapshot === undefined ? [] : snapshotIdsOf(tags, [parsed.snapshot], resolve(parsed.content));
  const file = (flag: string | undefined, fromConfig: string | undefined) => (flag !== undefined ? resolve(flag) : fromConfig);
  const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));
  await guardOutput(parsed.out, { kind: 'site', flag: '--out', force: parsed.force, archive: parsed.content });
  return {
    content: resolve(parsed.content),
    ...optional('snapshot', snapshot),
    out: resolve(parsed.out),
    ...optional('siteUrl', siteUrl),
    base,
    hideAuthors,
    credits,
    publish,
    ...optional('title', parsed.title ?? config.title),
    ...optional('logo', file(parsed.logo, config.logo)),
    ...optional('favicon', file(parsed.favicon, config.favicon)),
    ...optional('css', file(parsed.css, config.css)),
    ...optional('footer', parsed.footer ?? config.footer),
    ...optional('public', file(parsed.public, config.public)),
    noindex: parsed.noindex ?? config.noindex ?? false,
    uiLang: uiLang as UiLanguage,
    history: parsed['no-history'] ? false : (config.history ?? true),
    ...optional('levels', levels),
    ...optional('dataset', parsed.dataset ? siteDataset(resolve(parsed.content), hideAuthors) : undefined),
    verbose: parsed.verbose,
    force: parsed.force,
    json: parsed.json,
  };
}

/** The archive's release tags (none without a tags file); a damaged file is a failure of one line. */
async function releaseTags(content: string): Promise<Tag[]> {
  try {
    return await readTags(content);
  } catch (error) {
    if (error instanceof TagError) throw new CommandFailure(error.message);
    throw error;
  }
}

/**
 * `--dataset`: `tmsnap dataset`'s writer (dataset/write.ts) into the new site, loaded only when
 * asked for. Always the public view (no `--publish`), as the site names people or not.
 */
function siteDataset(content: string, hideAuthors: boolean): NonNullable<BuildOptions['dataset']> {
  return async (file, snapshot) => {
    const { DatasetError, writeDataset } = await import('../dataset/write.ts');
    try {
      return await writeDataset({ content, out: file, format: 'sqlite', snapshot, hideAuthors, tmsnapVersion: version });
    } catch (error) {
      if (error instanceof DatasetError) throw new CommandFailure(`--dataset: ${error.message}`);
      throw error;
    }
  };
}

/**
 * Why `--site-url` and `--base` cannot both hold: the site is published under the URL's path,
 * so a different base would build links for a place the site is not. Trailing slashes aside.
 */
export function baseDisagreement(siteUrl: string, base: string): string | undefined {
  const trim = (path: string) => path.replace(/\/+$/, '');
  const path = new URL(siteUrl).pathname;
  if (trim(path) === trim(base)) return undefined;
  return `--site-url ${siteUrl} is published under ${path} but --base is ${base}: give --base ${path}, or leave --base out (it follows --site-url)`;
}

/**
 * `40% written, ETA 3 min`. A share, not a count: what the build reports as written (pages,
 * feeds, badges, raw files) is not what the summary counts as pages, and the total is an
 * estimate from the snapshot (issue 28). Never 100% nor ETA 0 s: the last files, the sitemap and
 * the swap into the output folder are still to come, and the summary line says when it is done
 * (issue 35). `since` is the first report: the rate is taken from there on, without the
 * seconds before any file was written (opening the snapshot, starting Astro), which made the
 * first line's ETA 10–40 × too long (issue 36).
 */
export function progressLine(
  { done, total }: BuildProgress,
  elapsedSeconds: number,
  since: { done: number; seconds: number } = { done: 0, seconds: 0 },
): string {
  const share = Math.min(99, Math.floor((done / Math.max(total, 1)) * 100));
  if (done >= total) return `tmsnap build: ${share}% written, finishing`;
  const eta = done > since.done ? ((elapsedSeconds - since.seconds) / (done - since.done)) * (total - done) : undefined;
  const time = eta === undefined ? '?' : eta >= 90 ? `${Math.round(eta / 60)} min` : `${Math.max(1, Math.round(eta))} s`;
  return `tmsnap build: ${share}% written, ETA ${time}`;
}

/**
 * The progress line, rewritten in place on a terminal, every 10% otherwise; once 2% of the
 * files have been written since the first report, so that there is a rate to tell an ETA from.
 */
function progressPrinter(): { update: (progress: BuildProgress) => void; end: () => void } {
  const started = performance.now();
  const tty = process.stderr.isTTY === true;
  let lastTenth = -1;
  let shown = false;
  let first: { done: number; seconds: number } | undefined;
  return {
    update(progress) {
      const seconds = (performance.now() - started) / 1000;
      if (first === undefined) first = { done: progress.done, seconds };
      // A rate over one batch of files swings 2-3x; 2% of the estimate steadies it (issue 36).
      if (progress.done - first.done < Math.max(1, progress.total / 50)) return;
      const line = progressLine(progress, seconds, first);
      if (tty) {
        process.stderr.write(`\r${line}\u001b[K`);
        shown = true;
        return;
      }
      const tenth = Math.min(9, Math.floor((progress.done / Math.max(progress.total, 1)) * 10));
      if (tenth > lastTenth) {
        lastTenth = tenth;
        console.error(line);
      }
    },
    end() {
      if (shown) process.stderr.write('\n');
      shown = false;
    },
  };
}

/**
 * What Ctrl-C during a build says: nothing at the first, which stops the build and ends with the
 * one line saying what the output folder holds (`BuildInterrupted`); a second stops at once.
 */
const buildInterruptMessages = {
  first: '',
  lastWords: 'interrupted: the output folder holds the site it held before, unchanged; the next build removes what this one left beside it',
};

export const command: Command = {
  summary: 'build the static status site from a snapshot',
  help,
  async run(args) {
    const { json, ...options } = await parseBuildArgs(args);
    // Loaded here so that `tmsnap build --help` and bad flags do not pay for Astro.
    const { buildSite, BuildInputError, BuildInterrupted } = await import('../site/build.ts');
    const progress = progressPrinter();
    const interrupt = interruptible(
      (text) => {
        if (text === '') return;
        progress.end();
        console.error(`tmsnap build: ${text}`);
      },
      buildInterruptMessages,
      exitCodes.interrupted,
    );
    try {
      const summary = await buildSite({ ...options, onProgress: progress.update, signal: interrupt.signal }).finally(() => interrupt.dispose());
      progress.end();
      if (json) console.log(JSON.stringify(summary));
      console.error(
        `tmsnap build: ${counted(summary.pages, 'page', 'pages')} in ${counted(summary.files, 'file', 'files')} (${(summary.bytes / 1e6).toFixed(1)} MB) from snapshot ${summary.snapshot} in ${summary.seconds.toFixed(1)} s, open ${join(options.out, 'index.html')}`,
      );
      return exitCodes.ok;
    } catch (error) {
      progress.end();
      if (error instanceof BuildInterrupted) {
        console.error(`tmsnap build: ${error.message}`);
        return exitCodes.interrupted;
      }
      if (error instanceof BuildInputError) {
        console.error(`tmsnap build: ${error.message}`);
        return exitCodes.failed;
      }
      throw error;
    }
  },
};
