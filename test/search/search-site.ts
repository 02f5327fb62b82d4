/**
 * The search fixture built as a site through `tmsnap build`, served over HTTP, and one Chromium:
 * set up once before a file's tests and closed after them, for the search page's browser tests.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildWithCli, hasChromium, launchChromium, serveStatic } from '../site/browser.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { writeSearchFixture } from './fixture.ts';

export interface SearchSite {
  /** The file's scratch folder: `content/` and `dist/` live in it. */
  work: string;
  dist: string;
  server: Awaited<ReturnType<typeof serveStatic>>;
  browser: Browser;
  /** Whether Chromium is there (outside-command.ts): gate the file's tests on it. */
  chromium: boolean;
}

/** Filled in by `beforeAll`: read its fields inside tests and hooks only. */
export function useSearchSite(prefix: string): SearchSite {
  const tempFolder = useTempFolders(prefix, 'all');
  const site = { chromium: hasChromium() } as SearchSite;
  beforeAll(async () => {
    site.work = await tempFolder();
    const content = join(site.work, 'content');
    site.dist = join(site.work, 'dist');
    await writeSearchFixture(content);
    await buildWithCli(['--content', content, '--out', site.dist]);
    site.server = await serveStatic(site.dist);
    site.browser = await launchChromium();
  });
  afterAll(async () => {
    await site.browser?.close();
    await site.server?.close();
  });
  return site;
}

/** The two ways the page is opened (`describe.each` rows): over HTTP, and as files from disk. */
export function siteRoots(site: SearchSite): [string, () => string][] {
  return [
    ['over HTTP', () => site.server.url],
    ['from file://', () => pathToFileURL(site.dist).href + '/'],
  ];
}
