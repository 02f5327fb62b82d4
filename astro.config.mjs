// @ts-check
import { defineConfig } from 'astro/config';

// `tmsnap build` (site/build.ts) runs Astro's build() with this file plus the output folder,
// site URL and base path given on its command line, and the integration that hands the pages
// the build input and writes the search index (site/astro-integration.ts). See docs/site.md.
export default defineConfig({
  srcDir: './src',
  // Copied as they are: the one stylesheet and the one classic script every page links
  // relatively (assets/site.css, assets/site.js), which Astro's bundled `/_astro/…` URLs would
  // break under file://.
  publicDir: './src/public',
  outDir: './dist',
  build: {
    format: 'directory',
    // The few component styles are inlined so that no page depends on an absolute `/_astro/`
    // URL, which breaks file://.
    inlineStylesheets: 'always',
    concurrency: 4,
  },
  compressHTML: true,
  devToolbar: { enabled: false },
  vite: {
    build: { assetsInlineLimit: 1_000_000 },
  },
});
