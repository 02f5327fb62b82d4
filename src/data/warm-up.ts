/**
 * Astro's thread from the build input on: the changes pages come first and wait for the bulk
 * writers' unit positions (site-model/positions.ts), so what later pages compute from every unit
 * (the consistency findings) is started here and runs meanwhile, rather than after them on one
 * core (docs/site.md, "Where a build's time goes"). The bulk writers do not call it.
 */
import { languageConsistency } from './consistency.ts';

export function warmUp(): void {
  // The page awaits the same promise (perBuild) and fails with it; here a failure must not go unhandled.
  languageConsistency('').catch(() => {});
}
