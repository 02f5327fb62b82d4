/**
 * The benches' input sizes, one switch shared by bench/build.ts, bench/crawl.ts and
 * bench/search.ts (`--scenario NAME`, or a scenario name where a bench takes a list), and
 * where each keeps what it produced: `bench/results/<scenario>/` (git-ignored), so a stage
 * finished in one sitting (a snapshot, a build) is reused by the next.
 *
 * `1m` and `10m` are issue 14's sizes: 1M units in 50 languages, and 10M units in 100
 * languages over about 100,000 source strings (10M / 101 translations of each string).
 */
import { join, resolve } from 'node:path';

export interface Scenario {
  name: string;
  /** The reference server's `--data` for it (crawls, and the direct writer's source). */
  data: string;
  /** What it stands for, printed with the figures. */
  about: string;
}

export const scenarios: Record<string, Scenario> = {
  bundled: { name: 'bundled', data: 'bundled', about: 'the bundled real catalogs (27,829 units)' },
  '100k': { name: '100k', data: 'synthetic:units=100000,seed=1', about: '100,000 units, 10 languages, 12 components' },
  '1m': {
    name: '1m',
    data: 'synthetic:projects=10,components=10,languages=50,units=1000000,seed=1',
    about: '1M units, 50 languages, 100 components (19,608 source strings)',
  },
  '10m': {
    name: '10m',
    data: 'synthetic:projects=10,components=10,languages=100,units=10000000,seed=1',
    about: '10M units, 100 languages, 100 components (99,010 source strings)',
  },
};

/** A scenario by name; a `synthetic:…` or `bundled` value passes through as its own scenario. */
export function scenarioNamed(name: string): Scenario {
  const known = scenarios[name];
  if (known) return known;
  if (name === 'bundled' || name.startsWith('synthetic:')) return { name: name.replace(/[^a-z0-9=,]+/gi, '-'), data: name, about: name };
  throw new Error(`unknown scenario "${name}"; scenarios: ${Object.keys(scenarios).join(', ')}, or a --data value (synthetic:…)`);
}

/** The reference server's `--data` of a scenario name (or of a `--data` value given as is). */
export function scenarioData(name: string): string {
  return scenarioNamed(name).data;
}

const repo = resolve(import.meta.dirname, '..');

/** Where a scenario's stages keep their results: `content/` (the snapshot), `dist/` (the site), logs. */
export function scenarioResults(name: string): { dir: string; content: string; dist: string; crawlContent: string } {
  const dir = join(repo, 'bench/results', scenarioNamed(name).name);
  return { dir, content: join(dir, 'content'), dist: join(dir, 'dist'), crawlContent: join(dir, 'crawl-content') };
}
