/**
 * Where the status site publishes a unit, for the search index: the unit page holding it, with
 * its `unit-<id>` anchor, from the same page arithmetic the pages use (docs/site.md).
 */
import type { UnitPlace } from '../search/shard-stream.ts';
import { lastSegment, unitHref } from '../site-model/paths.ts';

export function siteUnitHref({ project, component, translation, unit, index }: UnitPlace): string {
  const key = { project: project.record.slug, component: lastSegment(component.path), language: translation.record.language_code };
  return unitHref(key, translation.record.total, index, unit.id);
}
