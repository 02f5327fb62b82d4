/**
 * The search page's script (src/scripts/search/app.ts, the engine of search/ with the page's
 * own code), bundled into `search/app.js` as a classic script because module scripts do not
 * load from `file://` (docs/search.md).
 */
import { fileURLToPath } from 'node:url';

const appEntry = fileURLToPath(new URL('../src/scripts/search/app.ts', import.meta.url));

/** Bundles the page's script; also used by bench/search.ts to measure a page change on an index built before. */
export async function bundleApp(outfile: string): Promise<number> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [appEntry],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2022',
    outfile,
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
  });
  return Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
}
