/** Links out of the site: to the live server, and to the raw files archived with the snapshot. */
import { decodeLink, storedFile } from '../../snapshot/index.ts';
import { sitePaths } from '../../site-model/paths.ts';
import { siteTree, type Snapshot, type TranslationEntry } from './tree.ts';

/** The live page on the server: only an http(s) URL on the snapshot's own server. */
export function liveUrl(stored: string, snapshot: Snapshot): string | undefined {
  const { base_url, format_api_links } = snapshot.manifest.server;
  const absolute = decodeLink(stored, { baseUrl: base_url, formatApi: format_api_links });
  try {
    const url = new URL(absolute);
    return (url.protocol === 'http:' || url.protocol === 'https:') && absolute.startsWith(base_url) ? absolute : undefined;
  } catch {
    return undefined;
  }
}

/** The archived raw file of a translation, if the crawl stored one. */
export async function rawFile(translation: TranslationEntry): Promise<{ sitePath: string; size: number } | undefined> {
  const { snapshot } = await siteTree();
  const record = await snapshot.record(`${translation.path}file/`);
  const parsed = storedFile.safeParse(record);
  if (!parsed.success) return undefined;
  return { sitePath: sitePaths.file(translation.key, translation.record.filename), size: parsed.data.size };
}
