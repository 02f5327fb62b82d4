/**
 * What `buildSite` adds to Astro's build: the build input as the virtual module
 * `virtual:tmsnap/build-input`, imported first by every page (as Starlight hands its checked
 * config to its pages); a middleware that tells the build each page rendered, for its progress
 * line; and the search index, written next to the search page (`search/`) once Astro has written
 * the pages, hooked on `astro:build:done` as Starlight hooks Pagefind (docs/site.md, docs/search.md).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import { buildInputModule, type BuildInput } from '../site-model/build-input.ts';
import { bundleApp } from './search-app.ts';

/** The data modules' door for the input (src/data/build-input.ts), under the build's `srcDir`. */
const providerOf = (srcDir: URL) => fileURLToPath(new URL('data/build-input.ts', srcDir));

const pageProgressModule = 'virtual:tmsnap/page-progress';

/**
 * `onPage` is called once per page or endpoint Astro renders. The pages run in the module graph
 * Astro bundles, which shares the thread but not this module: the middleware tells it on a
 * BroadcastChannel.
 */
export function tmsnapSite(input: BuildInput, onPage?: () => void): AstroIntegration {
  // A channel of this build's own: builds at once in one process keep their counts apart.
  const channelName = `tmsnap-pages:${randomUUID()}`;
  const modules = new Map<string, (srcDir: URL) => string>([
    // The module hands the input to src/data/ as it loads: the pages import it before their own code runs.
    [
      buildInputModule,
      (srcDir) => `import { provideBuildInput } from ${JSON.stringify(providerOf(srcDir))};\nexport default provideBuildInput(${JSON.stringify(input)});\n`,
    ],
    [
      pageProgressModule,
      () =>
        `const channel = new BroadcastChannel(${JSON.stringify(channelName)});\nchannel.unref?.();\n` +
        `export const onRequest = async (context, next) => {\n  const response = await next();\n  channel.postMessage(1);\n  return response;\n};\n`,
    ],
  ]);
  let listener: BroadcastChannel | undefined;
  return {
    name: 'tmsnap-site',
    hooks: {
      'astro:config:setup': ({ config, updateConfig, injectScript, addMiddleware }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'tmsnap:build-input',
                resolveId: (id: string) => (modules.has(id) ? `\0${id}` : undefined),
                load: (id: string) => (id.startsWith('\0') ? modules.get(id.slice(1))?.(config.srcDir) : undefined),
              },
              {
                // Astro bundles src/ into chunks elsewhere: a module reading files beside its source
                // (src/i18n/files.ts, the PO catalogs) keeps import.meta.url its source's URL, as when Node runs it.
                name: 'tmsnap:source-url',
                transform: (code: string, id: string) =>
                  id.startsWith(fileURLToPath(config.srcDir)) && id.endsWith('.ts') && code.includes('import.meta.url')
                    ? code.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id).href))
                    : undefined,
              },
            ],
          },
        });
        injectScript('page-ssr', `import ${JSON.stringify(buildInputModule)};`);
        if (onPage !== undefined) {
          listener = new BroadcastChannel(channelName);
          (listener as unknown as { unref?: () => void }).unref?.();
          listener.onmessage = () => onPage();
          addMiddleware({ entrypoint: pageProgressModule, order: 'post' });
        }
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
        } finally {
          listener?.close();
        }
      },
    },
  };
}
