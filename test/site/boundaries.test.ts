/**
 * The folders import one way (CONTRIBUTING.md, "Map of the code"), by the table `npm run lint`
 * enforces for `.ts` files (eslint.config.js); here for every file, `.astro` and `.mjs` included,
 * so that `npm test` alone catches a file that imports against that order, with its name.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { below as allowed } from '../../eslint.config.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function sources(folder: string): Promise<string[]> {
  const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && /\.(ts|mjs|astro)$/.test(entry.name)).map((entry) => join(entry.parentPath, entry.name));
}

/** Relative specifiers of `import … from`, `import(…)` and `new URL(…)`. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]|new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1] ?? match[2]!);
}

test('each folder imports only the folders below it, .astro and .mjs files included', async () => {
  const wrong: string[] = [];
  for (const [folder, below] of Object.entries(allowed)) {
    for (const file of await sources(folder)) {
      const name = relative(root, file).split(sep).join('/');
      for (const specifier of specifiers(await readFile(file, 'utf8'))) {
        const target = relative(root, resolve(dirname(file), specifier)).split(sep);
        // A file of the package root (package.json) is no folder of the flow.
        if (target.length === 1) continue;
        // A folder of the flow may be two deep (packages/reference-server).
        const into = Object.keys(allowed).find((other) => target.join('/').startsWith(`${other}/`)) ?? target[0]!;
        if (into !== folder && !below.includes(into)) wrong.push(`${name} imports ${specifier}`);
      }
    }
  }
  expect(wrong).toEqual([]);
});

test('the pages read their input from the build input, never from the environment', async () => {
  const reading: string[] = [];
  for (const file of await sources('src')) if ((await readFile(file, 'utf8')).includes('process.env')) reading.push(relative(root, file));
  expect(reading).toEqual([]);
});
