/**
 * Where the interface catalogs lie: beside this module, in src/i18n/po/ (po.ts says their
 * shape). Node only. In Astro's bundle `import.meta.url` stays this file's own URL
 * (site/astro-integration.ts, "tmsnap:source-url"), so the pages read the same files.
 */
import { readFileSync } from 'node:fs';
import { parsePo, type PoFile } from './po.ts';

/** The template Weblate starts a new language from. */
export const templateFile = new URL('./po/tmsnap.pot', import.meta.url);

/** A language's catalog, `src/i18n/po/<lang>.po`. */
export function catalogFile(lang: string): URL {
  return new URL(`./po/${lang}.po`, import.meta.url);
}

export function readPo(file: URL): PoFile {
  const text = readFileSync(file, 'utf8');
  try {
    return parsePo(text);
  } catch (error) {
    throw new Error(`${file.pathname}: ${(error as Error).message}`, { cause: error });
  }
}
