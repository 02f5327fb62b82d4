/**
 * A component's strings across its translations, for the string pages. Units are read one
 * translation at a time (a whole snapshot's units do not fit in memory), and only by the bulk
 * writer (site/bulk-pages.ts), once each for a translation's page, its unit pages and its share
 * of the component's strings (`addStrings`).
 */
import type { StoredUnit } from '../../snapshot/index.ts';
import { stringChecksum, unitPageOf } from '../../site-model/paths.ts';
import type { ComponentEntry, TranslationEntry } from './tree.ts';

/** One translation of a string, for the string's page: where its unit is and what it says. */
export interface StringTranslation {
  translation: TranslationEntry;
  page: number;
  id: number;
  state: number;
  has_failing_check: boolean;
  has_suggestion: boolean;
  target: string[];
  /** The unit's link to the server's editor, as the server sent it (checked where it is shown). */
  webUrl: StoredUnit['web_url'];
}

/** A string of a component in every language that has it, for its page (docs/site.md, "One page per string"). */
export interface ComponentString {
  /** The unit of the source language when the snapshot holds it, else the first translation's. */
  source: StoredUnit;
  translations: StringTranslation[];
}

/** The component's translation in its source language, when the snapshot holds it. */
export function sourceTranslation(component: ComponentEntry): TranslationEntry | undefined {
  return component.translations.find((translation) => translation.language.code === component.sourceLanguage);
}

/**
 * Which strings of a component get a page, by checksum: those of its source translation (in
 * Weblate every unit has its source unit there, `sourceUnits`), or, when the snapshot lacks that
 * translation, every string of the component. None when the component has one translation: its
 * units say it all.
 */
export function stringsWithPages(component: ComponentEntry, sourceUnits: readonly StoredUnit[] | undefined): (checksum: string) => boolean {
  if (component.translations.length < 2) return () => false;
  if (sourceUnits === undefined) return () => true;
  const keys = new Set(sourceUnits.map((unit) => stringChecksum(unit.id_hash)));
  return (checksum) => keys.has(checksum);
}

/**
 * Adds one translation's units to its component's strings (by checksum), in the order the
 * translations are added (the component's, by language name). The index holds one component's
 * strings, never the instance's: the bulk writer (site/bulk-pages.ts) adds each translation as it
 * writes its unit pages, then writes the component's string pages and lets the index go.
 */
export function addStrings(index: Map<string, ComponentString>, translation: TranslationEntry, list: readonly StoredUnit[], isSource: boolean): void {
  list.forEach((unit, position) => {
    const key = stringChecksum(unit.id_hash);
    let entry = index.get(key);
    if (!entry) index.set(key, (entry = { source: unit, translations: [] }));
    else if (isSource) entry.source = unit;
    entry.translations.push({
      translation,
      page: unitPageOf(position, translation.unitPages),
      id: unit.id,
      state: unit.state,
      has_failing_check: unit.has_failing_check,
      has_suggestion: unit.has_suggestion,
      target: unit.target,
      webUrl: unit.web_url,
    });
  });
}
