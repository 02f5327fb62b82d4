/**
 * The snapshot's projects, components, languages and translations as search numbers them:
 * positions in sorted lists, so shards refer to a component or language with a small integer.
 */
import type { StoredComponent, StoredLanguage, StoredProject, StoredTranslation } from '../snapshot/schemas.ts';
import type { SearchManifest } from './format.ts';

export interface CatalogTranslation {
  component: number;
  language: number;
  record: StoredTranslation;
}

export interface Catalog {
  projects: SearchManifest['projects'];
  components: SearchManifest['components'];
  languages: SearchManifest['languages'];
  projectRecords: StoredProject[];
  componentRecords: StoredComponent[];
  /** By component, then language. */
  translations: CatalogTranslation[];
}

export interface CatalogRecords {
  projects: readonly StoredProject[];
  components: readonly StoredComponent[];
  languages: readonly StoredLanguage[];
  translations: readonly StoredTranslation[];
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function buildCatalog(records: CatalogRecords): Catalog {
  const projectRecords = [...records.projects].sort((a, b) => byText(a.slug, b.slug));
  const projectByUrl = new Map(projectRecords.map((project, position) => [project.url, position]));
  const componentRecords = records.components
    .filter((component) => projectByUrl.has(component.project))
    .sort((a, b) => projectByUrl.get(a.project)! - projectByUrl.get(b.project)! || byText(a.slug, b.slug));
  const componentByUrl = new Map(componentRecords.map((component, position) => [component.url, position]));

  const languageRecords = new Map(records.languages.map((language) => [language.code, language]));
  const codes = [...new Set([...languageRecords.keys(), ...records.translations.map((translation) => translation.language_code)])].sort(byText);
  const languageByCode = new Map(codes.map((code, position) => [code, position]));

  const translations: CatalogTranslation[] = [];
  for (const record of records.translations) {
    const component = componentByUrl.get(record.component ?? componentUrlOf(record.url));
    if (component === undefined) continue;
    translations.push({ component, language: languageByCode.get(record.language_code)!, record });
  }
  translations.sort((a, b) => a.component - b.component || a.language - b.language);

  return {
    projects: projectRecords.map(({ slug, name }) => ({ slug, name })),
    components: componentRecords.map(({ slug, name, project }) => ({ project: projectByUrl.get(project)!, slug, name })),
    languages: codes.map((code) => {
      const language = languageRecords.get(code);
      return { code, name: language?.name ?? code, direction: language?.direction ?? '' };
    }),
    projectRecords,
    componentRecords,
    translations,
  };
}

/**
 * A translation stored from its component's list carries no component link; its own URL
 * names it: `api/translations/<project>/<component>/<language>/` ⇒ `api/components/<project>/<component>/`.
 */
function componentUrlOf(translationUrl: string): string {
  const match = /^(.*)api\/translations\/([^/]+)\/([^/]+)\/[^/]+\/$/.exec(translationUrl);
  return match ? `${match[1]}api/components/${match[2]}/${match[3]}/` : '';
}
