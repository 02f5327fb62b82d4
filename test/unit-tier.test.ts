/**
 * The line of `npm run test:unit` (docs/decisions/2026-11-28-unit-tier-line.md): the tier is the
 * files test/unit-files.ts names, each of them there, and none reaches, through the test
 * modules it imports, a browser, a site build or the `tmsnap` command line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unitFiles } from './unit-files.ts';

const repo = resolve(import.meta.dirname, '..');

/** What makes a test file slow by what it imports: Chromium, `tmsnap build` (Astro), the CLI in a child process. */
const slowPackages = ['playwright-core', 'astro'];
const slowModules = ['test/site/browser.ts', 'test/search/search-site.ts', 'test/site/fixture-sites.ts', 'test/helpers/tmsnap.ts'];
/** Node in a child process, the CLI's way in (regular expressions, so this file does not match itself). */
const childNode = [/\bprocess\.execPath\b/, /\bbin\/tmsnap\.js\b/];

/** `dir/{a,b}.test.ts` → `dir/a.test.ts`, `dir/b.test.ts`: the one glob form the list uses. */
function expand(pattern: string): string[] {
  const braces = /^(.*)\{([^}]*)\}(.*)$/.exec(pattern);
  return braces ? braces[2]!.split(',').map((name) => `${braces[1]}${name}${braces[3]}`) : [pattern];
}

/** Every module specifier of a source text: static, side-effect and dynamic imports, and re-exports. */
function specifiers(source: string): string[] {
  return [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);
}

/** What a test file reaches that marks it slow, following the test modules (under test/) it imports. */
function slowReach(file: string): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const source = readFileSync(join(repo, path), 'utf8');
    if (childNode.some((pattern) => pattern.test(source))) found.add(`${path} runs node in a child process`);
    for (const specifier of specifiers(source)) {
      if (!specifier.startsWith('.')) {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        if (slowPackages.includes(name)) found.add(`${path} imports ${specifier}`);
        continue;
      }
      const target = relative(repo, resolve(repo, dirname(path), specifier));
      if (slowModules.includes(target)) found.add(`${path} imports ${target}`);
      else if (target.startsWith('test/') && target.endsWith('.ts')) visit(target);
    }
  };
  visit(file);
  return [...found];
}

const files = unitFiles.flatMap(expand);

describe('the unit tier', () => {
  it('names files that exist, each once, all of them in the default config too', () => {
    expect(files.filter((file) => !existsSync(join(repo, file)))).toEqual([]);
    expect(new Set(files).size).toBe(files.length);
    // vitest.config.ts takes test/**/*.test.ts but the real-Weblate tier.
    expect(files.filter((file) => !/^test\/(?!weblate\/).+\.test\.ts$/.test(file))).toEqual([]);
  });

  it('reaches no browser, site build or command line through its imports', () => {
    expect(files.flatMap(slowReach)).toEqual([]);
  });

  it('would see a browser test that were listed', () => {
    expect(slowReach('test/site/phone-rtl.test.ts')).toContain('test/site/phone-rtl.test.ts imports test/site/fixture-sites.ts');
    expect(slowReach('test/search/status-browser.test.ts')).toContain('test/search/status-browser.test.ts imports test/search/search-site.ts');
    expect(slowReach('test/archive/raw-counts.test.ts')).toContain('test/archive/raw-counts.test.ts runs node in a child process');
    expect(slowReach('test/site/browser.ts')).toContain('test/site/browser.ts imports playwright-core');
  });
});
