/**
 * The site's folders import one way (CONTRIBUTING.md, "Map of the code"): site/ (the build) above
 * src/ (the pages) and the search (search-index/ above search/), all above site-model/ (the
 * site's vocabulary), which reads only snapshot/ and api/. A file that imports against that
 * order fails here, with its name and the import.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Folders of ours each folder may import from (besides itself). */
const allowed: Record<string, readonly string[]> = {
  'site-model': ['api', 'snapshot'],
  search: ['api'],
  'search-index': ['search', 'site-model', 'api', 'snapshot'],
  src: ['search', 'site-model', 'archive', 'api', 'snapshot'],
  site: ['src', 'search', 'search-index', 'site-model', 'archive', 'api', 'snapshot'],
};

async function sources(folder: string): Promise<string[]> {
  const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && /\.(ts|mjs|astro)$/.test(entry.name)).map((entry) => join(entry.parentPath, entry.name));
}

/** Relative specifiers of `import … from`, `import(…)` and `new URL(…)`. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]|new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1] ?? match[2]!);
}

test('each site folder imports only the folders below it', async () => {
  const wrong: string[] = [];
  for (const [folder, below] of Object.entries(allowed)) {
    for (const file of await sources(folder)) {
      const name = relative(root, file).split(sep).join('/');
      for (const specifier of specifiers(await readFile(file, 'utf8'))) {
        const target = relative(root, resolve(dirname(file), specifier)).split(sep);
        const into = target.length > 1 ? target[0]! : '(package root)';
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
