/**
 * Where the status site publishes a unit, from the site's own link helpers: units are grouped
 * in pages per translation, each unit an anchor `unit-<id>` (docs/site.md).
 */
import { sitePaths } from '../src/utils/links.ts';
import { unitPageCount, unitPageOf } from '../src/utils/site-data.ts';
import type { UnitPlace } from './shard-stream.ts';

/** The site names a component by the last segment of its API path, as its pages do. */
const lastSegment = (path: string) => path.replace(/\/$/, '').split('/').at(-1) ?? path;

export function siteUnitHref({ project, component, translation, unit, index }: UnitPlace): string {
  const key = { project: project.record.slug, component: lastSegment(component.path), language: translation.record.language_code };
  const page = unitPageOf(index, unitPageCount(translation.record.total));
  return `${sitePaths.units(key, page)}#${encodeURIComponent(`unit-${unit.id}`)}`;
}
