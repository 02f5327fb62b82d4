/**
 * One build's input, as `buildSite` (site/build.ts) hands it over: to Astro's pages as the virtual
 * module `virtual:tmsnap/build-input` (site/astro-integration.ts), to the bulk writer threads as
 * their `workerData` (site/bulk-workers.ts). Plain data, so that it crosses both (docs/site.md).
 */
import type { PublishKind } from './privacy.ts';
import type { PageSettings } from './page-settings.ts';

export interface BuildInput {
  /** The archive folder. */
  content: string;
  /** The id of the snapshot the site shows. */
  snapshot: string;
  hideAuthors: boolean;
  /** Where the site will be published (`--site-url`), for absolute links. */
  siteUrl?: string;
  /** What a keyed crawl's site shows beyond the public view (site-model/privacy.ts). */
  publish: PublishKind[];
  settings: PageSettings;
  /**
   * Release levels (`--levels`), highest first, as archive/levels.ts parses them; absent: the
   * site shows none. Spelled out here because site-model imports nothing above it.
   */
  levels?: { measure: 'strings' | 'words'; levels: ReadonlyArray<{ name: string; percent: number }> };
  /** Credits (`--credits`): contributors' public names per project and language; absent: none. */
  credits?: boolean;
  /** The dataset of `--dataset` (docs/dataset.md), for the home page's link; absent: none. Astro's input only. */
  dataset?: SiteDataset;
}

/** The SQLite dataset a build put in the site. */
export interface SiteDataset {
  /** Its site path (`sitePaths.dataset()`). */
  path: string;
  bytes: number;
  /** How many snapshots it holds. */
  snapshots: number;
}

/** The module name Astro's pages import the build input by. */
export const buildInputModule = 'virtual:tmsnap/build-input';
