/**
 * The search index as an Astro integration: once Astro has written the pages, the index goes
 * next to the search page (`search/`), from the snapshot the pages were rendered from
 * (site/env.ts). Hooked on `astro:build:done`, as Starlight hooks Pagefind (docs/search.md).
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { siteEnv } from './env.ts';

export function searchIndex(): AstroIntegration {
  return {
    name: 'tmsnap-search',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const content = process.env[siteEnv.content];
        // `astro check` and the like load the config without a snapshot: nothing to index.
        if (!content) {
          logger.warn(`${siteEnv.content} is not set: no search index (build the site with \`tmsnap build\`)`);
          return;
        }
        const [{ openSnapshot }, { publishedSnapshot }, { buildSearchIndex }, { siteUnitHref }] = await Promise.all([
          import('../snapshot/reader.ts'),
          import('./published-snapshot.ts'),
          import('../search/build.ts'),
          import('./search-links.ts'),
        ]);
        const started = performance.now();
        logger.info('building the search index');
        try {
          // The search index holds only what the pages may publish (site/published-snapshot.ts).
          const snapshot = await publishedSnapshot(await openSnapshot(content, process.env[siteEnv.snapshot] || undefined));
          const report = await buildSearchIndex(snapshot, fileURLToPath(dir), { unitHref: siteUnitHref, onProgress: (message) => logger.info(message) });
          logger.info(
            `search index of ${report.units} units (${report.sources} distinct sources) in ${report.shards} shards, ` +
              `${(report.bytes / 1e6).toFixed(1)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s`,
          );
        } catch (error) {
          throw new Error('Failed to build the search index.', { cause: error });
        }
      },
    },
  };
}
