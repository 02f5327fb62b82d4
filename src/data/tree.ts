/**
 * The site's tree of the snapshot: projects → components → translations, and languages, held
 * whole (they are small next to the units). Built once per build from the snapshot the build
 * input names (src/data/build-input.ts); pages only render it (docs/site.md).
 */
import { openSnapshot, type Snapshot, type StoredComponent, type StoredLanguage, type StoredProject, type StoredTranslation } from '../../snapshot/index.ts';
import { lastSegment, safeSegment, unitPageCount, type TranslationKey } from '../../site-model/paths.ts';
import { publishedSnapshot } from '../../site-model/published-snapshot.ts';
import { componentPathOf, siteRecords, type SiteRecords } from '../../site-model/records.ts';
import { perBuild, type BuildInput } from './build-input.ts';
import { addTotals, emptyTotals, type Totals } from '../../site-model/totals.ts';

export type { Snapshot };

export interface ProjectEntry {
  path: string;
  record: StoredProject;
  slug: string;
  components: ComponentEntry[];
  totals: Totals;
}

export interface ComponentEntry {
  path: string;
  record: StoredComponent;
  project: ProjectEntry;
  /** The component's own path segment: unique within the project even for components in categories. */
  slug: string;
  sourceLanguage: string;
  translations: TranslationEntry[];
  totals: Totals;
}

export interface TranslationEntry {
  path: string;
  record: StoredTranslation;
  component: ComponentEntry;
  language: LanguageEntry;
  key: TranslationKey;
  unitPages: number;
}

export interface LanguageEntry {
  code: string;
  /** Absent when the snapshot holds no record for a code a translation uses. */
  record: StoredLanguage | undefined;
  name: string;
  direction: 'ltr' | 'rtl';
  translations: TranslationEntry[];
}

export interface SiteTree {
  snapshot: Snapshot;
  projects: ProjectEntry[];
  components: ComponentEntry[];
  translations: TranslationEntry[];
  /** Languages with at least one translation: each gets its page, feed and statistics. */
  languages: LanguageEntry[];
  /** Languages the server lists without a translation in the snapshot: named, never given figures. */
  otherLanguages: LanguageEntry[];
  languageByCode: Map<string, LanguageEntry>;
  totals: Totals;
  hideAuthors: boolean;
  siteUrl: string | undefined;
}

function compareBy<T>(key: (item: T) => string) {
  return (a: T, b: T) => key(a).localeCompare(key(b), 'en');
}

/** The tree of the snapshot this build renders, read once. */
export const siteTree: () => Promise<SiteTree> = perBuild(loadTree);

async function loadTree(input: BuildInput): Promise<SiteTree> {
  // Everything the pages read comes through the published view: no e-mail address, nothing an
  // anonymous visitor could not see unless opted in (site-model/privacy.ts, docs/site.md).
  const snapshot = await publishedSnapshot(await openSnapshot(input.content, input.snapshot), input);
  return { snapshot, ...buildTree(await siteRecords(snapshot)), hideAuthors: input.hideAuthors, siteUrl: input.siteUrl };
}

/** Weblate's `enable_review` of a project: either kind of review makes approval the measure of completeness. */
function reviewOn(record: { translation_review?: boolean | undefined; source_review?: boolean | undefined }): boolean {
  return record.translation_review === true || record.source_review === true;
}

/** The tree of a set of records (pure): entries linked both ways, sorted by name, totals summed. */
export function buildTree(records: SiteRecords): Omit<SiteTree, 'snapshot' | 'hideAuthors' | 'siteUrl'> {
  const languageByCode = new Map<string, LanguageEntry>();
  const languageEntry = (code: string): LanguageEntry => {
    let entry = languageByCode.get(code);
    if (!entry) {
      entry = { code, record: undefined, name: code, direction: 'ltr', translations: [] };
      languageByCode.set(code, entry);
    }
    return entry;
  };
  for (const { record } of records.languages) {
    const entry = languageEntry(record.code);
    entry.record = record;
    entry.name = record.name;
    entry.direction = record.direction === 'rtl' ? 'rtl' : 'ltr';
  }

  const projects = new Map<string, ProjectEntry>();
  for (const { path, record } of records.projects) {
    projects.set(path, { path, record, slug: record.slug, components: [], totals: emptyTotals(reviewOn(record)) });
  }
  const components = new Map<string, ComponentEntry>();
  for (const { path, record } of records.components) {
    const project = projects.get(record.project);
    if (!project) continue;
    const entry: ComponentEntry = {
      path,
      record,
      project,
      slug: lastSegment(path),
      sourceLanguage: lastSegment(record.source_language),
      translations: [],
      totals: emptyTotals(project.totals.review === true),
    };
    components.set(path, entry);
    project.components.push(entry);
  }
  for (const { path, record } of records.translations) {
    const component = components.get(record.component ?? componentPathOf(path));
    if (!component) continue;
    const language = languageEntry(record.language_code);
    const entry: TranslationEntry = {
      path,
      record,
      component,
      language,
      key: { project: component.project.slug, component: component.slug, language: record.language_code },
      unitPages: unitPageCount(record.total),
    };
    component.translations.push(entry);
    language.translations.push(entry);
    addTotals(component.totals, record);
    addTotals(component.project.totals, record);
  }

  const totals = emptyTotals(true);
  for (const project of projects.values()) {
    project.components.sort(compareBy((c) => c.record.name));
    for (const component of project.components) component.translations.sort(compareBy((t) => t.language.name));
    addTotals(totals, project.totals);
  }
  // A real server lists every language it knows (about 650), almost all without a translation;
  // the crawl skips their statistics (docs/crawl.md), so the site names them and invents no 0%.
  const known = [...languageByCode.values()].filter((language) => language.record || language.translations.length > 0).sort(compareBy((l) => l.name));
  const languages = known.filter((language) => language.translations.length > 0);
  const otherLanguages = known.filter((language) => language.translations.length === 0);
  for (const language of languages) language.translations.sort(compareBy((t) => `${t.component.project.record.name}\u0000${t.component.record.name}`));
  const projectList = [...projects.values()].sort(compareBy((p) => p.record.name));
  return {
    projects: projectList,
    components: projectList.flatMap((p) => p.components),
    translations: projectList.flatMap((p) => p.components.flatMap((c) => c.translations)),
    languages,
    otherLanguages,
    languageByCode,
    totals,
  };
}

/** The static paths of the pages kept per project (its page, changes and feed): one each. */
export async function projectStaticPaths() {
  const { projects } = await siteTree();
  return projects.map((project) => ({ params: { project: safeSegment(project.slug) }, props: { project } }));
}

/** The static paths of the pages kept per language in use (its page, changes and feed). */
export async function languageStaticPaths() {
  const { languages } = await siteTree();
  return languages.map((language) => ({ params: { language: safeSegment(language.code) }, props: { language } }));
}
