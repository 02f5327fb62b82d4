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
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import { buildInputModule, type BuildInput } from '../site-model/build-input.ts';
import { bundleApp } from './search-app.ts';

/** The data modules' door for the input (src/data/build-input.ts), under the build's `srcDir`. */
const providerOf = (srcDir: URL) => fileURLToPath(new URL('data/build-input.ts', srcDir));
/** What Astro's thread starts computing as the input arrives (src/data/warm-up.ts). */
const warmUpOf = (srcDir: URL) => fileURLToPath(new URL('data/warm-up.ts', srcDir));

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
    // The module hands the input to src/data/ as it loads (the pages import it before their own code
    // runs) and starts what later pages need (src/data/warm-up.ts).
    [
      buildInputModule,
      (srcDir) =>
        `import { provideBuildInput } from ${JSON.stringify(providerOf(srcDir))};\n` +
        `import { warmUp } from ${JSON.stringify(warmUpOf(srcDir))};\n` +
        `const input = provideBuildInput(${JSON.stringify(input)});\nwarmUp();\nexport default input;\n`,
    ],
    [
      pageProgressModule,
      () =>
        `const channel = new BroadcastChannel(${JSON.stringify(channelName)});\nchannel.unref?.();\n` +
        `export const onRequest = async (context, next) => {\n  const response = await next();\n  channel.postMessage(1);\n  return response;\n};\n`,
    ],
  ]);
  let listener: BroadcastChannel | undefined;
  let outDir: URL | undefined;
  let searchIndex: Promise<void> | undefined;
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
      'astro:config:done': ({ config }) => {
        outDir = config.outDir;
      },
      // Started with the build rather than after its pages, so that reading every unit for it
      // overlaps the pages' rendering instead of following it on one core (docs/site.md, "Where a
      // build's time goes"). Its files are its own, under `search/`.
      'astro:build:start': ({ logger }) => {
        searchIndex = writeSearchIndex(input, fileURLToPath(outDir!), logger);
        // Awaited on `astro:build:done`; a failure before then must not go unhandled.
        searchIndex.catch(() => {});
      },
      'astro:build:done': async ({ dir, logger }) => {
        try {
          await (searchIndex ?? writeSearchIndex(input, fileURLToPath(dir), logger));
        } finally {
          listener?.close();
        }
      },
    },
  };
}

/** The search index of `input`'s snapshot, with its app, into `out`'s `search/` folder. */
async function writeSearchIndex(input: BuildInput, out: string, logger: AstroIntegrationLogger): Promise<void> {
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
}
