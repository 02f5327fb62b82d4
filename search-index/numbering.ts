/**
 * The snapshot's projects, components, languages and translations as search numbers them:
 * positions in sorted lists, so shards refer to a component or language with a small integer.
 * The manifest carries the lists; shards carry the numbers.
 */
import type { StoredEntry, StoredComponent, StoredLanguage, StoredProject, StoredTranslation } from '../snapshot/index.ts';
import type { SearchManifest } from '../search/format.ts';

export interface NumberedTranslation {
  component: number;
  language: number;
  entry: StoredEntry<StoredTranslation>;
}

export interface Numbering {
  projects: SearchManifest['projects'];
  components: SearchManifest['components'];
  languages: SearchManifest['languages'];
  projectEntries: StoredEntry<StoredProject>[];
  componentEntries: StoredEntry<StoredComponent>[];
  /** By component, then language; not the source language's own translations. */
  translations: NumberedTranslation[];
}

/** The records search numbers, as the site reads them (site-model/search-input.ts). */
export interface SearchRecords {
  projects: readonly StoredEntry<StoredProject>[];
  components: readonly StoredEntry<StoredComponent>[];
  languages: readonly StoredEntry<StoredLanguage>[];
  translations: readonly StoredEntry<StoredTranslation>[];
  /** The path of the component a translation belongs to (a translation may be stored without the link). */
  componentOf(translation: StoredEntry<StoredTranslation>): string;
  /**
   * Whether a translation is its component's source language: its units are the sources every
   * result shows, not translations found (issue 28), so they are not indexed.
   */
  isSource(translation: StoredEntry<StoredTranslation>): boolean;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function numberRecords(records: SearchRecords): Numbering {
  const projectEntries = [...records.projects].sort((a, b) => byText(a.record.slug, b.record.slug));
  const projectByPath = new Map(projectEntries.map((project, position) => [project.path, position]));
  const componentEntries = records.components
    .filter((component) => projectByPath.has(component.record.project))
    .sort((a, b) => projectByPath.get(a.record.project)! - projectByPath.get(b.record.project)! || byText(a.record.slug, b.record.slug));
  const componentByPath = new Map(componentEntries.map((component, position) => [component.path, position]));

  const languageRecords = new Map(records.languages.map(({ record }) => [record.code, record]));
  const codes = [...new Set([...languageRecords.keys(), ...records.translations.map(({ record }) => record.language_code)])].sort(byText);
  const languageByCode = new Map(codes.map((code, position) => [code, position]));

  const translations: NumberedTranslation[] = [];
  for (const entry of records.translations) {
    if (records.isSource(entry)) continue;
    const component = componentByPath.get(records.componentOf(entry));
    if (component === undefined) continue;
    translations.push({ component, language: languageByCode.get(entry.record.language_code)!, entry });
  }
  translations.sort((a, b) => a.component - b.component || a.language - b.language);

  return {
    projects: projectEntries.map(({ record: { slug, name } }) => ({ slug, name })),
    components: componentEntries.map(({ record: { slug, name, project } }) => ({ project: projectByPath.get(project)!, slug, name })),
    languages: codes.map((code) => {
      const language = languageRecords.get(code);
      return { code, name: language?.name ?? code, direction: language?.direction ?? '' };
    }),
    projectEntries,
    componentEntries,
    translations,
  };
}
