/**
 * The file of the module `name` beside `of` (an `import.meta.url`), for a child process or a
 * worker thread: `.ts` when `of` runs from its TypeScript source (a clone, through Node's type
 * stripping), `.js` when it is the JavaScript compiled into the package
 * (docs/decisions/2026-11-28-no-loader.md).
 */
export function siblingModule(name: string, of: string): URL {
  return new URL(`./${name}${of.endsWith('.ts') ? '.ts' : '.js'}`, of);
}
