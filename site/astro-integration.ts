/**
 * What `buildSite` adds to Astro's build: the build input as the virtual module
 * `virtual:tmsnap/build-input`, imported first by every page (as Starlight hands its checked
 * config to its pages), and the search index, written next to the search page (`search/`) once
 * Astro has written the pages, hooked on `astro:build:done` as Starlight hooks Pagefind
 * (docs/site.md, docs/search.md).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { buildInputModule, type BuildInput } from '../site-model/build-input.ts';
import { bundleApp } from './search-app.ts';

/** The data modules' door for the input (src/data/build-input.ts), under the build's `srcDir`. */
const providerOf = (srcDir: URL) => fileURLToPath(new URL('data/build-input.ts', srcDir));

export function tmsnapSite(input: BuildInput): AstroIntegration {
  const resolved = `\0${buildInputModule}`;
  return {
    name: 'tmsnap-site',
    hooks: {
      'astro:config:setup': ({ config, updateConfig, injectScript }) => {
        // The module hands the input to src/data/ as it loads: the pages import it before their own code runs.
        const code = `import { provideBuildInput } from ${JSON.stringify(providerOf(config.srcDir))};\nexport default provideBuildInput(${JSON.stringify(input)});\n`;
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'tmsnap:build-input',
                resolveId: (id: string) => (id === buildInputModule ? resolved : undefined),
                load: (id: string) => (id === resolved ? code : undefined),
              },
            ],
          },
        });
        injectScript('page-ssr', `import ${JSON.stringify(buildInputModule)};`);
      },
      'astro:build:done': async ({ dir, logger }) => {
        const [{ openSnapshot }, { publishedSnapshot }, { buildSearchIndex }, { searchRecords, siteUnitHref }] = await Promise.all([
          import('../snapshot/index.ts'),
          import('../site-model/published-snapshot.ts'),
          import('../search-index/build.ts'),
          import('../site-model/search-input.ts'),
        ]);
        const started = performance.now();
        logger.info('building the search index');
        try {
          // The search index holds only what the pages may publish (site-model/published-snapshot.ts).
          const snapshot = await publishedSnapshot(await openSnapshot(input.content, input.snapshot), input);
          const out = fileURLToPath(dir);
          const report = await buildSearchIndex(snapshot, out, {
            records: await searchRecords(snapshot),
            unitHref: siteUnitHref,
            onProgress: (message) => logger.info(message),
          });
          report.bytes += await bundleApp(join(out, 'search', 'app.js'));
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
