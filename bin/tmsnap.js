#!/usr/bin/env node
// Plain JavaScript that any Node parses, so that an older Node gets one line and exit 2, not a
// stack trace from a dependency. Then the CLI with no loader: the TypeScript sources through
// Node's own type stripping in a clone, the JavaScript compiled into the package under
// node_modules, where Node strips no types (docs/decisions/2026-11-28-no-loader.md).
import { readFileSync } from 'node:fs';
import module from 'node:module';

const floor = /^>=(\d+)\.(\d+)/.exec(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node);
const [major, minor] = process.versions.node.split('.').map(Number);
if (floor && (major < Number(floor[1]) || (major === Number(floor[1]) && minor < Number(floor[2])))) {
  process.stderr.write(`tmsnap needs Node ${floor[1]}.${floor[2]} or newer (Node 24 LTS recommended); this is Node ${process.versions.node}.\n`);
  process.exit(2);
}

// Node keeps the compiled (and type-stripped) modules between runs in its own cache folder.
module.enableCompileCache?.();
const compiled = import.meta.url.includes('/node_modules/');
const { main } = await import(compiled ? '../cli/main.js' : '../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
