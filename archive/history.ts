/**
 * Progress over time: one series per project, component, translation and language, drawn
 * from the translations of every snapshot. Pure: `translations.ts` reads the entries.
 */
import type { TranslationEntry } from './diff.ts';
import { addFigures, noFigures, type Figures } from './figures.ts';

export interface SnapshotPoint {
  id: string;
  /** When the crawl started. */
  date: Date;
  entries: readonly TranslationEntry[];
}

/** Figures per snapshot, oldest first, aligned with `History.snapshots`; `undefined` where the subject did not exist. */
export type Series = (Figures | undefined)[];

export interface History {
  snapshots: { id: string; date: Date }[];
  /** By project slug. */
  projects: Map<string, Series>;
  /** By component path (`api/components/<project>/<component>/`). */
  components: Map<string, Series>;
  /** By translation path. */
  translations: Map<string, Series>;
  /** By language code. */
  languages: Map<string, Series>;
}

/** The component path a translation belongs to, from its own path (`api/translations/p/c/l/`). */
export function componentPathOf(translationPath: string): string {
  const [, , project, component] = translationPath.split('/');
  return `api/components/${project}/${component}/`;
}

export function buildHistory(points: readonly SnapshotPoint[]): History {
  const ordered = [...points].sort((a, b) => a.date.getTime() - b.date.getTime() || (a.id < b.id ? -1 : 1));
  const history: History = {
    snapshots: ordered.map(({ id, date }) => ({ id, date })),
    projects: new Map(),
    components: new Map(),
    translations: new Map(),
    languages: new Map(),
  };
  const add = (map: Map<string, Series>, key: string, at: number, figures: Figures) => {
    let series = map.get(key);
    if (!series) map.set(key, (series = Array.from({ length: ordered.length }, () => undefined)));
    series[at] = addFigures(series[at] ?? noFigures, figures);
  };
  ordered.forEach((point, at) => {
    for (const entry of point.entries) {
      add(history.translations, entry.path, at, entry.figures);
      add(history.components, componentPathOf(entry.path), at, entry.figures);
      add(history.projects, entry.project.slug, at, entry.figures);
      add(history.languages, entry.language.slug, at, entry.figures);
    }
  });
  return history;
}
