/**
 * Astro's thread from the build input on: the one read of every unit (the consistency findings,
 * and the positions the changes pages link by) starts here and runs while the first pages
 * render, rather than after them on one core (docs/site.md, "Where a build's time goes"). The
 * bulk writers do not call it.
 */
import { allConsistency } from './consistency.ts';

export function warmUp(): void {
  // The page awaits the same promise (perBuild) and fails with it; here a failure must not go unhandled.
  allConsistency().catch(() => {});
}
