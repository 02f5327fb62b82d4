/**
 * What the site gives the search indexer (search-index/): the records it numbers, as the site
 * reads them (raw ones read leniently included, so search finds every string the site shows),
 * and where the site publishes a unit: the unit page holding it, with its `unit-<id>` anchor,
 * from the same page arithmetic the pages use (docs/site.md, docs/search.md).
 */
import type { StoredEntry, StoredProject, StoredTranslation } from '../snapshot/index.ts';
import { lastSegment, unitHref } from './paths.ts';
import { componentPathOf, siteRecords, type RecordSource, type SiteRecords } from './records.ts';

type TranslationTest<T> = (translation: StoredEntry<StoredTranslation>) => T;

/** The site's records, the component each translation belongs to, and which translations are their component's source. */
export async function searchRecords(
  snapshot: RecordSource,
): Promise<SiteRecords & { componentOf: TranslationTest<string>; isSource: TranslationTest<boolean> }> {
  const records = await siteRecords(snapshot);
  const componentOf: TranslationTest<string> = (translation) => translation.record.component ?? componentPathOf(translation.path);
  const sourceLanguages = new Map(records.components.map(({ path, record }) => [path, lastSegment(record.source_language)]));
  // As the site tells a source translation (src/data/levels.ts): servers send `is_source`, older snapshots may not.
  const isSource: TranslationTest<boolean> = (translation) =>
    translation.record.is_source === true || sourceLanguages.get(componentOf(translation)) === translation.record.language_code;
  return { ...records, componentOf, isSource };
}

/** Where a unit sits (search-index/shard-stream.ts, `UnitPlace`): what its link is made from. */
export interface UnitPlaceOnSite {
  project: StoredEntry<Pick<StoredProject, 'slug'>>;
  component: { path: string };
  translation: StoredEntry<Pick<StoredTranslation, 'language_code' | 'total'>>;
  unit: { id: number };
  index: number;
}

export function siteUnitHref({ project, component, translation, unit, index }: UnitPlaceOnSite): string {
  const key = { project: project.record.slug, component: lastSegment(component.path), language: translation.record.language_code };
  return unitHref(key, translation.record.total, index, unit.id);
}
