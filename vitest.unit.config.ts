import { defineConfig } from 'vitest/config';
import { unitFiles } from './test/unit-files.ts';
import base from './vitest.config.ts';

/**
 * `npm run test:unit`: the suite's fast files, named in test/unit-files.ts; a file not named there
 * runs only in `npm test` (docs/decisions/2026-11-28-unit-tier-line.md).
 */
// Not mergeConfig: it would add this include to the default one instead of replacing it.
export default defineConfig({ ...base, test: { ...base.test, include: unitFiles } });
