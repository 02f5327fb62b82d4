// @ts-check
import { defineConfig } from 'astro/config';

// `tmsnap build` (cli/build.ts) runs Astro's build() with this file plus the output folder,
// site URL and base path given on its command line; the snapshot comes through the environment.
export default defineConfig({
  srcDir: './src',
  publicDir: './src/public',
  outDir: './dist',
  build: {
    format: 'directory',
    // Pages link their stylesheet relatively (assets/site.css); the few component styles are
    // inlined so that no page depends on an absolute `/_astro/` URL, which breaks file://.
    inlineStylesheets: 'always',
    concurrency: 4,
  },
  compressHTML: true,
  devToolbar: { enabled: false },
  vite: {
    build: { assetsInlineLimit: 1_000_000 },
  },
});
