/**
 * Lint with types (typescript-eslint) and the import zones of the one-way flow (CONTRIBUTING.md,
 * "Map of the code"): each folder imports only the folders below it,
 * api ← snapshot ← crawler, archive; api, snapshot ← site-model ← search-index, src ← site ← cli;
 * api, snapshot, archive, site-model ← dataset ← cli;
 * search/ (the page's engine) reads only api/.
 * packages/reference-server/ (tests and the demo) reads only api/; cli/ loads it by its package name.
 * `.astro` files are checked by `astro check`; tests and benches may import anything.
 */
import tseslint from 'typescript-eslint';

/**
 * The folders each top-level folder may import from, besides its own; test/site/boundaries.test.ts
 * applies the same table to `.astro` and `.mjs` files, which ESLint does not read here.
 * @type {Record<string, readonly string[]>}
 */
export const below = {
  api: [],
  snapshot: ['api'],
  crawler: ['api', 'snapshot'],
  archive: ['api', 'snapshot'],
  'site-model': ['api', 'snapshot'],
  // The archive as tables (docs/dataset.md): snapshots read through the site's published view.
  dataset: ['api', 'snapshot', 'archive', 'site-model'],
  search: ['api'],
  'search-index': ['api', 'snapshot', 'site-model', 'search'],
  src: ['api', 'snapshot', 'archive', 'site-model', 'search'],
  site: ['api', 'snapshot', 'archive', 'site-model', 'search', 'search-index', 'src'],
  // cli/ loads the reference server by its package name only (cli/reference-server-package.ts).
  cli: ['api', 'snapshot', 'crawler', 'archive', 'site-model', 'search', 'search-index', 'src', 'site', 'dataset'],
  'packages/reference-server': ['api'],
};
const folders = Object.keys(below);

/** One `no-restricted-imports` block per folder: a relative import that climbs into a folder not below it is an error. */
const zones = Object.entries(below).map(([folder, allowed]) => {
  const forbidden = folders.filter((other) => other !== folder && !allowed.includes(other));
  return {
    files: [`${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: forbidden.map((other) => ({
            regex: `^(\\.\\./)+${other}/`,
            message: `${folder}/ may import only ${allowed.length ? allowed.join(', ') : 'nothing outside itself'}: ${other}/ is above it in the flow (CONTRIBUTING.md, "Map of the code").`,
          })),
        },
      ],
    },
  };
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'content/**',
      '.cache/**',
      '.astro/**',
      'bench/results/**',
      'test/artifacts/**',
      '**/*.astro',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts', 'vitest.*.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
    },
  },
  ...zones,
);
