/**
 * The search page's script (src/scripts/search/app.ts, the engine of search/ with the page's
 * own code), bundled into `search/app.js` as a classic script because module scripts do not
 * load from `file://` (docs/search.md), and its workers' script beside it (`workerFile`).
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// Not from src/scripts/: the package compiles no page script to JavaScript (tsconfig.pack.json).
import { registerFunction, workerFile } from '../search/format.ts';

const appEntry = fileURLToPath(new URL('../src/scripts/search/app.ts', import.meta.url));
const workerEntry = fileURLToPath(new URL('../src/scripts/search/search-worker.ts', import.meta.url));

/**
 * Bundles the page's script into `outfile` and the workers' into `workerFile` beside it; returns
 * the bytes of both. Also used by bench/search.ts to measure a page change on an index built before.
 */
export async function bundleApp(outfile: string): Promise<number> {
  const { build } = await import('esbuild');
  const options = { bundle: true, format: 'iife', minify: true, target: 'es2022', legalComments: 'none', logLevel: 'silent' } as const;
  const worker = await build({ ...options, entryPoints: [workerEntry], write: false });
  // The workers' text is a file of its own that registers it as an index file does: in app.js
  // every query loaded it before its first results (67 against 42.5 kB), though a query of one
  // language never starts a worker. A script, not a worker file: the page starts workers from a
  // `blob:` URL, as a worker cannot load a `file://` script (docs/search.md, "Workers").
  const workerScript = `${registerFunction}(${JSON.stringify(workerFile)},${JSON.stringify(worker.outputFiles[0]!.text)});\n`;
  await writeFile(join(dirname(outfile), workerFile), workerScript);
  const result = await build({ ...options, entryPoints: [appEntry], outfile, metafile: true });
  const appBytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  return appBytes + Buffer.byteLength(workerScript);
}
