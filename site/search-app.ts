/**
 * The search page's script (src/scripts/search/app.ts, the engine of search/ with the page's
 * own code), bundled into `search/app.js` as a classic script because module scripts do not
 * load from `file://` (docs/search.md).
 */
import { fileURLToPath } from 'node:url';

const appEntry = fileURLToPath(new URL('../src/scripts/search/app.ts', import.meta.url));
const workerEntry = fileURLToPath(new URL('../src/scripts/search/search-worker.ts', import.meta.url));

/** Bundles the page's script; also used by bench/search.ts to measure a page change on an index built before. */
export async function bundleApp(outfile: string): Promise<number> {
  const { build } = await import('esbuild');
  // The worker is bundled first and carried in app.js as text: the page starts it from a
  // `blob:` URL, as a worker file of its own would not load from `file://` (docs/search.md, "Workers").
  const worker = await build({
    entryPoints: [workerEntry],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2022',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const result = await build({
    entryPoints: [appEntry],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2022',
    outfile,
    define: { TMSNAP_SEARCH_WORKER: JSON.stringify(worker.outputFiles[0]!.text) },
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
  });
  return Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
}
