/**
 * The fixture instance (fixture.ts) built with the real CLI once per interface language, served
 * on 127.0.0.1, and a Chromium to look at it: the browser tests of `--ui-lang`
 * (ui-language.test.ts, phone-rtl.test.ts). Each map of edits writes one more snapshot.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { UiLanguage } from '../../site-model/page-settings.ts';
import { buildWithCli, hasChromium, launchChromium, scratch, serveStatic } from './browser.ts';
import { writeFixtureSnapshot } from './fixture.ts';
import { useTempFolders } from '../helpers/temp.ts';

type Edits = ReadonlyMap<number, { target: string[]; state: number }>;

export interface FixtureSites<L extends UiLanguage> {
  /** Each language's site root, ending in `/`; filled before the tests run. */
  urls: Record<L, string>;
  browser: Browser;
  /** Whether Chromium is there (outside-command.ts): gate the file's tests on it. */
  chromium: boolean;
}

/** Builds and serves the sites before the file's tests, and stops all after them. */
export function useFixtureSites<L extends UiLanguage>(prefix: string, langs: readonly L[], snapshots: readonly Edits[] = [new Map()]): FixtureSites<L> {
  const sites = { urls: {}, chromium: hasChromium() } as FixtureSites<L>;
  const servers: Array<Awaited<ReturnType<typeof serveStatic>>> = [];
  const tempFolder = useTempFolders(prefix, 'all', scratch);
  beforeAll(async () => {
    const work = await tempFolder();
    const content = join(work, 'content');
    for (const edits of snapshots) await writeFixtureSnapshot(content, edits);
    for (const lang of langs) {
      const dist = join(work, lang);
      await buildWithCli(['--content', content, '--out', dist, '--ui-lang', lang]);
      const server = await serveStatic(dist);
      servers.push(server);
      sites.urls[lang] = server.url;
    }
    sites.browser = await launchChromium();
  }, 900_000);
  afterAll(async () => {
    await sites.browser?.close();
    for (const server of servers) await server.close();
  });
  return sites;
}
