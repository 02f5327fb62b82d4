/**
 * The JavaScript of the package (docs/decisions/2026-11-28-no-loader.md): Node strips no types
 * under node_modules, so `npm pack` ships, beside each TypeScript module of the folders the
 * package holds, the module compiled to `.js` (its `.ts` imports rewritten to `.js`); the `.ts`
 * files stay, for Astro's build of src/ and for readable stack traces.
 *
 *   node scripts/pack-js.ts compile   (npm's `prepack`)
 *   node scripts/pack-js.ts clean     (npm's `postpack`)
 *
 * `compile` refuses to write over a `.js` file it did not write; `clean` removes exactly the
 * files `compile` listed in .cache/pack-js.json, and nothing else.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..');
const listFile = join(repo, '.cache', 'pack-js.json');

/** The `.js` files tsc will write for tsconfig.pack.json, relative to the repository. */
function plannedFiles(): string[] {
  const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  const out = execFileSync(process.execPath, [tsc, '-p', 'tsconfig.pack.json', '--listFilesOnly'], { cwd: repo, encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim())
    .filter((file) => file.startsWith(repo + '/') && file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => relative(repo, file).replace(/\.ts$/, '.js'));
}

async function listed(): Promise<string[]> {
  return existsSync(listFile) ? (JSON.parse(await readFile(listFile, 'utf8')) as string[]) : [];
}

async function compile(): Promise<void> {
  const earlier = new Set(await listed());
  const planned = plannedFiles();
  const foreign = planned.filter((file) => existsSync(join(repo, file)) && !earlier.has(file));
  if (foreign.length > 0) throw new Error(`pack-js: ${foreign[0]} exists and was not written by this script; move it away (${foreign.length} such file(s)).`);
  await mkdir(dirname(listFile), { recursive: true });
  // Listed before writing: a compile that stops half-way is still cleaned up.
  await writeFile(listFile, `${JSON.stringify(planned, null, 1)}\n`);
  const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.pack.json'], { cwd: repo, stdio: 'inherit' });
  console.error(`pack-js: compiled ${planned.length} modules to JavaScript for the package`);
}

async function clean(): Promise<void> {
  const files = await listed();
  await Promise.all(files.map((file) => rm(join(repo, file), { force: true })));
  await rm(listFile, { force: true });
  console.error(`pack-js: removed the ${files.length} compiled modules`);
}

const action = process.argv[2];
if (action === 'compile') await compile();
else if (action === 'clean') await clean();
else {
  console.error('Usage: node scripts/pack-js.ts compile|clean');
  process.exitCode = 2;
}
