import type { Snapshot } from '../../snapshot/index.ts';
import { buildSearchIndex, type SearchBuildOptions } from '../../search-index/build.ts';
import { searchRecords, siteUnitHref } from '../../site-model/search-input.ts';

/** The search index as the site builds it, with the site's records and unit links (site/astro-integration.ts). */
export async function siteSearchIndex(snapshot: Snapshot, out: string, options: Partial<SearchBuildOptions> = {}) {
  return buildSearchIndex(snapshot, out, { records: await searchRecords(snapshot), unitHref: siteUnitHref, ...options });
}
