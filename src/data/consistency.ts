/**
 * Each language's consistency page (issue 26, site-model/consistency.ts): read once per build,
 * one component at a time, every translation's units. Only what a page lists is kept: the
 * translations of source texts that more than one component uses, and per language at most
 * `listedPerKind` findings of each kind, with a count of the rest (a page lists
 * inconsistencies, never every string: docs/decisions/2026-11-27-consistency.md).
 */
import {
  capped,
  differentTranslations,
  isTranslated,
  outliers,
  type DifferentTranslations,
  type Outlier,
  type PlacedTranslation,
  type StringTranslationOf,
} from '../../site-model/consistency.ts';
import { unitHref } from '../../site-model/paths.ts';
import type { StoredUnit } from '../../snapshot/index.ts';
import { perBuild } from './build-input.ts';
import { unitsRead } from './changes.ts';
import { siteTree, type ComponentEntry, type TranslationEntry } from './tree.ts';

/** Most findings of one kind a language's page lists. */
export const listedPerKind = 100;

/** A translation unlike most languages, with the string it translates. */
export interface OutlierRow extends Outlier {
  component: ComponentEntry;
  source: readonly string[];
}

export interface LanguageConsistency {
  different: { shown: DifferentTranslations[]; more: number };
  placeholders: { shown: OutlierRow[]; more: number };
  punctuation: { shown: OutlierRow[]; more: number };
}

const none: LanguageConsistency = { different: { shown: [], more: 0 }, placeholders: { shown: [], more: 0 }, punctuation: { shown: [], more: 0 } };

/** The findings of the language `code`: none where it has nothing inconsistent. */
export async function languageConsistency(code: string): Promise<LanguageConsistency> {
  return (await allConsistency()).get(code) ?? none;
}

/** Every language's findings, from one read of every translation's units a build (which the changes pages keep positions of). */
export const allConsistency = perBuild(() => readConsistency());

const formsKey = (forms: readonly string[]) => forms.join('\u0000');

/** The component's own language: its strings are the sources (src/data/help-needed.ts tells it the same way). */
function isSource(translation: TranslationEntry): boolean {
  return translation.record.is_source === true || translation.language.code === translation.component.sourceLanguage;
}

async function readConsistency(): Promise<Map<string, LanguageConsistency>> {
  const { snapshot, components } = await siteTree();
  // The one read of every translation's units on Astro's thread: the changes pages keep what they need of them (src/data/changes.ts).
  const read = async (translation: TranslationEntry): Promise<StoredUnit[]> => {
    const units = await snapshot.units(translation.path);
    await unitsRead(translation.path, units);
    return units;
  };

  // Source texts used by more than one component: only their translations are kept for the
  // "translated differently" lists. Read from each component's source translation, or its first.
  const componentsOf = new Map<string, number>();
  for (const component of components) {
    const sample = component.translations.find(isSource) ?? component.translations[0];
    if (!sample) continue;
    for (const key of new Set((await read(sample)).map((unit) => formsKey(unit.source)))) componentsOf.set(key, (componentsOf.get(key) ?? 0) + 1);
  }

  const shared = new Map<string, PlacedTranslation[]>();
  // Per language and kind, the first `listedPerKind` outliers and how many in all.
  const unlike = new Map<string, Record<Outlier['kind'], { rows: OutlierRow[]; total: number }>>();
  for (const component of components) {
    const name = `${component.project.slug}/${component.slug}`;
    // One string of the component across its languages, by source text and context (the unit's `id_hash`).
    const strings = new Map<bigint, { source: readonly string[]; translations: StringTranslationOf[] }>();
    for (const translation of component.translations) {
      if (isSource(translation)) continue;
      const code = translation.language.code;
      (await read(translation)).forEach((unit, index) => {
        if (!isTranslated(unit)) return;
        const href = unitHref(translation.key, translation.record.total, index, unit.id);
        if ((componentsOf.get(formsKey(unit.source)) ?? 0) > 1) {
          let list = shared.get(code);
          if (!list) shared.set(code, (list = []));
          list.push({ component: name, source: unit.source, target: unit.target, href });
        }
        let string = strings.get(unit.id_hash);
        if (!string) strings.set(unit.id_hash, (string = { source: unit.source, translations: [] }));
        string.translations.push({ language: code, target: unit.target, href });
      });
    }
    for (const { source, translations } of strings.values()) {
      for (const found of outliers(translations)) {
        let lists = unlike.get(found.language);
        if (!lists) unlike.set(found.language, (lists = { placeholders: { rows: [], total: 0 }, punctuation: { rows: [], total: 0 } }));
        const list = lists[found.kind];
        if (list.total++ < listedPerKind) list.rows.push({ ...found, component, source });
      }
    }
  }

  const codes = new Set([...shared.keys(), ...unlike.keys()]);
  const listed = (found: { rows: OutlierRow[]; total: number } | undefined) => ({
    shown: found?.rows ?? [],
    more: (found?.total ?? 0) - (found?.rows.length ?? 0),
  });
  return new Map(
    [...codes].map((code) => [
      code,
      {
        different: capped(differentTranslations(shared.get(code) ?? []), listedPerKind),
        placeholders: listed(unlike.get(code)?.placeholders),
        punctuation: listed(unlike.get(code)?.punctuation),
      },
    ]),
  );
}
